/// Log lines about habits (docs/logging.md, "Events").
public enum HabitLogEvent: LogEvent, Equatable {
    /// The habit's streak breaks unless what is left is done in time (once per period).
    case atRisk(HabitAtRisk)
    /// A saved workout met this period's target.
    case done(HabitStatus)
    /// The best streak grew past a previous best of at least one period.
    case newBest(name: String, per: HabitPeriod, streak: HabitStreak, previous: Int)

    public var name: String {
        switch self {
        case .atRisk: return "habit.at_risk"
        case .done: return "habit.done"
        case .newBest: return "habit.best"
        }
    }

    public var level: LogLevel {
        switch self {
        case .atRisk: return .notice
        case .done, .newBest: return .info
        }
    }

    public var message: String {
        switch self {
        case .atRisk(let r):
            return "\(r.habit.name): \(r.leftText), \(HabitText.daysToGo(r.daysToGo)) (streak of \(HabitText.periods(r.streak.length, r.habit.per)))"
        case .done(let s):
            return "\(s.habit.name): done \(s.habit.per == .day ? "today" : "this " + s.habit.per.noun) (streak of \(HabitText.periods(s.current?.length ?? 0, s.habit.per)))"
        case .newBest(let name, let per, let streak, let previous):
            return "\(name): new best streak of \(HabitText.periods(streak.length, per)) (was \(previous))"
        }
    }

    public var fields: [(String, LogValue)] {
        switch self {
        case .atRisk(let r):
            return [("habit", .string(r.habit.name)), ("per", .string(r.habit.per.rawValue)), ("left", .double(r.left, decimals: r.habit.target.kind == "count" ? 0 : 1)),
                    ("left_text", .string(r.leftText)), ("days_to_go", .int(r.daysToGo)), ("minutes_left", .int(r.minutesLeft)),
                    ("length", .int(r.streak.length)), ("period", .string(r.period.iso))]
        case .done(let s):
            return [("habit", .string(s.habit.name)), ("per", .string(s.habit.per.rawValue)), ("period", .string(s.periodStart.iso)),
                    ("length", .int(s.current?.length ?? 0))]
        case .newBest(let name, let per, let streak, let previous):
            return [("habit", .string(name)), ("per", .string(per.rawValue)), ("length", .int(streak.length)),
                    ("start", .string(streak.start.iso)), ("end", .string(streak.end.iso)), ("previous", .int(previous))]
        }
    }
}

extension HabitText {
    /// "1 day", "5 weeks".
    public static func periods(_ n: Int, _ per: HabitPeriod) -> String { "\(n) \(per.noun)\(n == 1 ? "" : "s")" }
}

/// What saving one workout did to each habit: compares the status before and after, both as
/// of the same `now` (like `StreakReport`).
public enum HabitReport {
    /// `habit.done` when the period's target became met; `habit.best` when the best streak grew
    /// past a previous best of at least one period.
    public static func events(saving workout: StreakWorkout, into history: [StreakWorkout], habits: [Habit], now: Double,
                              engine: HabitEngine) -> [HabitLogEvent] {
        var out: [HabitLogEvent] = []
        for h in habits {
            let before = engine.status(h, history: history, now: now)
            let after = engine.status(h, history: history + [workout], now: now)
            if after.done && !before.done { out.append(.done(after)) }
            let was = before.best?.length ?? 0
            if was > 0, let b = after.best, b.length > was { out.append(.newBest(name: h.name, per: h.per, streak: b, previous: was)) }
        }
        return out
    }
}
