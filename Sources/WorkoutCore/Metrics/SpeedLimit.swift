/// Where the highest plausible speed of a fix comes from (`MetricsSettings.speedLimit`).
public enum SpeedLimit: String, Sendable, Equatable, CaseIterable {
    /// The activity's own (`ActivityType.maxPlausibleSpeed`): 4 m/s for hiking, 27 m/s for cycling.
    case activity
    /// The highest of any activity that records a track: only a glitch is too fast. For tracks a
    /// device recorded, whose line is kept as the device drew it.
    case anyActivity = "any_activity"

    /// The fastest plausible speed of any activity that records a track (m/s).
    public static let fastestActivitySpeed = ActivityType.allCases.filter(\.supportsGPS).map(\.maxPlausibleSpeed).max() ?? 45

    /// The highest plausible speed (m/s) for `activity` under this rule.
    public func maximumSpeed(for activity: ActivityType) -> Double {
        switch self {
        case .activity: return activity.maxPlausibleSpeed
        case .anyActivity: return SpeedLimit.fastestActivitySpeed
        }
    }
}
