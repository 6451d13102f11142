extension ActivityType {
    /// Whether the activity is a run: its training stress may come from pace against the
    /// threshold pace (`TrainingStress`).
    public var isRun: Bool {
        switch self {
        case .running, .trailRunning, .treadmillRunning: return true
        case .walking, .hiking, .cycling, .mountainBiking, .indoorCycling, .openWaterSwimming, .poolSwimming, .rowing,
             .indoorRowing, .kayaking, .standUpPaddling, .crossCountrySkiing, .downhillSkiing, .snowboarding, .skating,
             .inlineSkating, .sailing, .strength, .hiit, .elliptical, .yoga, .climbing, .dance, .transition, .other:
            return false
        }
    }
}
