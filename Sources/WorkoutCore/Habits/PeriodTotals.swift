/// The periods `workoutctl totals` sums over.
public enum TotalsPeriod: String, Sendable, CaseIterable {
    case week, month, year
}

/// Count, distance, moving time and climb of the workouts in one period.
public struct PeriodSums: Sendable, Equatable {
    /// First and last local day of the period.
    public var start: StreakDay
    public var end: StreakDay
    public var count = 0
    public var distanceMeters: Double = 0
    public var movingSeconds: Double = 0
    public var elevationGainMeters: Double = 0

    public init(start: StreakDay, end: StreakDay) { self.start = start; self.end = end }

    public func json() -> JSON {
        ["start": .string(start.iso), "end": .string(end.iso), "count": .int(count), "distanceMeters": .number(rounded(distanceMeters, 3)),
         "movingSeconds": .number(rounded(movingSeconds, 3)), "elevationGainMeters": .number(rounded(elevationGainMeters, 2))]
    }
}

/// Totals of the current and the previous period (week, month or year containing `now`, in
/// local days as the streak rules count them), optionally for one activity. Pure.
public struct PeriodTotals: Sendable, Equatable {
    public var per: TotalsPeriod
    public var activity: ActivityType?
    public var current: PeriodSums
    public var previous: PeriodSums
    /// Every gear named by a workout (`edit --gear`), with its whole history (not just the
    /// period: shoes wear out over all their runs), most distance first.
    public var gear: [GearSums] = []

    public init(summaries: [WorkoutSummary], per: TotalsPeriod, activity: ActivityType?, now: Double, calendar: HabitCalendar) {
        self.per = per
        self.activity = activity
        let today = calendar.day(of: now)
        let (curStart, curEnd, prevStart) = PeriodTotals.bounds(today, per, calendar)
        current = PeriodSums(start: curStart, end: curEnd)
        previous = PeriodSums(start: prevStart, end: curStart.adding(days: -1))
        var byGear: [String: GearSums] = [:]
        for s in summaries where activity == nil || s.activity == activity {
            let d = calendar.day(of: s.startedAt)
            if d >= curStart && d <= curEnd { PeriodTotals.add(s, to: &current) }
            else if d >= prevStart && d < curStart { PeriodTotals.add(s, to: &previous) }
            if let g = s.gear { byGear[g, default: GearSums(name: g)].add(s) }
        }
        gear = byGear.values.sorted { ($0.distanceMeters, $1.name) > ($1.distanceMeters, $0.name) }
    }

    /// Adds a workout's numbers as its summary JSON shows them (`list`, `show`: metres and
    /// seconds to 3 decimals, climb to 2), so the totals are the sums a reader of `list` gets.
    static func add(_ s: WorkoutSummary, to p: inout PeriodSums) {
        p.count += 1
        if s.distanceMeters.isFinite { p.distanceMeters += rounded(s.distanceMeters, 3) }
        if s.movingSeconds.isFinite { p.movingSeconds += rounded(s.movingSeconds, 3) }
        if s.elevationGainMeters.isFinite { p.elevationGainMeters += rounded(s.elevationGainMeters, 2) }
    }

    /// First and last day of the period containing `day`, and the first day of the one before.
    static func bounds(_ day: StreakDay, _ per: TotalsPeriod, _ cal: HabitCalendar) -> (StreakDay, StreakDay, StreakDay) {
        switch per {
        case .week:
            let p = cal.period(of: day, .week)
            return (cal.firstDay(ofPeriod: p, .week), cal.lastDay(ofPeriod: p, .week), cal.firstDay(ofPeriod: p - 1, .week))
        case .month:
            let p = cal.period(of: day, .month)
            return (cal.firstDay(ofPeriod: p, .month), cal.lastDay(ofPeriod: p, .month), cal.firstDay(ofPeriod: p - 1, .month))
        case .year:
            let y = CivilTime.civilFromDays(day.dayNumber).year
            return (StreakDay(year: y, month: 1, day: 1), StreakDay(year: y, month: 12, day: 31), StreakDay(year: y - 1, month: 1, day: 1))
        }
    }

    /// The `totals` reply's object.
    public func json() -> JSON {
        ["per": .string(per.rawValue), "activity": .string(activity?.rawValue), "current": current.json(), "previous": previous.json(),
         "gear": .array(gear.map { $0.json() })]
    }
}

/// Everything done with one piece of gear: count, distance, moving time, first and last use.
public struct GearSums: Sendable, Equatable {
    public var name: String
    public var count = 0
    public var distanceMeters: Double = 0
    public var movingSeconds: Double = 0
    public var firstUsed: Double = .infinity
    public var lastUsed: Double = -.infinity

    public init(name: String) { self.name = name }

    mutating func add(_ s: WorkoutSummary) {
        count += 1
        if s.distanceMeters.isFinite { distanceMeters += rounded(s.distanceMeters, 3) }
        if s.movingSeconds.isFinite { movingSeconds += rounded(s.movingSeconds, 3) }
        firstUsed = min(firstUsed, s.startedAt)
        lastUsed = max(lastUsed, s.startedAt)
    }

    public func json() -> JSON {
        ["name": .string(name), "count": .int(count), "distanceMeters": .number(rounded(distanceMeters, 3)),
         "movingSeconds": .number(rounded(movingSeconds, 3)),
         "firstUsed": .string(ISO8601.format(firstUsed)), "lastUsed": .string(ISO8601.format(lastUsed))]
    }
}
