/// Evaluates habits over a workout history: which workouts count, each period's progress, the
/// current and best streak in periods, and what is left this period. Pure: the calendar (zone,
/// day-start hour, week start) and `now` come in as arguments; the rules are in docs/streaks.md.
/// The built-in daily and weekly streaks (`StreakCalculator`) are two habits evaluated here.
public struct HabitEngine: Sendable {
    public var calendar: HabitCalendar

    public init(calendar: HabitCalendar) { self.calendar = calendar }

    /// The workout counts for the habit: a plausible start and duration, one of its activities,
    /// long and far enough, on one of its weekdays, starting inside its window.
    public func qualifies(_ w: StreakWorkout, for habit: Habit) -> Bool {
        guard w.durationSeconds.isFinite, abs(w.startedAt) < 1e12, w.durationSeconds >= habit.minimumSeconds,
              habit.minimumMeters <= 0 || w.distanceMeters >= habit.minimumMeters else { return false }
        if !habit.activities.isEmpty {
            guard let a = w.activity, habit.activities.contains(a) else { return false }
        }
        if !habit.weekdays.isEmpty && !habit.isDue(weekday: calendar.day(of: w.startedAt, utcOffset: w.utcOffset).weekday) { return false }
        if let win = habit.window {
            let s = calendar.secondsIntoDay(at: w.startedAt, utcOffset: w.utcOffset)
            let (from, to) = positions(of: win)
            guard s >= from * 60 && s < to * 60 else { return false }
        }
        return true
    }

    /// A window's start and end as minutes after the streak day's start (end in 1...1440).
    public func positions(of win: HabitWindow) -> (from: Int, to: Int) {
        let from = calendar.position(ofWallMinute: win.fromMinute)
        let to = calendar.position(ofWallMinute: win.toMinute)
        return (from, to == 0 ? 1440 : to)
    }

    /// Skips a bucket may hold: the habit's budget, capped below the number of due periods a
    /// bucket has, so that a whole bucket without a met period always breaks a streak.
    public func skipBudget(_ habit: Habit) -> Int {
        let cap: Int
        switch habit.per {
        case .day: cap = (habit.weekdays.isEmpty ? 7 : habit.weekdays.count) - 1
        case .week, .month: cap = habit.per.maximumSkips
        }
        return min(max(habit.skips, 0), cap)
    }

    /// Is this period due? Days outside a daily habit's weekdays are not; weeks and months are.
    func isDue(_ p: Int, _ habit: Habit) -> Bool {
        switch habit.per {
        case .day: return habit.isDue(weekday: StreakDay(dayNumber: p).weekday)
        case .week, .month: return true
        }
    }

    /// The habit as of `now`. Workouts on streak days after today are ignored.
    public func status(_ habit: Habit, history: [StreakWorkout], now: Double) -> HabitStatus {
        let per = habit.per
        let today = calendar.day(of: now)
        let current = calendar.period(of: today, per)
        let target = habit.target.amount
        var progress: [Int: Double] = [:]
        for w in history where qualifies(w, for: habit) {
            let d = calendar.day(of: w.startedAt, utcOffset: w.utcOffset)
            if d <= today { progress[calendar.period(of: d, per), default: 0] += habit.target.value(of: w) }
        }
        let met = progress.filter { $0.value >= target }.keys.sorted()
        let budget = skipBudget(habit)

        /// Can every due period in `from...to` be skipped? On success `used` and `count` include them.
        func bridge(_ from: Int, _ to: Int, _ used: inout [Int: Int], _ count: inout Int) -> Bool {
            if to < from { return true }
            if budget == 0 {
                // Only periods that are not due can lie between.
                for p in from...to where isDue(p, habit) { return false }
                return true
            }
            var u = used, n = 0
            var p = from
            while p <= to {
                if isDue(p, habit) {
                    let b = calendar.bucket(ofPeriod: p, per)
                    u[b, default: 0] += 1
                    if u[b]! > budget { return false }
                    n += 1
                }
                p += 1
            }
            used = u; count += n
            return true
        }

        var best: (first: Int, last: Int, length: Int, skips: Int, total: Double)? = nil
        var cur: (first: Int, last: Int, length: Int, skips: Int, total: Double)? = nil
        var used: [Int: Int] = [:]
        for p in met {
            var gap = 0
            if var c = cur, bridge(c.last + 1, p - 1, &used, &gap) {
                c.last = p; c.length += 1; c.skips += gap; c.total += progress[p]!
                cur = c
            } else {
                cur = (p, p, 1, 0, progress[p]!)
                used = [:]
            }
            if best == nil || cur!.length > best!.length { best = cur }
        }
        var alive: (first: Int, last: Int, length: Int, skips: Int, total: Double)? = nil
        var trailing = 0
        var coverable = false
        let doneNow = (progress[current] ?? 0) >= target
        if let c = cur {
            var u = used
            if c.last == current {
                alive = c
            } else if bridge(c.last + 1, current - 1, &u, &trailing) {
                alive = c
                var one = 0
                coverable = !doneNow && isDue(current, habit) && bridge(current, current, &u, &one)
            } else {
                trailing = 0
            }
        }
        func streak(_ r: (first: Int, last: Int, length: Int, skips: Int, total: Double)?) -> HabitStreak? {
            r.map { HabitStreak(start: calendar.firstDay(ofPeriod: $0.first, per), end: calendar.lastDay(ofPeriod: $0.last, per),
                                length: $0.length, skips: $0.skips, total: $0.total) }
        }
        let periodEnd = calendar.lastDay(ofPeriod: current, per)
        var dueLeft = 0
        for d in today.dayNumber...max(today.dayNumber, periodEnd.dayNumber) where habit.isDue(weekday: StreakDay(dayNumber: d).weekday) { dueLeft += 1 }
        return HabitStatus(habit: habit, today: today, periodStart: calendar.firstDay(ofPeriod: current, per), periodEnd: periodEnd,
                           progress: progress[current] ?? 0, target: target, dueToday: habit.isDue(weekday: today.weekday),
                           dueDaysLeft: dueLeft, current: streak(alive), best: streak(best),
                           trailingSkips: alive == nil ? 0 : trailing, coverable: coverable)
    }
}
