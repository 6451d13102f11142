extension ActivityType {
    /// Whether a workout of this kind reads the configured heart-rate sensors while it records.
    /// Bluetooth LE does not carry through water (a strap under water goes silent), so swimming
    /// does not open the strap; heart rate from the feed socket or a file is still kept.
    public var usesHeartRateSensor: Bool {
        switch self {
        case .running, .trailRunning, .treadmillRunning, .walking, .hiking, .cycling, .mountainBiking,
             .indoorCycling, .rowing, .indoorRowing, .kayaking, .standUpPaddling, .crossCountrySkiing,
             .downhillSkiing, .snowboarding, .skating, .inlineSkating, .sailing, .strength, .hiit,
             .elliptical, .yoga, .climbing, .dance, .transition, .other:
            return true
        case .openWaterSwimming, .poolSwimming:
            return false
        }
    }
}
