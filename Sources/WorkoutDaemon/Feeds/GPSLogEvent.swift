import WorkoutCore

/// Log events owned by the GPS layer. Problems are logged once per change, not per retry.
enum GPSLogEvent: LogEvent {
    case connected(String)
    case problem(String)
    case fix(FixMode, source: String)
    case signalLost(seconds: Double)
    case closed

    var name: String {
        switch self {
        case .connected: return "gps.connected"
        case .problem: return "gps.problem"
        case .fix: return "gps.fix"
        case .signalLost: return "gps.lost"
        case .closed: return "gps.closed"
        }
    }

    var level: LogLevel {
        switch self {
        case .problem, .signalLost: return .warning
        case .connected, .fix, .closed: return .info
        }
    }

    var message: String {
        switch self {
        case .connected(let s): return "GPS source \(s) connected"
        case .problem(let p): return "GPS problem: \(p)"
        case .fix(let m, _): return m == .noFix ? "No GPS fix" : "GPS fix \(m.label)"
        case .signalLost(let s): return "GPS signal lost for \(Int(s)) s"
        case .closed: return "GPS closed"
        }
    }

    var fields: [(String, LogValue)] {
        switch self {
        case .connected(let s): return [("source", .string(s))]
        case .problem(let p): return [("problem", .string(p))]
        case .fix(let m, let s): return [("fix", .string(m.label)), ("source", .string(s))]
        case .signalLost(let s): return [("seconds", .double(s, decimals: 0))]
        case .closed: return []
        }
    }
}
