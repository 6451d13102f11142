/// The first day of a streak week.
public enum WeekStart: String, Sendable, CaseIterable {
    case monday, sunday, saturday

    /// 0 = Sunday ... 6 = Saturday.
    public var weekday: Int {
        switch self {
        case .monday: return 1
        case .sunday: return 0
        case .saturday: return 6
        }
    }
}

/// The user's streak rules (config keys under `streaks`). See docs/streaks.md for every rule.
public struct StreakSettings: Sendable, Equatable {
    /// A workout counts only when its duration (elapsed time, manual pauses excluded) is at least
    /// this long. Default 600 s (10 min).
    public var minimumWorkoutSeconds: Double
    /// Hour of the local wall clock at which a streak day begins, 0...23. Default 0 (midnight).
    /// With 3, a workout starting at 01:00 counts for the previous date.
    public var dayStartHour: Int
    /// Rest days allowed per week (0...6) inside a daily streak: a day without a qualifying
    /// workout keeps the streak alive while the streak has used fewer than this many rest days in
    /// that week. Rest days do not add to the streak's length. Default 0 (every day counts).
    public var restDaysPerWeek: Int
    /// Qualifying workouts a week needs to count for the weekly streak (>= 1). Default 1.
    public var weeklyTarget: Int
    /// First day of a week, for the weekly streak and the rest-day allowance. Default Monday.
    public var weekStart: WeekStart
    /// Local wall-clock hour (0...23) from which a "streak at risk" warning may be issued. Default 18.
    public var riskWarningHour: Int

    public init(minimumWorkoutSeconds: Double = 600, dayStartHour: Int = 0, restDaysPerWeek: Int = 0,
                weeklyTarget: Int = 1, weekStart: WeekStart = .monday, riskWarningHour: Int = 18) {
        self.minimumWorkoutSeconds = minimumWorkoutSeconds
        self.dayStartHour = dayStartHour
        self.restDaysPerWeek = restDaysPerWeek
        self.weeklyTarget = weeklyTarget
        self.weekStart = weekStart
        self.riskWarningHour = riskWarningHour
    }

    public static let `default` = StreakSettings()

    /// Values forced into their ranges (what the calculator uses).
    public var clamped: StreakSettings {
        var s = self
        s.minimumWorkoutSeconds = minimumWorkoutSeconds.isFinite ? max(0, minimumWorkoutSeconds) : 600
        s.dayStartHour = min(max(dayStartHour, 0), 23)
        s.restDaysPerWeek = min(max(restDaysPerWeek, 0), 6)
        s.weeklyTarget = max(weeklyTarget, 1)
        s.riskWarningHour = min(max(riskWarningHour, 0), 23)
        return s
    }
}
