/// How a moving second of an activity is turned into energy when there is neither power nor
/// heart rate (docs/metrics.md, "Calories").
public enum EnergyModel: Sendable, Equatable {
    /// On foot: ACSM's walking or running equation from the speed and the uphill grade.
    case gait
    /// On a bike: the power speed and grade take (rolling, climbing, air), as work.
    case cycling
    /// A fixed MET (Compendium) whatever the speed.
    case fixed
}

extension ActivityType {
    /// The energy model of this activity.
    public var energyModel: EnergyModel {
        switch self {
        case .running, .trailRunning, .walking, .hiking: return .gait
        case .cycling, .mountainBiking: return .cycling
        case .treadmillRunning, .indoorCycling, .openWaterSwimming, .poolSwimming, .rowing, .indoorRowing, .kayaking,
             .standUpPaddling, .crossCountrySkiing, .downhillSkiing, .snowboarding, .skating, .inlineSkating, .sailing,
             .strength, .hiit, .elliptical, .yoga, .climbing, .dance, .transition, .other:
            return .fixed
        }
    }
}
