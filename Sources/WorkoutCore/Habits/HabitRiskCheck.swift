/// A habit whose streak breaks unless what is left is done before the period's last chance.
public struct HabitAtRisk: Sendable, Equatable {
    public var habit: Habit
    /// First day of the period the warning is for (store it: one warning per period).
    public var period: StreakDay
    /// The streak that would break.
    public var streak: HabitStreak
    /// What is left this period (workouts, metres or seconds).
    public var left: Double
    /// Due days left in the period, today included.
    public var daysToGo: Int
    /// Wall-clock minutes until today's deadline (the window's end, else the streak day's end).
    public var minutesLeft: Int
    /// How `leftText` writes a distance (config `units`).
    public var units: UnitFormatter = .metric

    public init(habit: Habit, period: StreakDay, streak: HabitStreak, left: Double, daysToGo: Int, minutesLeft: Int) {
        self.habit = habit; self.period = period; self.streak = streak; self.left = left; self.daysToGo = daysToGo; self.minutesLeft = minutesLeft
    }

    /// "1 run left this week, 2 days to go", "3.2 km left today".
    public var leftText: String { HabitText.left(habit, left, units: units) + " left" + (habit.per == .day ? " today" : " this \(habit.per.noun)") }
}

/// Decides whether a habit's at-risk warning is due now. Pure: the daemon calls it on a timer
/// with the current instant and the period it last warned for, and stores `HabitAtRisk.period`.
/// The timing is in docs/streaks.md ("Habits at risk").
public enum HabitRiskCheck {
    public enum Quiet: String, Sendable, Equatable {
        /// A warning was already issued for this period.
        case alreadyWarned
        /// The period's target is met.
        case done
        /// No streak is alive: nothing to lose.
        case noStreak
        /// Missing this period would use a skip and keep the streak.
        case skipAvailable
        /// Today's workouts do not count (not one of the habit's weekdays).
        case notDueToday
        /// Today's window has closed.
        case windowClosed
        /// More due days are left than workouts needed: not urgent yet.
        case notUrgent
        /// Before the reminder time of the last-chance day.
        case beforeReminder
    }

    public enum Decision: Sendable, Equatable {
        case warn(HabitAtRisk)
        case quiet(Quiet)
    }

    /// The reminder's position (minutes after the streak day's start) and today's deadline.
    /// Reminder: `remindAtMinute`, else with a window as many whole hours before its end as the
    /// habit's minimum duration needs (at least 1, not before the window opens), else
    /// `defaultRemindMinute`; never later than one minute before the deadline.
    public static func timing(_ habit: Habit, engine: HabitEngine, defaultRemindMinute: Int) -> (remind: Int, deadline: Int) {
        let cal = engine.calendar
        var deadline = 1440
        var remind: Int
        if let win = habit.window {
            let (from, to) = engine.positions(of: win)
            deadline = to
            let hours = max(1, Int((habit.minimumSeconds / 3600).rounded(.up)))
            remind = max(from, to - hours * 60)
        } else {
            remind = cal.position(ofWallMinute: defaultRemindMinute)
        }
        if let m = habit.remindAtMinute { remind = cal.position(ofWallMinute: m) }
        return (min(remind, deadline - 1), deadline)
    }

    /// Warn when, in this order: no warning yet this period; the target is not met; a streak
    /// is alive; no skip is left for this period; today is due; today's deadline has not passed;
    /// the due days left (today included) are no more than the workouts still needed (1 for a
    /// distance or time goal); and the reminder time of today has come.
    public static func evaluate(_ status: HabitStatus, now: Double, engine: HabitEngine, defaultRemindMinute: Int,
                                lastWarnedPeriod: StreakDay?) -> Decision {
        if let last = lastWarnedPeriod, last >= status.periodStart { return .quiet(.alreadyWarned) }
        if status.done { return .quiet(.done) }
        guard let streak = status.current else { return .quiet(.noStreak) }
        if status.coverable { return .quiet(.skipAvailable) }
        if !status.dueToday { return .quiet(.notDueToday) }
        let (remind, deadline) = timing(status.habit, engine: engine, defaultRemindMinute: defaultRemindMinute)
        let into = engine.calendar.secondsIntoDay(at: now)
        if into >= deadline * 60 { return .quiet(.windowClosed) }
        let needed: Int
        switch status.habit.target {
        case .count: needed = Int(status.left.rounded(.up))
        case .distance, .duration: needed = 1
        }
        if status.dueDaysLeft > needed { return .quiet(.notUrgent) }
        if into < remind * 60 { return .quiet(.beforeReminder) }
        return .warn(HabitAtRisk(habit: status.habit, period: status.periodStart, streak: streak, left: status.left,
                                 daysToGo: status.dueDaysLeft, minutesLeft: (deadline * 60 - into + 59) / 60))
    }
}

/// Words for habit amounts: "1 run", "2 workouts", "3.2 km", "45 min".
public enum HabitText {
    /// `units`: distances in km or mi (config `units`).
    public static func left(_ habit: Habit, _ amount: Double, units: UnitFormatter = .metric) -> String {
        switch habit.target {
        case .count:
            let n = Int(amount.rounded(.up))
            return "\(n) \(noun(habit, plural: n != 1))"
        case .distance:
            return "\(formatFixed(max(0, amount) / units.metersPerDistanceUnit, decimals: 1)) \(units.distanceUnit)"
        case .duration:
            let m = Int((amount / 60).rounded(.up))
            return m >= 60 ? "\(m / 60) h \(m % 60) min" : "\(m) min"
        }
    }

    /// The one activity's word ("run", "ride", "yoga session"), else "workout".
    static func noun(_ habit: Habit, plural: Bool) -> String {
        let word: String
        if habit.activities.count == 1, let a = habit.activities.first {
            word = shortNouns[a] ?? a.displayName.lowercased() + " session"
        } else {
            word = "workout"
        }
        return plural ? word + (word.hasSuffix("s") ? "es" : "s") : word
    }

    /// Short words for a workout of some activities ("1 run left").
    static let shortNouns: [ActivityType: String] = [.running: "run", .trailRunning: "run", .treadmillRunning: "run", .cycling: "ride",
                                                      .mountainBiking: "ride", .indoorCycling: "ride", .walking: "walk", .hiking: "hike"]

    /// "2 days to go", "today is the last day".
    public static func daysToGo(_ n: Int) -> String {
        n <= 1 ? "today is the last day" : "\(n) days to go"
    }
}
