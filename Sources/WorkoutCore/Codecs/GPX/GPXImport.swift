/// Everything `GPXReader` takes from a GPX 1.0 or 1.1 file.
public struct GPXImport: Sendable, Equatable {
    /// The root's `version` attribute ("1.0", "1.1"), as written.
    public var version: String?
    public var creator: String?
    /// `<metadata><name>` (1.1) or the top-level `<name>` (1.0).
    public var name: String?
    /// `<metadata><desc>` (1.1) or the top-level `<desc>` (1.0).
    public var description: String?
    /// `<metadata><time>` (1.1) or the top-level `<time>` (1.0): when the file was made.
    public var time: Double?
    public var tracks: [GPXTrack]
    public var waypoints: [GPXWaypoint]
    /// Track points without a `<time>`: kept in `tracks`, left out of `trackPoints`.
    public var untimedPointCount: Int
    /// Line of the first track point without a time, to tell the user where.
    public var firstUntimedLine: Int?
    /// Track points that cannot be positions (`GPXReader`): OpenTracks' pause and resume
    /// markers read as segment ends, points out of range skipped, times before the GPS epoch
    /// taken as none; each with where the first was ("line 12: lat 123.0, lon 4.0").
    public var pauseMarkers = 0
    public var skippedPoints = 0
    public var firstSkipped: String?
    public var impossibleTimes = 0
    public var firstImpossibleTime: String?

    /// What the user should know of the points read for what they mean or skipped.
    public var notes: [String] {
        var out: [String] = []
        if pauseMarkers > 0 { out.append("\(pauseMarkers) OpenTracks pause/resume marker\(pauseMarkers == 1 ? "" : "s") (latitude 100/200) read as pauses") }
        if let f = firstSkipped {
            out.append("skipped \(skippedPoints) track point\(skippedPoints == 1 ? "" : "s") that cannot be a position (first at \(f))")
        }
        if let f = firstImpossibleTime {
            out.append("\(impossibleTimes) track point\(impossibleTimes == 1 ? "" : "s") stamped before 1980, so without a time, not imported (first at \(f))")
        }
        return out
    }

    public init(version: String? = nil, creator: String? = nil, name: String? = nil, time: Double? = nil,
                tracks: [GPXTrack] = [], waypoints: [GPXWaypoint] = [], untimedPointCount: Int = 0, firstUntimedLine: Int? = nil) {
        self.version = version; self.creator = creator; self.name = name; self.time = time
        self.tracks = tracks; self.waypoints = waypoints
        self.untimedPointCount = untimedPointCount; self.firstUntimedLine = firstUntimedLine
    }

    /// Every track point of every track, timed or not.
    public var pointCount: Int { tracks.reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.points.count } } }

    /// The activity named by the first track `<type>` that `ActivityType(importedName:)` knows.
    public var activity: ActivityType? {
        for t in tracks { if let type = t.type, let a = ActivityType(importedName: type) { return a } }
        return nil
    }

    /// The timed points of all tracks in file order, as accepted track points; the segment index
    /// counts `<trkseg>` elements across all tracks (0, 1, 2, ...), skipping empty ones.
    public var trackPoints: [TrackPoint] {
        var out: [TrackPoint] = []
        out.reserveCapacity(pointCount)
        var segment = 0
        for track in tracks {
            for s in track.segments {
                let before = out.count
                for p in s.points { if let f = p.fix { out.append(TrackPoint(fix: f, segment: segment)) } }
                if out.count > before { segment += 1 }
            }
        }
        return out
    }
}

/// One `<trk>`.
public struct GPXTrack: Sendable, Equatable {
    public var name: String?
    public var description: String?
    /// `<type>` as written (GPX 1.1 only; workoutd writes its activity raw value here).
    public var type: String?
    public var segments: [GPXSegment]

    public init(name: String? = nil, type: String? = nil, segments: [GPXSegment] = []) {
        self.name = name; self.type = type; self.segments = segments
    }
}

/// One `<trkseg>`.
public struct GPXSegment: Sendable, Equatable {
    public var points: [GPXPoint]

    public init(points: [GPXPoint] = []) { self.points = points }

    /// The points that have a time, as fixes.
    public var fixes: [Fix] { points.compactMap(\.fix) }
}

/// One `<trkpt>` with what workoutd keeps of it.
public struct GPXPoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// `<ele>`, metres.
    public var elevation: Double?
    /// `<time>`, UTC seconds since 1970; nil when the point has none.
    public var time: Double?
    /// m/s: GPX 1.0 `<speed>` or TrackPointExtension v2 `speed`.
    public var speed: Double?
    /// degrees: GPX 1.0 `<course>` or TrackPointExtension v2 `course`.
    public var course: Double?
    /// TrackPointExtension `hr` (bpm).
    public var heartRate: Int?
    /// TrackPointExtension `cad` (rpm).
    public var cadence: Int?
    /// TrackPointExtension `atemp` (degrees Celsius, rounded).
    public var temperature: Int?
    /// Watts (Garmin's PowerExtension `PowerInWatts`, or a `power` element in the extensions).
    public var power: Int?
    /// `<sat>`, `<hdop>`, `<fix>` ("none", "2d", "3d", "dgps", "pps").
    public var satellites: Int?
    public var hdop: Double?
    public var fixType: String?

    public init(latitude: Double, longitude: Double, elevation: Double? = nil, time: Double? = nil, speed: Double? = nil,
                course: Double? = nil, heartRate: Int? = nil, cadence: Int? = nil, satellites: Int? = nil,
                hdop: Double? = nil, fixType: String? = nil, temperature: Int? = nil) {
        self.latitude = latitude; self.longitude = longitude; self.elevation = elevation; self.time = time
        self.speed = speed; self.course = course; self.heartRate = heartRate; self.cadence = cadence
        self.satellites = satellites; self.hdop = hdop; self.fixType = fixType; self.temperature = temperature
    }

    /// The point as a fix, nil without a time. Mode: from `<fix>` when present, else 3D with an
    /// elevation and 2D without; quality dgps/pps from `<fix>`.
    public var fix: Fix? {
        guard let time else { return nil }
        var mode: FixMode = elevation == nil ? .twoD : .threeD
        var quality: FixQuality?
        switch fixType {
        case "none": mode = .noFix
        case "2d": mode = .twoD
        case "3d": mode = .threeD
        case "dgps": mode = .threeD; quality = .dgps
        case "pps": mode = .threeD; quality = .pps
        default: break
        }
        return Fix(time: time, latitude: latitude, longitude: longitude, altitude: elevation, speed: speed, course: course,
                   mode: mode, quality: quality, satellites: satellites, hdop: hdop, heartRate: heartRate, cadence: cadence,
                   power: power, temperature: temperature)
    }
}

/// One `<wpt>` (workoutd writes laps and markers as waypoints).
public struct GPXWaypoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var elevation: Double?
    public var time: Double?
    public var name: String?
    public var description: String?
    public var type: String?

    public init(latitude: Double, longitude: Double, elevation: Double? = nil, time: Double? = nil,
                name: String? = nil, description: String? = nil, type: String? = nil) {
        self.latitude = latitude; self.longitude = longitude; self.elevation = elevation; self.time = time
        self.name = name; self.description = description; self.type = type
    }
}
