import WorkoutCore

/// Log events about time: the system's clocks (suspend, wall-clock steps, synchronization) and
/// the GPS receiver's clock. Each is logged when it happens or changes, never periodically.
enum ClockLogEvent: LogEvent {
    case system(ClockEvent)
    case receiver(ReceiverClockEvent)
    /// The kernel's synchronization state changed (or was first read).
    case sync(SystemClockSync)
    /// What dates the workout in progress changed (`DateSource`), in words.
    case dates(String)

    var name: String {
        switch self {
        case .system(.suspended): return "clock.suspended"
        case .system(.stepped): return "clock.stepped"
        case .receiver(.offsetLearned): return "gps.clock"
        case .receiver(.stepAccepted): return "gps.clock_step"
        case .receiver(.outliersIgnored): return "gps.clock_outlier"
        case .receiver(.problemChanged): return "gps.problem"
        case .sync: return "clock.sync"
        case .dates: return "clock.dates"
        }
    }

    var level: LogLevel {
        switch self {
        case .system, .dates: return .notice
        case .receiver(.problemChanged(let p)): return p == nil ? .info : .warning
        case .receiver(.stepAccepted), .receiver(.outliersIgnored): return .notice
        case .receiver(.offsetLearned), .sync: return .info
        }
    }

    var message: String {
        switch self {
        case .system(.suspended(let s, _, _)): return "System was suspended for \(ClockOffsetText.amount(s))"
        case .system(.stepped(let s, _)): return "System clock set \(ClockOffsetText.amount(s)) \(s > 0 ? "forward" : "back")"
        case .receiver(.offsetLearned(let m, let applied)):
            return applied == 0 ? "GPS receiver clock agrees with the system clock" : "GPS receiver clock \(ClockOffsetText.amount(m)) \(m > 0 ? "ahead of" : "behind") the system clock"
        case .receiver(.stepAccepted(_, let to, let n)): return "GPS receiver clock stepped (\(n) fixes agree): now \(ClockOffsetText.amount(to)) \(to > 0 ? "ahead" : "behind")"
        case .receiver(.outliersIgnored(let n, let d)): return "Ignored the time of \(n) GPS fix\(n == 1 ? "" : "es") \(ClockOffsetText.amount(d)) out of sequence (placed by arrival)"
        case .receiver(.problemChanged(let p)): return p.map { "GPS problem: \($0)" } ?? "GPS receiver clock problem gone"
        case .sync(let s): return "System clock \(s == .unknown ? "synchronization unknown" : s.rawValue)"
        case .dates(let d): return "Workout dated by the \(d)"
        }
    }

    var fields: [(String, LogValue)] {
        switch self {
        case .system(.suspended(let s, let from, let to)):
            return [("seconds", .double(s, decimals: 1)), ("from", .string(ISO8601.format(from))), ("to", .string(ISO8601.format(to)))]
        case .system(.stepped(let s, let at)): return [("seconds", .double(s, decimals: 1)), ("at", .string(ISO8601.format(at)))]
        case .receiver(.offsetLearned(let m, let applied)): return [("offset_s", .double(m, decimals: 1)), ("applied_s", .double(applied, decimals: 1))]
        case .receiver(.stepAccepted(let from, let to, let n)): return [("from_s", .double(from, decimals: 1)), ("to_s", .double(to, decimals: 1)), ("fixes", .int(n))]
        case .receiver(.outliersIgnored(let n, let d)): return [("fixes", .int(n)), ("deviation_s", .double(d, decimals: 1))]
        case .receiver(.problemChanged(let p)): return [("problem", .string(p ?? ""))]
        case .sync(let s): return [("sync", .string(s.rawValue))]
        case .dates(let d): return [("dates", .string(d))]
        }
    }
}
