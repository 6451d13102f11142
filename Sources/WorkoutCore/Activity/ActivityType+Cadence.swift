extension ActivityType {
    /// Whether the activity's cadence is in steps per minute (a run or walk: both feet, as a
    /// watch and Garmin Connect show it), else revolutions or strokes per minute. Files and
    /// foot pods give one foot's strides (a FIT record's `cadence`, TCX `RunCadence`, Bluetooth
    /// RSC halved); the summary shows twice that (`stepsPerStride`).
    public var countsSteps: Bool {
        switch self {
        case .running, .trailRunning, .treadmillRunning, .walking, .hiking: return true
        case .cycling, .mountainBiking, .indoorCycling, .openWaterSwimming, .poolSwimming, .rowing, .indoorRowing, .kayaking,
             .standUpPaddling, .crossCountrySkiing, .downhillSkiing, .snowboarding, .skating, .inlineSkating, .sailing, .strength,
             .hiit, .elliptical, .yoga, .climbing, .dance, .transition, .other:
            return false
        }
    }

    /// What a recorded cadence (strides or revolutions per minute) is multiplied by for the
    /// summary: 2 for an activity that `countsSteps`, else 1.
    public var cadenceFactor: Double { countsSteps ? 2 : 1 }

    /// The cadence's unit as shown: "spm" (steps per minute) or "rpm".
    public var cadenceUnit: String { countsSteps ? "spm" : "rpm" }
}
