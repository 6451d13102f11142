/// Computes daily and weekly streaks from a workout history. Pure: the zone rules, the settings
/// and `now` come in as arguments; every rule is in docs/streaks.md.
public struct StreakCalculator: Sendable {
    public var settings: StreakSettings
    public var zone: ZoneRules

    public init(settings: StreakSettings = .default, zone: ZoneRules) {
        self.settings = settings.clamped
        self.zone = zone
    }

    /// The workout meets the minimum duration (and has a plausible start: |t| < 1e12 s).
    public func qualifies(_ w: StreakWorkout) -> Bool {
        w.durationSeconds.isFinite && abs(w.startedAt) < 1e12 && w.durationSeconds >= settings.minimumWorkoutSeconds
    }

    /// The streak day of an instant: the local wall-clock date, after moving the clock back by
    /// `dayStartHour`. `utcOffset`, when given, replaces the zone's offset.
    public func day(of instant0: Double, utcOffset: Int? = nil) -> StreakDay {
        let instant = ZoneRules.clamp(instant0)
        let off = utcOffset ?? zone.utcOffset(at: instant)
        let local = Int(instant.rounded(.down)) + off - settings.dayStartHour * 3600
        return StreakDay(dayNumber: floorDiv(local, 86400))
    }

    /// Wall-clock seconds since the start of the streak day containing `instant` (0..<86400).
    public func secondsIntoDay(at instant0: Double) -> Int {
        let instant = ZoneRules.clamp(instant0)
        let local = Int(instant.rounded(.down)) + zone.utcOffset(at: instant) - settings.dayStartHour * 3600
        return local - floorDiv(local, 86400) * 86400
    }

    /// Index of the week containing a day (weeks start on `settings.weekStart`).
    public func week(of day: StreakDay) -> Int {
        // Day number of a week's first weekday near 1970: 1970-01-01 was a Thursday (4).
        floorDiv(day.dayNumber - (settings.weekStart.weekday - 4), 7)
    }

    /// First day of a week index.
    public func firstDay(ofWeek w: Int) -> StreakDay {
        StreakDay(dayNumber: w * 7 + settings.weekStart.weekday - 4)
    }

    /// The calendar the habit engine counts days and weeks with.
    public var calendar: HabitCalendar {
        HabitCalendar(zone: zone, dayStartHour: settings.dayStartHour, weekStart: settings.weekStart)
    }

    /// Streaks as of `now`: the built-in daily and weekly habits (`Habit.builtInDaily`,
    /// `Habit.builtInWeekly`) evaluated by the habit engine. Workouts on streak days after today
    /// are ignored.
    public func status(history: [StreakWorkout], now: Double) -> StreakStatus {
        let engine = HabitEngine(calendar: calendar)
        let d = engine.status(Habit.builtInDaily(settings), history: history, now: now)
        let w = engine.status(Habit.builtInWeekly(settings), history: history, now: now)
        func day(_ s: HabitStreak?) -> DayStreak? { s.map { DayStreak(start: $0.start, end: $0.end, days: $0.length, restDays: $0.skips) } }
        func week(_ s: HabitStreak?) -> WeekStreak? { s.map { WeekStreak(start: $0.start, end: $0.end, weeks: $0.length, workouts: Int($0.total)) } }
        return StreakStatus(today: d.today, todayDone: d.done, currentDaily: day(d.current), bestDaily: day(d.best),
                            trailingRestDays: d.trailingSkips, todayCoverable: d.coverable,
                            workoutsThisWeek: Int(w.progress), currentWeekly: week(w.current), bestWeekly: week(w.best))
    }
}

/// Integer division rounding toward negative infinity.
@inline(__always) func floorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
