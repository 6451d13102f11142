/// The unit splits are measured in.
public enum SplitUnit: String, Sendable, Codable, CaseIterable {
    case kilometer
    case mile

    /// The unit system whose distance unit this is.
    public var units: Units {
        switch self {
        case .kilometer: return .metric
        case .mile: return .imperial
        }
    }

    /// Length of one split in metres.
    public var meters: Double {
        switch self {
        case .kilometer: return 1000
        case .mile: return 1609.344
        }
    }
}

/// Every tunable rule of the metrics pipeline, with the defaults documented in docs/metrics.md.
/// Thresholds that depend on the sport (auto-pause speed, highest plausible speed, MET, whether
/// best efforts are searched) come from `ActivityType`, never from here.
///
/// A plain value: the daemon's configuration maps onto it; a saved workout is recomputed with the
/// settings it is given.
public struct MetricsSettings: Sendable, Equatable {
    /// Fixes below this mode are rejected (`noFix`). Default `.twoD`: 2D fixes carry a usable
    /// horizontal position; only altitude is missing.
    public var minimumFixMode: FixMode = .twoD
    /// Fixes whose reported horizontal accuracy (m) is worse than this are rejected
    /// (`lowAccuracy`). Fixes without an accuracy figure pass. Default 50 m (OpenTracks' gate).
    public var maximumHorizontalAccuracy: Double = 50
    /// Consecutive mutually consistent fixes needed before the first one is trusted, at the start
    /// of the workout and after a signal loss or a relocation. Default 3. Earlier fixes are
    /// rejected as `warmUp` (a cached first fix far away adds nothing).
    public var warmUpCount: Int = 3
    /// A plausible fix farther than this (m) from the last accepted one starts a new segment
    /// instead of adding distance. Default 200 m (OpenTracks).
    public var jumpThreshold: Double = 200
    /// A fix closer than this (m) to the last accepted position adds nothing (`stationaryJitter`).
    /// The radius actually used is `max(stationaryRadius, horizontalAccuracy of the fix)`, so a
    /// receiver that says it is noisier gets a wider radius. Default 5 m.
    public var stationaryRadius: Double = 5
    /// No usable fix for longer than this (s) is a signal loss: its own gap, never a movement
    /// pause; the next fix starts a new segment after a warm-up. Default 15 s.
    public var signalLostTimeout: Double = 15
    /// Auto-pause fires after this many seconds (s) of fixes showing no movement (default 10 s).
    /// The time actually required is `max(autoPauseDelay, radius / activity.autoPauseSpeed)`,
    /// because GPS noise cannot show slower movement in less time. Nil disables auto-pause.
    public var autoPauseDelay: Double? = 10
    /// While auto-paused, a fix at least this far (m) from where the stop began resumes motion
    /// (never less than the stationary radius in use). Default 10 m (OpenTracks).
    public var autoResumeDistance: Double = 10
    /// Splits are measured in this unit. Default kilometres.
    public var splitUnit: SplitUnit = .kilometer
    /// Distance (m) of automatic laps; nil = manual laps only. Default nil.
    public var autoLapDistance: Double? = nil
    /// Body weight in kg for calories; nil = unknown, and calories are then reported as nil
    /// (no made-up default). Default nil.
    public var bodyWeightKilograms: Double? = nil
    /// Number of accepted altitudes in the trailing moving average. Default 5 (OsmAnd).
    public var elevationSmoothingWindow: Int = 5
    /// The smoothed altitude must move this far (m) from the last counted level before the change
    /// counts as gain or loss (turnaround threshold) for noisy altitudes; clean ones get down to
    /// 3 m (`ElevationAccumulator`: the threshold follows the altitudes' noise). Default 5 m.
    public var elevationHysteresis: Double = 5
    /// Current and maximum speeds are measured over at least this many seconds of accepted
    /// fixes, which removes single-fix outliers. Default 5 s.
    public var speedWindow: Double = 5
    /// Heart-rate zones for time in zones; nil = none configured.
    public var heartRateZones: HeartRateZones? = nil
    /// Functional threshold power (W) for power zones, intensity factor and training stress;
    /// nil = none configured.
    public var ftpWatts: Double? = nil
    /// Threshold heart rate and running pace for training stress without power
    /// (`TrainingStress`); none by default.
    public var trainingThresholds = TrainingThresholds()
    /// Which speed a fix may imply from the last accepted one before it is `tooFast`: the
    /// activity's highest plausible speed (live and receiver logs), or for a track a device
    /// already recorded the highest of any activity (`Importer.importSettings`): the device's line
    /// is what happened even when the activity named for it is slower. Default `.activity`.
    public var speedLimit: SpeedLimit = .activity
    /// Age and sex for heart-rate calories (Keytel 2005, with `bodyWeightKilograms`).
    public var age: Int? = nil
    public var sex: Sex? = nil

    /// The person for calories.
    public var bodyProfile: BodyProfile { BodyProfile(weightKilograms: bodyWeightKilograms, age: age, sex: sex) }

    /// All defaults.
    public init() {}

    /// Every field, for configuration mapping.
    public init(minimumFixMode: FixMode = .twoD, maximumHorizontalAccuracy: Double = 50, warmUpCount: Int = 3,
                jumpThreshold: Double = 200, stationaryRadius: Double = 5, signalLostTimeout: Double = 15,
                autoPauseDelay: Double? = 10, autoResumeDistance: Double = 10, splitUnit: SplitUnit = .kilometer,
                autoLapDistance: Double? = nil, bodyWeightKilograms: Double? = nil, elevationSmoothingWindow: Int = 5,
                elevationHysteresis: Double = 5, speedWindow: Double = 5) {
        self.minimumFixMode = minimumFixMode
        self.maximumHorizontalAccuracy = maximumHorizontalAccuracy
        self.warmUpCount = warmUpCount
        self.jumpThreshold = jumpThreshold
        self.stationaryRadius = stationaryRadius
        self.signalLostTimeout = signalLostTimeout
        self.autoPauseDelay = autoPauseDelay
        self.autoResumeDistance = autoResumeDistance
        self.splitUnit = splitUnit
        self.autoLapDistance = autoLapDistance
        self.bodyWeightKilograms = bodyWeightKilograms
        self.elevationSmoothingWindow = elevationSmoothingWindow
        self.elevationHysteresis = elevationHysteresis
        self.speedWindow = speedWindow
    }
}
