/// What saving one workout did to the streaks: compares the status before and after, both as
/// of the same `now`.
public struct StreakReport: Sendable, Equatable {
    /// How a current streak changed.
    public enum Change: String, Sendable, Equatable {
        /// No current streak before, one after.
        case started
        /// A current streak before and a longer one after (today added, or a gap filled by an
        /// imported workout).
        case extended
        case unchanged
    }

    /// The workout met the minimum duration (otherwise nothing can change).
    public var qualifies: Bool
    /// The streak day the workout counts for.
    public var day: StreakDay
    public var daily: Change
    /// The best daily streak grew past a previous best of at least one day.
    public var dailyNewBest: Bool
    public var weekly: Change
    /// The best weekly streak grew past a previous best of at least one week.
    public var weeklyNewBest: Bool
    public var before: StreakStatus
    public var after: StreakStatus

    /// The report for saving `workout` into `history` (which must not contain it yet).
    public init(saving workout: StreakWorkout, into history: [StreakWorkout], now: Double, calculator: StreakCalculator) {
        before = calculator.status(history: history, now: now)
        after = calculator.status(history: history + [workout], now: now)
        qualifies = calculator.qualifies(workout)
        day = calculator.day(of: workout.startedAt, utcOffset: workout.utcOffset)
        daily = StreakReport.change(before.currentDaily?.days, after.currentDaily?.days)
        weekly = StreakReport.change(before.currentWeekly?.weeks, after.currentWeekly?.weeks)
        dailyNewBest = (before.bestDaily?.days ?? 0) > 0 && (after.bestDaily?.days ?? 0) > before.bestDaily!.days
        weeklyNewBest = (before.bestWeekly?.weeks ?? 0) > 0 && (after.bestWeekly?.weeks ?? 0) > before.bestWeekly!.weeks
    }

    static func change(_ a: Int?, _ b: Int?) -> Change {
        guard let b else { return .unchanged }
        guard let a else { return .started }
        return b > a ? .extended : .unchanged
    }

    /// The log events to emit, in order: started/extended, then new best; daily before weekly.
    public var events: [StreakLogEvent] {
        var out: [StreakLogEvent] = []
        if let c = after.currentDaily {
            if daily == .started { out.append(.started(.daily(c))) }
            if daily == .extended { out.append(.extended(.daily(c), previous: before.currentDaily!.days)) }
        }
        if dailyNewBest, let b = after.bestDaily { out.append(.newBest(.daily(b), previous: before.bestDaily!.days)) }
        if let c = after.currentWeekly {
            if weekly == .started { out.append(.started(.weekly(c))) }
            if weekly == .extended { out.append(.extended(.weekly(c), previous: before.currentWeekly!.weeks)) }
        }
        if weeklyNewBest, let b = after.bestWeekly { out.append(.newBest(.weekly(b), previous: before.bestWeekly!.weeks)) }
        return out
    }
}
