/// A run of consecutive periods that met a habit's target (skipped periods between them keep
/// it alive without counting).
public struct HabitStreak: Sendable, Equatable {
    /// First day of the first met period.
    public var start: StreakDay
    /// Last day of the last met period.
    public var end: StreakDay
    /// Met periods (skipped ones not counted).
    public var length: Int
    /// Skipped periods between `start` and `end`.
    public var skips: Int
    /// Progress summed over its met periods (workouts, metres or seconds).
    public var total: Double

    public init(start: StreakDay, end: StreakDay, length: Int, skips: Int, total: Double) {
        self.start = start; self.end = end; self.length = length; self.skips = skips; self.total = total
    }
}

/// One habit as of one instant, from `HabitEngine.status`.
public struct HabitStatus: Sendable, Equatable {
    public var habit: Habit
    /// The streak day containing `now`.
    public var today: StreakDay
    /// The period in progress: first and last day.
    public var periodStart: StreakDay
    public var periodEnd: StreakDay
    /// Workouts, metres or seconds counted so far this period.
    public var progress: Double
    /// The target in the same unit.
    public var target: Double
    /// Today is a day whose workouts count (always, unless the habit names weekdays).
    public var dueToday: Bool
    /// Due days from today (included when due) to the end of the period.
    public var dueDaysLeft: Int
    /// The streak still alive: its last met period is this one, or every period between it
    /// and this one was skipped. Nil when none.
    public var current: HabitStreak?
    /// The longest streak ever (the earliest of equals), current included.
    public var best: HabitStreak?
    /// Skipped periods after the current streak's last met period, before this one.
    public var trailingSkips: Int
    /// Missing this period would still keep the current streak (a skip is left in its bucket).
    /// False without a current streak, when done, or when this period is not due.
    public var coverable: Bool

    /// The period's target is met.
    public var done: Bool { progress >= target }
    /// What is still missing this period (0 when done).
    public var left: Double { max(0, target - progress) }
}
