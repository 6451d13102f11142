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

    /// Streaks as of `now`. Workouts on streak days after today are ignored.
    public func status(history: [StreakWorkout], now: Double) -> StreakStatus {
        let today = day(of: now)
        var perDay: [Int: Int] = [:]
        for w in history where qualifies(w) {
            let d = day(of: w.startedAt, utcOffset: w.utcOffset).dayNumber
            if d <= today.dayNumber { perDay[d, default: 0] += 1 }
        }
        let days = perDay.keys.sorted()

        // Daily: walk the days with workouts; a gap is bridged when its days fit the streak's
        // rest-day allowance in every week they fall in.
        var best: DayStreak? = nil
        var cur: DayStreak? = nil
        var used: [Int: Int] = [:]
        for d in days {
            let sd = StreakDay(dayNumber: d)
            if var c = cur, bridge(from: c.end.dayNumber + 1, to: d - 1, used: &used) {
                c.restDays += d - 1 - c.end.dayNumber
                c.end = sd
                c.days += 1
                cur = c
            } else {
                cur = DayStreak(start: sd, end: sd, days: 1, restDays: 0)
                used = [:]
            }
            if best == nil || cur!.days > best!.days { best = cur }
        }
        var current: DayStreak? = nil
        var trailing = 0
        var coverable = false
        let todayDone = perDay[today.dayNumber] != nil
        if let c = cur {
            var u = used
            if c.end == today {
                current = c
            } else if bridge(from: c.end.dayNumber + 1, to: today.dayNumber - 1, used: &u) {
                current = c
                trailing = today.dayNumber - 1 - c.end.dayNumber
                coverable = bridge(from: today.dayNumber, to: today.dayNumber, used: &u)
            }
        }

        // Weekly: consecutive weeks with at least `weeklyTarget` workouts.
        var perWeek: [Int: Int] = [:]
        for (d, n) in perDay { perWeek[week(of: StreakDay(dayNumber: d)), default: 0] += n }
        let thisWeek = week(of: today)
        let met = perWeek.filter { $0.value >= settings.weeklyTarget }.keys.sorted()
        var bestW: WeekStreak? = nil
        var curW: (first: Int, last: Int, workouts: Int)? = nil
        func asStreak(_ r: (first: Int, last: Int, workouts: Int)) -> WeekStreak {
            WeekStreak(start: firstDay(ofWeek: r.first), end: firstDay(ofWeek: r.last).adding(days: 6),
                       weeks: r.last - r.first + 1, workouts: r.workouts)
        }
        for w in met {
            if let c = curW, c.last == w - 1 { curW = (c.first, w, c.workouts + perWeek[w]!) } else { curW = (w, w, perWeek[w]!) }
            let s = asStreak(curW!)
            if bestW == nil || s.weeks > bestW!.weeks { bestW = s }
        }
        var currentW: WeekStreak? = nil
        if let c = curW, c.last >= thisWeek - 1 { currentW = asStreak(c) }

        return StreakStatus(today: today, todayDone: todayDone, currentDaily: current, bestDaily: best,
                            trailingRestDays: trailing, todayCoverable: coverable,
                            workoutsThisWeek: perWeek[thisWeek] ?? 0, currentWeekly: currentW, bestWeekly: bestW)
    }

    /// Can days `from...to` (empty when to < from) all be rest days, given the rest days the
    /// streak already used per week? On success `used` includes them; on failure it is unchanged.
    func bridge(from: Int, to: Int, used: inout [Int: Int]) -> Bool {
        if to < from { return true }
        let allowance = settings.restDaysPerWeek
        // A gap of 13 days or more holds a whole week, more than the 6 rest days a week can have.
        if allowance == 0 || to - from + 1 >= 13 { return false }
        var u = used
        for d in from...to {
            let w = week(of: StreakDay(dayNumber: d))
            u[w, default: 0] += 1
            if u[w]! > allowance { return false }
        }
        used = u
        return true
    }
}

/// Integer division rounding toward negative infinity.
@inline(__always) func floorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
