/// A daily or a weekly streak, for log events.
public enum AnyStreak: Sendable, Equatable {
    case daily(DayStreak)
    case weekly(WeekStreak)

    /// `daily` or `weekly`, the `kind=` field.
    public var kind: String {
        switch self {
        case .daily: return "daily"
        case .weekly: return "weekly"
        }
    }
    public var length: Int {
        switch self {
        case .daily(let d): return d.days
        case .weekly(let w): return w.weeks
        }
    }
    public var start: StreakDay {
        switch self {
        case .daily(let d): return d.start
        case .weekly(let w): return w.start
        }
    }
    public var end: StreakDay {
        switch self {
        case .daily(let d): return d.end
        case .weekly(let w): return w.end
        }
    }
    /// "5 days", "1 week".
    var lengthText: String {
        let unit = kind == "daily" ? "day" : "week"
        return "\(length) \(unit)\(length == 1 ? "" : "s")"
    }
    var title: String { kind == "daily" ? "Daily" : "Weekly" }
}

/// Log lines about streaks. Events and fields are listed in docs/logging.md ("Events").
public enum StreakLogEvent: LogEvent, Equatable {
    /// At startup (and after settings or zone changes): the streaks as of now.
    case summary(StreakStatus, zone: String)
    /// A saved workout started a streak.
    case started(AnyStreak)
    /// A saved workout made the current streak longer.
    case extended(AnyStreak, previous: Int)
    /// The best streak grew past the previous best.
    case newBest(AnyStreak, previous: Int)
    /// The daily streak ends tonight without a workout.
    case atRisk(StreakAtRisk)

    public var name: String {
        switch self {
        case .summary: return "streak.summary"
        case .started: return "streak.started"
        case .extended: return "streak.extended"
        case .newBest: return "streak.best"
        case .atRisk: return "streak.at_risk"
        }
    }

    public var level: LogLevel {
        switch self {
        case .atRisk: return .notice
        default: return .info
        }
    }

    public var message: String {
        switch self {
        case .summary(let s, _):
            return "Streaks: daily \(s.currentDaily?.days ?? 0) (best \(s.bestDaily?.days ?? 0)), weekly \(s.currentWeekly?.weeks ?? 0) (best \(s.bestWeekly?.weeks ?? 0))"
        case .started(let k): return "\(k.title) streak started"
        case .extended(let k, _): return "\(k.title) streak extended to \(k.lengthText)"
        case .newBest(let k, let p): return "New best \(k.kind) streak: \(k.lengthText) (was \(p))"
        case .atRisk(let r): return "Daily streak of \(r.streak.days) day\(r.streak.days == 1 ? "" : "s") at risk: no workout yet today"
        }
    }

    public var fields: [(String, LogValue)] {
        switch self {
        case .summary(let s, let zone):
            var f: [(String, LogValue)] = [("today", .string(s.today.iso)), ("zone", .string(zone)),
                                           ("today_done", .bool(s.todayDone)),
                                           ("daily_current", .int(s.currentDaily?.days ?? 0))]
            if let c = s.currentDaily { f.append(("daily_since", .string(c.start.iso))) }
            f.append(("daily_best", .int(s.bestDaily?.days ?? 0)))
            if let b = s.bestDaily { f += [("daily_best_start", .string(b.start.iso)), ("daily_best_end", .string(b.end.iso))] }
            f += [("weekly_current", .int(s.currentWeekly?.weeks ?? 0)), ("week_workouts", .int(s.workoutsThisWeek))]
            if let c = s.currentWeekly { f.append(("weekly_since", .string(c.start.iso))) }
            f.append(("weekly_best", .int(s.bestWeekly?.weeks ?? 0)))
            if let b = s.bestWeekly { f += [("weekly_best_start", .string(b.start.iso)), ("weekly_best_end", .string(b.end.iso))] }
            return f
        case .started(let k):
            return k.fields
        case .extended(let k, let p):
            return k.fields + [("previous", .int(p))]
        case .newBest(let k, let p):
            return k.fields + [("previous", .int(p))]
        case .atRisk(let r):
            return [("kind", .string("daily")), ("length", .int(r.streak.days)), ("start", .string(r.streak.start.iso)),
                    ("last", .string(r.streak.end.iso)), ("day", .string(r.day.iso)), ("minutes_left", .int(r.minutesLeft))]
        }
    }

}

extension AnyStreak {
    /// The fields shared by started / extended / best events.
    var fields: [(String, LogValue)] {
        [("kind", .string(kind)), ("length", .int(length)), ("start", .string(start.iso)), ("end", .string(end.iso))]
    }
}
