extension ActivityType {
    /// The indoor activity a file's workout of this kind is imported as when the file has heart
    /// rate and no position at all (a watch's treadmill run marked "running", a trainer ride
    /// marked "cycling"); nil: kept as it is (already indoor, or no indoor kind of it).
    public var indoorCounterpart: ActivityType? {
        switch self {
        case .running, .trailRunning: return .treadmillRunning
        case .cycling, .mountainBiking: return .indoorCycling
        case .rowing: return .indoorRowing
        case .openWaterSwimming: return .poolSwimming
        case .treadmillRunning, .walking, .hiking, .indoorCycling, .poolSwimming, .indoorRowing, .kayaking,
             .standUpPaddling, .crossCountrySkiing, .downhillSkiing, .snowboarding, .skating, .inlineSkating, .sailing,
             .strength, .hiit, .elliptical, .yoga, .climbing, .dance, .transition, .other:
            return nil
        }
    }
}
