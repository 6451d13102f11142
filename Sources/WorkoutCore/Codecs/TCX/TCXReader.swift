/// Reads Garmin Training Center Database v2 files: activities with their sport, laps (with the
/// totals the file states) and trackpoints (time, position, altitude, distance, heart rate,
/// cadence, and the ActivityExtension v2 speed and watts). Elements are matched on local
/// names, so any prefix works (Garmin Connect binds ns2..ns5). Courses, Workouts, Folders,
/// MultiSportSession and lap extensions are skipped.
///
/// Trackpoints without `<Time>` (which the schema requires) are dropped and counted in
/// `TCXImport.droppedWithoutTime`; trackpoints without `<Position>` are kept (see `TCXTrackpoint.fix`).
/// A file without any `<Activity>`, or with anything malformed, throws `TrackFileError`.
public enum TCXReader {
    public static func read(_ bytes: [UInt8]) throws(TrackFileError) -> TCXImport {
        var p = try TrackFileParser(bytes, format: .tcx)
        _ = try p.root("TrainingCenterDatabase")
        var result = TCXImport()
        var dropped = 0
        try p.children { (p, name, _) throws(TrackFileError) in
            guard name == "Activities" else { try p.skipElement(); return }
            try p.children { (p, name, attributes) throws(TrackFileError) in
                guard name == "Activity" else { try p.skipElement(); return }
                result.activities.append(try readActivity(&p, attributes, &dropped))
            }
        }
        while try p.next() != nil {}
        if result.activities.isEmpty { throw p.fail(.noActivities, at: bytes.count) }
        result.droppedWithoutTime = dropped
        return result
    }

    private static func readActivity(_ p: inout TrackFileParser, _ attributes: [XMLAttribute], _ dropped: inout Int) throws(TrackFileError) -> TCXActivity {
        var activity = TCXActivity(sport: attributes.value(ofLocal: "Sport") ?? "Other")
        var track = -1
        try p.children { (p, name, attributes) throws(TrackFileError) in
            switch name {
            case "Id": activity.id = TrackFileParser.trim(try p.readText())
            case "Notes": activity.notes = try p.readText()
            case "Lap": activity.laps.append(try readLap(&p, attributes, &track, &dropped))
            case "Creator":
                try p.children { (p, name, _) throws(TrackFileError) in
                    if name == "Name" { activity.creatorName = TrackFileParser.trim(try p.readText()) } else { try p.skipElement() }
                }
            default: try p.skipElement()
            }
        }
        return activity
    }

    private static func readLap(_ p: inout TrackFileParser, _ attributes: [XMLAttribute], _ track: inout Int, _ dropped: inout Int) throws(TrackFileError) -> TCXLap {
        let offset = p.eventOffset
        guard let startText = attributes.value(ofLocal: "StartTime") else { throw p.fail(.missingAttribute(element: "Lap", attribute: "StartTime"), at: offset) }
        guard let start = ISO8601.parse(TrackFileParser.trim(startText)) else { throw p.fail(.badTime(field: "Lap StartTime", text: startText), at: offset) }
        var lap = TCXLap(startTime: start)
        try p.children { (p, name, _) throws(TrackFileError) in
            switch name {
            case "TotalTimeSeconds": lap.totalTimeSeconds = try p.double("TotalTimeSeconds") ?? 0
            case "DistanceMeters": lap.distanceMeters = try p.double("Lap DistanceMeters") ?? 0
            case "MaximumSpeed": lap.maximumSpeed = try p.double("MaximumSpeed")
            case "Calories": lap.calories = try p.int("Calories", range: 0...65535) ?? 0
            case "AverageHeartRateBpm": lap.averageHeartRate = try value(&p, "AverageHeartRateBpm")
            case "MaximumHeartRateBpm": lap.maximumHeartRate = try value(&p, "MaximumHeartRateBpm")
            case "Intensity": lap.intensity = TrackFileParser.trim(try p.readText())
            case "Cadence": lap.cadence = try p.int("Lap Cadence", range: 0...255)
            case "TriggerMethod": lap.triggerMethod = TrackFileParser.trim(try p.readText())
            case "Track":
                track += 1
                let index = track
                try p.children { (p, name, _) throws(TrackFileError) in
                    guard name == "Trackpoint" else { try p.skipElement(); return }
                    if let t = try readTrackpoint(&p, track: index) { lap.trackpoints.append(t) } else { dropped += 1 }
                }
            default: try p.skipElement()
            }
        }
        return lap
    }

    /// `<X><Value>n</Value></X>` (heart rates).
    private static func value(_ p: inout TrackFileParser, _ field: String) throws(TrackFileError) -> Int? {
        var v: Int?
        try p.children { (p, name, _) throws(TrackFileError) in
            if name == "Value" { v = try p.int(field, range: 0...255) } else { try p.skipElement() }
        }
        return v
    }

    private static func readTrackpoint(_ p: inout TrackFileParser, track: Int) throws(TrackFileError) -> TCXTrackpoint? {
        var time: Double?
        var t = TCXTrackpoint(time: 0, track: track)
        var runCadence: Int?
        var positionOffset = 0
        try p.children { (p, name, _) throws(TrackFileError) in
            switch name {
            case "Time": time = try p.time("Trackpoint Time")
            case "Position":
                positionOffset = p.eventOffset
                try p.children { (p, name, _) throws(TrackFileError) in
                    switch name {
                    case "LatitudeDegrees": t.latitude = try p.double("LatitudeDegrees")
                    case "LongitudeDegrees": t.longitude = try p.double("LongitudeDegrees")
                    default: try p.skipElement()
                    }
                }
            case "AltitudeMeters": t.altitude = try p.double("AltitudeMeters")
            case "DistanceMeters": t.distanceMeters = try p.double("Trackpoint DistanceMeters")
            case "HeartRateBpm": t.heartRate = try value(&p, "HeartRateBpm")
            case "Cadence": t.cadence = try p.int("Cadence", range: 0...255)
            case "Extensions":
                try p.children { (p, name, _) throws(TrackFileError) in
                    guard name == "TPX" else { try p.skipElement(); return }
                    try p.children { (p, name, _) throws(TrackFileError) in
                        switch name {
                        case "Speed": t.speed = try p.double("TPX Speed")
                        case "RunCadence": runCadence = try p.int("RunCadence", range: 0...255)
                        case "Watts": t.watts = try p.int("Watts", range: 0...65535)
                        default: try p.skipElement()
                        }
                    }
                }
            default: try p.skipElement()
            }
        }
        if let lat = t.latitude, !(-90...90).contains(lat) { throw p.fail(.coordinateOutOfRange(field: "LatitudeDegrees", value: lat), at: positionOffset) }
        if let lon = t.longitude, !(-180...180).contains(lon) { throw p.fail(.coordinateOutOfRange(field: "LongitudeDegrees", value: lon), at: positionOffset) }
        if (t.latitude == nil) != (t.longitude == nil) { t.latitude = nil; t.longitude = nil }
        if t.cadence == nil { t.cadence = runCadence }
        guard let time else { return nil }
        t.time = time
        return t
    }
}
