/// The kinds of workout a user can record. The raw value is the name users type
/// (`workoutctl start trail_running`) and the name stored in files: never rename one.
///
/// Every question the rest of the system asks about an activity is answered by an
/// extension on this enum (see `ActivityType+Properties.swift`); no code outside it
/// compares against a specific case.
public enum ActivityType: String, CaseIterable, Sendable, Codable, Hashable {
    case running
    case trailRunning = "trail_running"
    case treadmillRunning = "treadmill_running"
    case walking
    case hiking
    case cycling
    case mountainBiking = "mountain_biking"
    case indoorCycling = "indoor_cycling"
    case openWaterSwimming = "open_water_swimming"
    case poolSwimming = "pool_swimming"
    case rowing
    case indoorRowing = "indoor_rowing"
    case kayaking
    case standUpPaddling = "stand_up_paddling"
    case crossCountrySkiing = "cross_country_skiing"
    case downhillSkiing = "downhill_skiing"
    case snowboarding
    case skating
    case inlineSkating = "inline_skating"
    case sailing
    case strength
    case hiit
    case elliptical
    case yoga
    case climbing
    case dance
    /// Between two legs of a multisport event (a triathlon's swim-to-bike change): kept as a
    /// workout of its own, linked to the legs (`WorkoutSummary.multisport`).
    case transition
    case other
}
