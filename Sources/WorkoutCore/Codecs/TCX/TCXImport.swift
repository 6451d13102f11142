/// Everything `TCXReader` takes from a Training Center Database v2 file.
public struct TCXImport: Sendable, Equatable {
    public var activities: [TCXActivity]
    /// Trackpoints left out because they had no `<Time>` (the schema requires one).
    public var droppedWithoutTime: Int

    public init(activities: [TCXActivity] = [], droppedWithoutTime: Int = 0) {
        self.activities = activities
        self.droppedWithoutTime = droppedWithoutTime
    }

    /// Trackpoints of every activity (with or without position).
    public var trackpointCount: Int { activities.reduce(0) { $0 + $1.trackpointCount } }
}

/// One `<Activity>`.
public struct TCXActivity: Sendable, Equatable {
    /// `Sport` attribute as written: "Running", "Biking" or "Other".
    public var sport: String
    /// `<Id>`, normally the start time.
    public var id: String?
    public var laps: [TCXLap]
    public var notes: String?
    /// `<Creator><Name>`, the device.
    public var creatorName: String?

    public init(sport: String, id: String? = nil, laps: [TCXLap] = [], notes: String? = nil, creatorName: String? = nil) {
        self.sport = sport; self.id = id; self.laps = laps; self.notes = notes; self.creatorName = creatorName
    }

    /// `ActivityType(importedName:)` of the sport: Running -> running, Biking -> cycling, else nil.
    public var activity: ActivityType? { ActivityType(importedName: sport) }
    /// `<Id>` read as a time, when it is one.
    public var startTime: Double? { id.flatMap { ISO8601.parse($0) } ?? laps.first?.startTime }
    public var trackpointCount: Int { laps.reduce(0) { $0 + $1.trackpoints.count } }

    /// Trackpoints with a position, as accepted track points in file order. The segment index
    /// counts `<Track>` elements of the activity (a device starts a new Track after a pause).
    /// Trackpoints without `<Position>` (indoor, or GPS not yet locked) are not included.
    public var trackPoints: [TrackPoint] {
        var out: [TrackPoint] = []
        out.reserveCapacity(trackpointCount)
        for lap in laps { for t in lap.trackpoints { if let f = t.fix { out.append(TrackPoint(fix: f, segment: t.track)) } } }
        return out
    }

    /// Heart rate of the trackpoints without `<Position>` (indoor: yoga, treadmill), in file
    /// order; a trackpoint without `HeartRateBpm` is a gap (nil bpm).
    public var heartRateWithoutPosition: [HeartRateSample] {
        var out: [HeartRateSample] = []
        for lap in laps { for t in lap.trackpoints where t.fix == nil { out.append(HeartRateSample(time: t.time, bpm: t.heartRate)) } }
        return out
    }

    /// Power, cadence and speed of the trackpoints without `<Position>` (an indoor ride or run),
    /// as readings of the file's sensors, in file order.
    public var sensorsWithoutPosition: [SensorSample] {
        var out: [SensorSample] = []
        for lap in laps {
            for t in lap.trackpoints where t.fix == nil && (t.watts != nil || t.cadence != nil || t.speed != nil) {
                out.append(SensorSample(time: t.time, source: .file, reading: SensorReading(power: t.watts, cadence: t.cadence.map(Double.init), speed: t.speed)))
            }
        }
        return out
    }

    /// `DistanceMeters` of the trackpoints without `<Position>`: the device's distance over time,
    /// closed by the laps' total `DistanceMeters` at their end when that is further (the last
    /// trackpoint may come a little short of it).
    public var distanceWithoutPosition: [OdometerReading] { distanceReadings(closingAtLapsEnd: true) { $0.fix == nil } }

    /// `DistanceMeters` of every trackpoint, with a position or not: the recording device's
    /// distance over time (its wheel, foot pod or filtered GPS, what its laps add up), closed by
    /// the laps' total at the last trackpoint (a track's span is its points'); empty when no
    /// trackpoint carries one.
    public var deviceDistance: [OdometerReading] { distanceReadings(closingAtLapsEnd: false) { _ in true } }

    private func distanceReadings(closingAtLapsEnd: Bool, _ taken: (TCXTrackpoint) -> Bool) -> [OdometerReading] {
        var out: [OdometerReading] = []
        for lap in laps {
            for t in lap.trackpoints where taken(t) { if let d = t.distanceMeters, d.isFinite, d >= 0 { out.append(OdometerReading(time: t.time, meters: d)) } }
        }
        let total = laps.reduce(0) { $0 + ($1.distanceMeters.isFinite ? max(0, $1.distanceMeters) : 0) }
        if let last = out.last, let end = lapsEnd, total > last.meters + 0.005 {
            out.append(OdometerReading(time: closingAtLapsEnd ? max(end, last.time) : last.time, meters: total))
        }
        return out
    }

    /// A warning when the laps state far more time than the track covers: a track cut short
    /// (kona2013.tcx: a 5:15:30, 180.2 km lap over 5 trackpoints that span 4 s). The workout is
    /// still measured from the track, which is what the file holds (the laps' calories, which
    /// are the whole ride's, are not taken as the device's); nil when the track covers
    /// the laps (their TotalTimeSeconds is timer time, at most the track's span).
    public func cutShortNote(_ points: [TrackPoint]) -> String? {
        guard let first = points.first?.fix.time, let last = points.last?.fix.time else { return nil }
        let stated = laps.reduce(0) { $0 + ($1.totalTimeSeconds.isFinite ? max(0, $1.totalTimeSeconds) : 0) }
        let covered = last - first
        guard stated > 2 * covered + 60 else { return nil }
        let km = laps.reduce(0) { $0 + ($1.distanceMeters.isFinite ? max(0, $1.distanceMeters) : 0) } / 1000
        return "the file's laps state \(WebFormat.duration(stated)) and \(formatFixed(km, decimals: 1)) km, but its track covers "
            + "only \(WebFormat.duration(covered)): the track looks cut short, and the workout is measured from it (not the laps' calories either)"
    }

    /// The end of the last lap (start + TotalTimeSeconds), nil without laps.
    public var lapsEnd: Double? { laps.map { $0.startTime + max(0, $0.totalTimeSeconds) }.max() }

    /// The laps' totals from the file as lap summaries (elapsed = moving = TotalTimeSeconds).
    public var lapSummaries: [LapSummary] {
        laps.enumerated().map { (k, lap) in
            let trigger: LapTrigger
            switch lap.triggerMethod {
            case "Distance": trigger = .distance
            case "Time": trigger = .time
            default: trigger = .manual
            }
            return LapSummary(index: k, trigger: trigger, startTime: lap.startTime, endTime: lap.startTime + lap.totalTimeSeconds,
                              elapsedSeconds: lap.totalTimeSeconds, movingSeconds: lap.totalTimeSeconds,
                              distanceMeters: lap.distanceMeters, maxSpeed: lap.maximumSpeed ?? 0, calories: Double(lap.calories),
                              averageHeartRate: lap.averageHeartRate, maxHeartRate: lap.maximumHeartRate)
        }
    }
}

/// One `<Lap>` with its totals as the file states them (not recomputed from trackpoints:
/// kona2013.tcx has 5 trackpoints under a lap of 180 km).
public struct TCXLap: Sendable, Equatable {
    public var startTime: Double
    public var totalTimeSeconds: Double
    public var distanceMeters: Double
    public var maximumSpeed: Double?
    public var calories: Int
    public var averageHeartRate: Int?
    public var maximumHeartRate: Int?
    /// "Active" or "Resting".
    public var intensity: String?
    public var cadence: Int?
    /// "Manual", "Distance", "Location", "Time", "HeartRate".
    public var triggerMethod: String?
    public var trackpoints: [TCXTrackpoint]

    public init(startTime: Double, totalTimeSeconds: Double = 0, distanceMeters: Double = 0, maximumSpeed: Double? = nil,
                calories: Int = 0, averageHeartRate: Int? = nil, maximumHeartRate: Int? = nil, intensity: String? = nil,
                cadence: Int? = nil, triggerMethod: String? = nil, trackpoints: [TCXTrackpoint] = []) {
        self.startTime = startTime; self.totalTimeSeconds = totalTimeSeconds; self.distanceMeters = distanceMeters
        self.maximumSpeed = maximumSpeed; self.calories = calories; self.averageHeartRate = averageHeartRate
        self.maximumHeartRate = maximumHeartRate; self.intensity = intensity; self.cadence = cadence
        self.triggerMethod = triggerMethod; self.trackpoints = trackpoints
    }
}

/// One `<Trackpoint>`.
public struct TCXTrackpoint: Sendable, Equatable {
    public var time: Double
    /// nil when the trackpoint has no `<Position>`.
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    /// Cumulative distance from the activity start, as the device computed it.
    public var distanceMeters: Double?
    public var heartRate: Int?
    /// `<Cadence>`, or the ActivityExtension `RunCadence` when there is no `<Cadence>`.
    public var cadence: Int?
    /// ActivityExtension v2 `TPX/Speed`, m/s.
    public var speed: Double?
    /// ActivityExtension v2 `TPX/Watts`.
    public var watts: Int?
    /// Index of the `<Track>` element within the activity (0, 1, ...).
    public var track: Int

    public init(time: Double, latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil,
                distanceMeters: Double? = nil, heartRate: Int? = nil, cadence: Int? = nil, speed: Double? = nil,
                watts: Int? = nil, track: Int = 0) {
        self.time = time; self.latitude = latitude; self.longitude = longitude; self.altitude = altitude
        self.distanceMeters = distanceMeters; self.heartRate = heartRate; self.cadence = cadence
        self.speed = speed; self.watts = watts; self.track = track
    }

    /// The trackpoint as a fix (3D with an altitude, else 2D), nil without a position.
    public var fix: Fix? {
        guard let latitude, let longitude else { return nil }
        return Fix(time: time, latitude: latitude, longitude: longitude, altitude: altitude, speed: speed,
                   mode: altitude == nil ? .twoD : .threeD, heartRate: heartRate, cadence: cadence, power: watts)
    }
}
