/// The length of a habit's period: its target must be met once per period.
public enum HabitPeriod: String, Sendable, CaseIterable {
    case day, week, month

    /// "day", "week", "month" as in "this week".
    public var noun: String { rawValue }

    /// The period whose buckets hold a habit's skip budget: a daily habit's skips are counted
    /// per week, a weekly habit's per month (of the week's first day), a monthly habit's per year.
    public var skipBucket: String {
        switch self {
        case .day: return "week"
        case .week: return "month"
        case .month: return "year"
        }
    }

    /// The most skips a bucket can hold (a budget that large would never break a streak).
    public var maximumSkips: Int {
        switch self {
        case .day: return 6
        case .week: return 3
        case .month: return 11
        }
    }
}

/// What a period needs to count as met.
public enum HabitTarget: Sendable, Equatable {
    /// At least N qualifying workouts (`"times": N`).
    case count(Int)
    /// At least this distance summed over the period's qualifying workouts (`"totalMeters"`).
    case distance(meters: Double)
    /// At least this much time (elapsed, manual pauses excluded) summed over the period
    /// (`"totalSeconds"`).
    case duration(seconds: Double)

    /// The target as a number in the unit the progress is counted in.
    public var amount: Double {
        switch self {
        case .count(let n): return Double(n)
        case .distance(let m): return m
        case .duration(let s): return s
        }
    }

    /// `count`, `distance` or `duration` (JSON `"kind"`).
    public var kind: String {
        switch self {
        case .count: return "count"
        case .distance: return "distance"
        case .duration: return "duration"
        }
    }

    /// A workout's contribution to the progress.
    public func value(of w: StreakWorkout) -> Double {
        switch self {
        case .count: return 1
        case .distance: return w.distanceMeters.isFinite ? max(0, w.distanceMeters) : 0
        case .duration: return max(0, w.durationSeconds)
        }
    }
}

/// A local wall-clock time-of-day window, minutes after midnight: `from` inclusive, `to`
/// exclusive. Inside a streak day (which starts at the day-start hour) it must not wrap.
public struct HabitWindow: Sendable, Equatable {
    public var fromMinute: Int
    public var toMinute: Int
    public init(fromMinute: Int, toMinute: Int) { self.fromMinute = fromMinute; self.toMinute = toMinute }
}

/// One habit: which workouts count, how much of them a period needs, on which days, and the
/// skip budget that keeps a streak alive through a missed period. Rules: docs/streaks.md.
public struct Habit: Sendable, Equatable {
    public var name: String
    /// Activities that count; empty = any.
    public var activities: Set<ActivityType>
    public var target: HabitTarget
    public var per: HabitPeriod
    /// A workout counts only when it lasts at least this long (elapsed seconds).
    public var minimumSeconds: Double
    /// A workout counts only when it covers at least this distance.
    public var minimumMeters: Double
    /// Weekdays (0 = Sunday ... 6 = Saturday) whose workouts count; empty = every day.
    /// For a daily habit the other days are not due: they neither count nor break a streak.
    public var weekdays: Set<Int>
    /// Only workouts starting in this local time-of-day window count; the window's end is the
    /// day's deadline for the at-risk check.
    public var window: HabitWindow?
    /// Missed periods per skip bucket (`per.skipBucket`) that keep a streak alive without
    /// counting for it.
    public var skips: Int
    /// Local wall-clock minute of the at-risk reminder; nil = the habit's default (docs/streaks.md).
    public var remindAtMinute: Int?

    public init(name: String, activities: Set<ActivityType> = [], target: HabitTarget = .count(1), per: HabitPeriod = .day,
                minimumSeconds: Double = 0, minimumMeters: Double = 0, weekdays: Set<Int> = [], window: HabitWindow? = nil,
                skips: Int = 0, remindAtMinute: Int? = nil) {
        self.name = name; self.activities = activities; self.target = target; self.per = per
        self.minimumSeconds = minimumSeconds; self.minimumMeters = minimumMeters; self.weekdays = weekdays
        self.window = window; self.skips = skips; self.remindAtMinute = remindAtMinute
    }

    /// Whether a day of this weekday (0 = Sunday) is due (daily habits) or counts (others).
    public func isDue(weekday: Int) -> Bool { weekdays.isEmpty || weekdays.contains(weekday) }

    /// The built-in daily streak: any workout of at least `minimumWorkoutSeconds` every day,
    /// `restDaysPerWeek` skips per week, the reminder at `riskWarningHour`.
    public static func builtInDaily(_ s: StreakSettings) -> Habit {
        let c = s.clamped
        return Habit(name: "daily", target: .count(1), per: .day, minimumSeconds: c.minimumWorkoutSeconds,
                     skips: c.restDaysPerWeek, remindAtMinute: c.riskWarningHour * 60)
    }

    /// The built-in weekly streak: `weeklyTarget` workouts a week, no skips.
    public static func builtInWeekly(_ s: StreakSettings) -> Habit {
        let c = s.clamped
        return Habit(name: "weekly", target: .count(c.weeklyTarget), per: .week, minimumSeconds: c.minimumWorkoutSeconds,
                     remindAtMinute: c.riskWarningHour * 60)
    }
}
