/// What started a lap (TCX TriggerMethod).
public enum LapTrigger: String, Sendable, Codable, CaseIterable {
    case manual
    case distance
    case time
    /// the lap closed because the workout ended
    case end

    /// TCX v2 `TriggerMethod` value.
    public var tcxTriggerMethod: String {
        switch self {
        case .manual, .end: return "Manual"
        case .distance: return "Distance"
        case .time: return "Time"
        }
    }
}

/// Totals of a stretch of a workout (a lap or a split).
public struct LapSummary: Sendable, Equatable {
    public var index: Int
    public var trigger: LapTrigger
    public var startTime: Double
    public var endTime: Double
    public var elapsedSeconds: Double
    public var movingSeconds: Double
    public var distanceMeters: Double
    public var elevationGainMeters: Double
    public var maxSpeed: Double
    public var calories: Double
    public var averageHeartRate: Int?
    public var maxHeartRate: Int?
    /// Seconds in each heart-rate zone (index 0 = below zone 1); empty without zones.
    public var heartRateZoneSeconds: [Double] = []
    /// Mean and maximum power (W) and mean cadence of the fixes that carry them; nil without.
    public var averagePower: Int?
    public var maxPower: Int?
    public var averageCadence: Int?
    /// The distance (m) and moving time (s) of implausible stretches inside it
    /// (`WorkoutSummary.implausible`): kept in its distance and times, left out of its pace.
    public var implausibleMeters = 0.0
    public var implausibleSeconds = 0.0

    public init(index: Int, trigger: LapTrigger, startTime: Double, endTime: Double, elapsedSeconds: Double,
                movingSeconds: Double, distanceMeters: Double, elevationGainMeters: Double = 0,
                maxSpeed: Double = 0, calories: Double = 0, averageHeartRate: Int? = nil, maxHeartRate: Int? = nil) {
        self.index = index; self.trigger = trigger; self.startTime = startTime; self.endTime = endTime
        self.elapsedSeconds = elapsedSeconds; self.movingSeconds = movingSeconds; self.distanceMeters = distanceMeters
        self.elevationGainMeters = elevationGainMeters; self.maxSpeed = maxSpeed; self.calories = calories
        self.averageHeartRate = averageHeartRate; self.maxHeartRate = maxHeartRate
    }
}

extension LapSummary {
    /// The time its pace and speed are over: the moving time (the elapsed time when nothing
    /// moved, an indoor lap), less the implausible stretches in it.
    public var paceSeconds: Double {
        (movingSeconds > 0 ? movingSeconds : elapsedSeconds) - implausibleSeconds
    }

    /// Its speed (m/s): the distance without the implausible stretches over `paceSeconds`; 0
    /// when no time is left.
    public var paceSpeed: Double {
        paceSeconds > 0 ? max(0, distanceMeters - implausibleMeters) / paceSeconds : 0
    }
}

/// The fastest time over a standard distance found anywhere inside a workout.
public struct BestEffort: Sendable, Equatable {
    public var distanceMeters: Double
    public var seconds: Double
    public var startTime: Double
    public init(distanceMeters: Double, seconds: Double, startTime: Double) {
        self.distanceMeters = distanceMeters; self.seconds = seconds; self.startTime = startTime
    }
}

/// Every number of a workout; the same type serves a live workout (`endedAt == nil`), a saved
/// one and an imported one. Speeds are m/s, distances metres, durations seconds.
public struct WorkoutSummary: Sendable, Equatable {
    public var id: WorkoutID
    public var activity: ActivityType
    public var startedAt: Double
    public var endedAt: Double?
    /// The wall span from start to end (or now), pauses included (a FIT session's
    /// `total_elapsed_time`).
    public var elapsedSeconds: Double
    /// The time the timer ran: elapsed minus manual pauses and a device's timer stops (a FIT
    /// session's `total_timer_time`). Average speed is over it. `init` sets it to elapsed.
    public var timerSeconds: Double
    /// Time actually moving: the timer's time minus auto-pauses and stops.
    public var movingSeconds: Double
    public var distanceMeters: Double
    /// GPS-derived, smoothed with hysteresis (see docs/metrics.md).
    public var elevationGainMeters: Double
    public var elevationLossMeters: Double
    /// Every recorded fix, accepted or rejected.
    public var pointCount: Int
    public var acceptedCount: Int
    public var rejectedByReason: [RejectionReason: Int]
    public var averageSpeed: Double
    public var movingAverageSpeed: Double
    /// Smoothed speed at the last fix; nil when not moving or unknown.
    public var currentSpeed: Double?
    public var maxSpeed: Double
    public var calories: Double?
    /// Total time without a usable fix while the workout was running.
    public var signalLostSeconds: Double
    public var splits: [LapSummary]
    public var laps: [LapSummary]
    public var bestEfforts: [BestEffort]
    /// Mean of the heart-rate samples, their maximum; nil without heart rate.
    public var averageHeartRate: Double?
    public var maxHeartRate: Int?
    /// The latest heart rate while one is arriving (live workouts only), and its zone.
    public var heartRate: Int?
    public var heartRateZone: Int?
    /// Lower bounds of the zones in force (bpm) and seconds in each zone slot (index 0 = below
    /// zone 1); both empty without zones.
    public var heartRateZoneBounds: [Int] = []
    public var heartRateZoneSeconds: [Double] = []
    /// Heart-rate readings and RR intervals dropped as outside physiology (25-250 bpm,
    /// 200-3,000 ms): counted, never averaged.
    public var heartRateRejected = HeartRateRejections()
    /// How `calories` was estimated; nil when there are none.
    public var caloriesMethod: CalorieMethod?
    /// What the person should know about the recording (live: fixes arriving far faster than the
    /// activity allows, `SpeedWarning`); written as `warnings` only when not empty.
    public var warnings: [String] = []
    /// Stretches of the track its activity could not have done (`PlausibilityCheck`): kept and
    /// drawn, left out of max speed, best efforts and records. JSON `implausible`.
    public var implausible: [ImplausibleStretch] = []
    /// Mean and maximum power (W) and mean cadence (rpm, or strides per minute) of the accepted
    /// fixes that carry them (imported TCX/FIT files, feed lines); nil without. Zero power
    /// counts, zero cadence does not.
    public var averagePower: Double?
    public var maxPower: Int?
    public var averageCadence: Double?
    /// Power analysis of the power recorded beside the fixes (`SensorTrack`, `PowerAnalysis`):
    /// normalized power (nil before 30 s of power), intensity factor and training stress (nil
    /// without an FTP), work in kJ; nil without power.
    public var normalizedPower: Double?
    public var intensityFactor: Double?
    public var trainingStress: Double?
    /// Where `trainingStress` comes from (power, heart rate or pace, `TrainingStress`); nil
    /// without it.
    public var trainingStressMethod: TrainingStressMethod?
    public var workKilojoules: Double?
    /// Lower bounds (W) of Coggan's 7 power zones and the seconds in each; empty without an FTP.
    public var powerZoneBounds: [Int] = []
    public var powerZoneSeconds: [Double] = []
    /// Best mean power over 5 s, 1, 5, 20 and 60 min, for the durations the workout reaches.
    public var powerCurve: [PowerCurvePoint] = []
    /// The latest power (W) and cadence while readings arrive (live workouts only).
    public var power: Int?
    public var cadence: Int?
    /// Title, notes, gear and perceived effort (`edit`, Strava's CSV, a file's own name): what
    /// the person says, kept when the numbers are recomputed.
    public var annotation = WorkoutAnnotation()
    /// The unit `splits` are cut in (`MetricsSettings.splitUnit`, from `units`).
    public var splitUnit = SplitUnit.kilometer

    public var title: String? { get { annotation.title } set { annotation.title = newValue } }
    public var notes: String? { get { annotation.notes } set { annotation.notes = newValue } }
    public var gear: String? { get { annotation.gear } set { annotation.gear = newValue } }
    public var effort: Int? { get { annotation.effort } set { annotation.effort = newValue } }
    /// Whether its best efforts count in records and personal bests (`edit --records off|on`).
    public var records: RecordsInclusion { get { annotation.records } set { annotation.records = newValue } }
    /// Where `distanceMeters` comes from: the GPS track, the recording device's own figure (a FIT
    /// file's distance, a pool's lengths) or a wheel or foot sensor.
    public var distanceSource: DistanceSource = .gps
    /// The GPS track's geodesic length when `distanceMeters` comes from the device or a sensor
    /// (kept beside it to compare); nil when the distance is the GPS track's.
    public var gpsDistanceMeters: Double?
    /// The recording device's own climb and descent (a FIT session's `total_ascent` and
    /// `total_descent`, m), beside the measured `elevationGainMeters` and `elevationLossMeters`;
    /// nil where the file has none. JSON only when present.
    public var deviceElevationGainMeters: Double?
    public var deviceElevationLossMeters: Double?
    /// The multisport event this workout is a leg of (a triathlon's swim, bike and run, and its
    /// transitions); nil for a workout of its own.
    public var multisport: MultisportLeg?
    /// A swim's pool, lengths, strokes, SWOLF and pace (from the device); nil for other workouts.
    public var swim: SwimSummary?
    /// What was done of the plan the workout followed (`start --plan`): each step's target
    /// and actual, the compliance score; nil without a plan.
    public var plan: PlanOutcome?

    public init(id: WorkoutID, activity: ActivityType, startedAt: Double, endedAt: Double? = nil,
                elapsedSeconds: Double = 0, movingSeconds: Double = 0, distanceMeters: Double = 0,
                elevationGainMeters: Double = 0, elevationLossMeters: Double = 0, pointCount: Int = 0,
                acceptedCount: Int = 0, rejectedByReason: [RejectionReason: Int] = [:], averageSpeed: Double = 0,
                movingAverageSpeed: Double = 0, currentSpeed: Double? = nil, maxSpeed: Double = 0,
                calories: Double? = nil, signalLostSeconds: Double = 0, splits: [LapSummary] = [],
                laps: [LapSummary] = [], bestEfforts: [BestEffort] = []) {
        self.id = id; self.activity = activity; self.startedAt = startedAt; self.endedAt = endedAt
        self.elapsedSeconds = elapsedSeconds; self.movingSeconds = movingSeconds; self.distanceMeters = distanceMeters
        self.timerSeconds = elapsedSeconds  // no pause unless said
        self.elevationGainMeters = elevationGainMeters; self.elevationLossMeters = elevationLossMeters
        self.pointCount = pointCount; self.acceptedCount = acceptedCount; self.rejectedByReason = rejectedByReason
        self.averageSpeed = averageSpeed; self.movingAverageSpeed = movingAverageSpeed; self.currentSpeed = currentSpeed
        self.maxSpeed = maxSpeed; self.calories = calories; self.signalLostSeconds = signalLostSeconds
        self.splits = splits; self.laps = laps; self.bestEfforts = bestEfforts
    }
}

/// A whole workout: summary, every point (rejected ones with their reason), events and what was
/// recorded beside them. `Points` is how the points are held: an array (`Workout`, as saved and
/// loaded) or the recorder's compact store (`RecordedWorkout`, just finished).
public struct WorkoutRecord<Points: Sendable>: Sendable {
    public var summary: WorkoutSummary
    public var points: Points
    public var events: [WorkoutEvent]
    /// Where it came from: "recorded", "recorded:device-track" (a device's track replayed live by
    /// `simulate`), or "imported:<file name>".
    public var source: String
    /// Heart-rate samples (with gaps) and RR intervals recorded beside the fixes.
    public var heartRate = HeartRateSeries()
    /// Power, cadence, speed and distance readings (with gaps) recorded beside the fixes.
    public var sensors: [SensorSample] = []
    /// Distance readings of a device or sensor (empty when the distance is the GPS track's).
    public var odometer = OdometerSeries()
    /// What the recording device said (a FIT session's totals, a pool swim's lengths).
    public var device: DeviceTotals?

    public init(summary: WorkoutSummary, points: Points, events: [WorkoutEvent] = [], source: String = "recorded",
                heartRate: HeartRateSeries = HeartRateSeries(), sensors: [SensorSample] = [], odometer: OdometerSeries = OdometerSeries(),
                device: DeviceTotals? = nil) {
        self.summary = summary; self.points = points; self.events = events; self.source = source; self.heartRate = heartRate
        self.sensors = sensors; self.odometer = odometer; self.device = device
    }

    public var id: WorkoutID { summary.id }
    public var activity: ActivityType { summary.activity }

    /// The same workout with its points held as `transform` makes them.
    public func mapPoints<Other: Sendable>(_ transform: (Points) -> Other) -> WorkoutRecord<Other> {
        WorkoutRecord<Other>(summary: summary, points: transform(points), events: events, source: source, heartRate: heartRate,
                             sensors: sensors, odometer: odometer, device: device)
    }
}

extension WorkoutRecord: Equatable where Points: Equatable {}

/// A whole workout as saved: its points in an array.
public typealias Workout = WorkoutRecord<[TrackPoint]>

/// A workout just finished by the recorder, on its way to disk: its points still in the
/// recorder's compact store. Finishing a 24-hour workout thus copies no point on the event loop;
/// the saver encodes straight from the store (`WorkoutFile.encode`), and `workout` builds the
/// plain `Workout` when one is needed.
public typealias RecordedWorkout = WorkoutRecord<TrackPointStore>

extension Workout {
    /// A workout without points (a summary alone, or events only).
    public init(summary: WorkoutSummary, events: [WorkoutEvent] = [], source: String = "recorded", sensors: [SensorSample] = []) {
        self.init(summary: summary, points: [], events: events, source: source, sensors: sensors)
    }

    /// The summary with its splits cut in `unit`: as saved when they are, else recomputed from
    /// the points (`show` after `units` changed: imperial never relabels 1 km splits as
    /// "0.62 mi"). Only the splits change; every other figure stays as saved.
    public func summary(splitIn unit: SplitUnit, settings: MetricsSettings) -> WorkoutSummary {
        guard summary.splitUnit != unit, !summary.splits.isEmpty else { return summary }
        var other = settings
        other.splitUnit = unit
        var s = summary
        s.splits = Importer.edited(self, activity: activity, settings: other).summary.splits
        s.splitUnit = unit
        return s
    }
}

extension RecordedWorkout {
    /// The same workout with its points as an array.
    public var workout: Workout { mapPoints { $0.toArray() } }
}
