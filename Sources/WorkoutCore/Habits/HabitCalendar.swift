/// Local days and periods as the habit rules count them: the configured zone (or a workout's
/// recorded UTC offset), the day-start hour and the first day of the week. Pure.
public struct HabitCalendar: Sendable, Equatable {
    public var zone: ZoneRules
    /// Local wall-clock hour (0...23) at which a streak day begins.
    public var dayStartHour: Int
    public var weekStart: WeekStart

    public init(zone: ZoneRules, dayStartHour: Int = 0, weekStart: WeekStart = .monday) {
        self.zone = zone
        self.dayStartHour = min(max(dayStartHour, 0), 23)
        self.weekStart = weekStart
    }

    /// Wall-clock seconds since 1970-01-01 local, moved back by the day-start hour.
    func shifted(_ instant0: Double, utcOffset: Int?) -> Int {
        let instant = ZoneRules.clamp(instant0)
        let off = utcOffset ?? zone.utcOffset(at: instant)
        return Int(instant.rounded(.down)) + off - dayStartHour * 3600
    }

    /// The streak day of an instant (see docs/streaks.md, "Streak days").
    public func day(of instant: Double, utcOffset: Int? = nil) -> StreakDay {
        StreakDay(dayNumber: floorDiv(shifted(instant, utcOffset: utcOffset), 86400))
    }

    /// Wall-clock seconds since the start of the streak day containing the instant (0..<86400).
    public func secondsIntoDay(at instant: Double, utcOffset: Int? = nil) -> Int {
        let s = shifted(instant, utcOffset: utcOffset)
        return s - floorDiv(s, 86400) * 86400
    }

    /// A wall-clock minute of the day (0..<1440) as minutes after the streak day's start.
    public func position(ofWallMinute m: Int) -> Int {
        ((m - dayStartHour * 60) % 1440 + 1440) % 1440
    }

    /// The index of the period containing a day: the day number, a week index (weeks start on
    /// `weekStart`), or year * 12 + month - 1.
    public func period(of day: StreakDay, _ per: HabitPeriod) -> Int {
        switch per {
        case .day: return day.dayNumber
        case .week: return floorDiv(day.dayNumber - (weekStart.weekday - 4), 7)
        case .month:
            let c = CivilTime.civilFromDays(day.dayNumber)
            return c.year * 12 + c.month - 1
        }
    }

    public func firstDay(ofPeriod p: Int, _ per: HabitPeriod) -> StreakDay {
        switch per {
        case .day: return StreakDay(dayNumber: p)
        case .week: return StreakDay(dayNumber: p * 7 + weekStart.weekday - 4)
        case .month: return StreakDay(year: floorDiv(p, 12), month: p - floorDiv(p, 12) * 12 + 1, day: 1)
        }
    }

    public func lastDay(ofPeriod p: Int, _ per: HabitPeriod) -> StreakDay {
        firstDay(ofPeriod: p + 1, per).adding(days: -1)
    }

    /// The skip bucket of a period: the week of a day, the month of a week's first day, the
    /// year of a month.
    public func bucket(ofPeriod p: Int, _ per: HabitPeriod) -> Int {
        switch per {
        case .day: return period(of: StreakDay(dayNumber: p), .week)
        case .week: return period(of: firstDay(ofPeriod: p, .week), .month)
        case .month: return floorDiv(p, 12)
        }
    }
}
