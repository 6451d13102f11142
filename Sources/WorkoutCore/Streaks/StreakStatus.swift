/// A run of streak days: from the first to the last day with a qualifying workout.
public struct DayStreak: Sendable, Equatable {
    /// First day with a qualifying workout.
    public var start: StreakDay
    /// Last day with a qualifying workout.
    public var end: StreakDay
    /// The streak's length: days with a qualifying workout (rest days not counted).
    public var days: Int
    /// Rest days used between `start` and `end`.
    public var restDays: Int

    public init(start: StreakDay, end: StreakDay, days: Int, restDays: Int) {
        self.start = start; self.end = end; self.days = days; self.restDays = restDays
    }
}

/// A run of consecutive weeks that each met the weekly target.
public struct WeekStreak: Sendable, Equatable {
    /// First day of the first week.
    public var start: StreakDay
    /// Last day of the last week (a week still in progress included).
    public var end: StreakDay
    /// Number of weeks.
    public var weeks: Int
    /// Qualifying workouts in those weeks.
    public var workouts: Int

    public init(start: StreakDay, end: StreakDay, weeks: Int, workouts: Int) {
        self.start = start; self.end = end; self.weeks = weeks; self.workouts = workouts
    }
}

/// Streaks as of one instant (`now`), from `StreakCalculator.status`.
public struct StreakStatus: Sendable, Equatable {
    /// The streak day containing `now`.
    public var today: StreakDay
    /// Today already has a qualifying workout.
    public var todayDone: Bool
    /// The daily streak still alive (see docs/streaks.md, "Current"); nil when none.
    public var currentDaily: DayStreak?
    /// The longest daily streak ever (the earliest of equals); nil without qualifying workouts.
    public var bestDaily: DayStreak?
    /// Days after the current streak's last workout and before today, kept by rest days.
    public var trailingRestDays: Int
    /// Missing today would still keep the current daily streak (a rest day is left for today).
    /// False when there is no current streak or today is done.
    public var todayCoverable: Bool
    /// Qualifying workouts in the week containing today.
    public var workoutsThisWeek: Int
    /// The weekly streak still alive: it ends this week (target met) or last week.
    public var currentWeekly: WeekStreak?
    public var bestWeekly: WeekStreak?

    public init(today: StreakDay, todayDone: Bool, currentDaily: DayStreak?, bestDaily: DayStreak?,
                trailingRestDays: Int, todayCoverable: Bool, workoutsThisWeek: Int,
                currentWeekly: WeekStreak?, bestWeekly: WeekStreak?) {
        self.today = today; self.todayDone = todayDone; self.currentDaily = currentDaily; self.bestDaily = bestDaily
        self.trailingRestDays = trailingRestDays; self.todayCoverable = todayCoverable
        self.workoutsThisWeek = workoutsThisWeek; self.currentWeekly = currentWeekly; self.bestWeekly = bestWeekly
    }
}
