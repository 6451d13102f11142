/// A daily streak that ends tonight unless a qualifying workout is saved.
public struct StreakAtRisk: Sendable, Equatable {
    /// The streak day the warning is for (store it as the last warning day).
    public var day: StreakDay
    /// The streak that would break.
    public var streak: DayStreak
    /// Wall-clock minutes left until the streak day ends.
    public var minutesLeft: Int

    public init(day: StreakDay, streak: DayStreak, minutesLeft: Int) {
        self.day = day; self.streak = streak; self.minutesLeft = minutesLeft
    }
}

/// Decides whether to emit the "streak at risk" warning now. Pure: the daemon calls it on a
/// timer (and after clock or zone changes) with the current instant and the day of the last
/// warning it issued, and stores `StreakAtRisk.day` when it warns.
public enum StreakRiskCheck {
    /// Why no warning is due.
    public enum Quiet: String, Sendable, Equatable {
        /// A warning was already issued for this streak day.
        case alreadyWarnedToday
        /// The local clock is before `riskWarningHour` (in this streak day).
        case beforeWarningHour
        /// No daily streak is alive.
        case noStreak
        /// Today already has a qualifying workout.
        case todayDone
        /// Missing today would use a rest day and keep the streak: not at risk.
        case restDayAvailable
    }

    public enum Decision: Sendable, Equatable {
        case warn(StreakAtRisk)
        case quiet(Quiet)
    }

    /// Warn when all hold: no warning yet for today's streak day; the wall clock has reached
    /// `riskWarningHour` within today's streak day; a daily streak is alive; today has no
    /// qualifying workout; and no rest day is left to cover today.
    public static func evaluate(history: [StreakWorkout], now: Double, calculator: StreakCalculator,
                                lastWarningDay: StreakDay?) -> Decision {
        let s = calculator.settings
        let today = calculator.day(of: now)
        if let last = lastWarningDay, last >= today { return .quiet(.alreadyWarnedToday) }
        let into = calculator.secondsIntoDay(at: now)
        // The warning hour as a position within the streak day (which starts at dayStartHour).
        let threshold = ((s.riskWarningHour - s.dayStartHour + 24) % 24) * 3600
        if into < threshold { return .quiet(.beforeWarningHour) }
        let status = calculator.status(history: history, now: now)
        if status.todayDone { return .quiet(.todayDone) }
        guard let streak = status.currentDaily else { return .quiet(.noStreak) }
        if status.todayCoverable { return .quiet(.restDayAvailable) }
        return .warn(StreakAtRisk(day: today, streak: streak, minutesLeft: (86400 - into + 59) / 60))
    }
}
