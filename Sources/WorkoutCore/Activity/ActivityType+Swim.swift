extension ActivityType {
    /// Whether the activity is a swim (its summary carries `swim`: strokes, pace per 100).
    public var isSwim: Bool {
        switch self {
        case .openWaterSwimming, .poolSwimming: return true
        case .running, .trailRunning, .treadmillRunning, .walking, .hiking, .cycling, .mountainBiking, .indoorCycling, .rowing,
             .indoorRowing, .kayaking, .standUpPaddling, .crossCountrySkiing, .downhillSkiing, .snowboarding, .skating,
             .inlineSkating, .sailing, .strength, .hiit, .elliptical, .yoga, .climbing, .dance, .transition, .other:
            return false
        }
    }
}
