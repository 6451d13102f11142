/// Reads GPX 1.0 and 1.1 files: tracks (segments of points with time, elevation, speed and the
/// Garmin TrackPointExtension v1/v2 heart rate and cadence), waypoints and the file's metadata.
/// Routes (`<rte>`, plans rather than recordings) and unknown extensions are skipped. Elements
/// are matched on local names, so any namespace prefix works (`gpxtpx:hr`, `ns3:hr`).
///
/// A file without a single track point, or with anything malformed (XML, numbers, times,
/// waypoint coordinates out of range) throws `TrackFileError` and imports nothing. A track point
/// that cannot be a position is read for what it means or skipped, never a reason to refuse the
/// file (`GPXImport.notes` says which): OpenTracks' pause and resume markers (latitude 100 and
/// 200, as its older versions wrote them) end the segment; any other latitude or longitude out
/// of range is skipped; a time before the GPS epoch (1980-01-06: a 1901 stamp is a signed
/// 32-bit zero) is no time.
public enum GPXReader {
    public static func read(_ bytes: [UInt8]) throws(TrackFileError) -> GPXImport {
        var p = try TrackFileParser(bytes, format: .gpx)
        let rootAttributes = try p.root("gpx")
        var result = GPXImport(version: rootAttributes.value(ofLocal: "version"), creator: rootAttributes.value(ofLocal: "creator"))
        try p.children { (p, name, attributes) throws(TrackFileError) in
            switch name {
            case "metadata":
                try p.children { (p, name, _) throws(TrackFileError) in
                    switch name {
                    case "name": result.name = TrackFileParser.trim(try p.readText())
                    case "desc": result.description = TrackFileParser.trim(try p.readText())
                    case "time": result.time = try p.time("metadata time")
                    default: try p.skipElement()
                    }
                }
            case "name": result.name = TrackFileParser.trim(try p.readText())
            case "desc": result.description = TrackFileParser.trim(try p.readText())
            case "time": result.time = try p.time("gpx time")
            case "wpt": result.waypoints.append(try readWaypoint(&p, attributes))
            case "trk": result.tracks.append(try readTrack(&p, &result))
            default: try p.skipElement()
            }
        }
        // Drain what follows the root (comments, whitespace), so trailing garbage is refused.
        while try p.next() != nil {}
        if result.pointCount == 0 { throw p.fail(.noTrackPoints, at: bytes.count) }
        return result
    }

    private static func readTrack(_ p: inout TrackFileParser, _ result: inout GPXImport) throws(TrackFileError) -> GPXTrack {
        var track = GPXTrack()
        try p.children { (p, name, _) throws(TrackFileError) in
            switch name {
            case "name": track.name = TrackFileParser.trim(try p.readText())
            case "desc": track.description = TrackFileParser.trim(try p.readText())
            case "type": track.type = TrackFileParser.trim(try p.readText())
            case "trkseg":
                var segment = GPXSegment()
                try p.children { (p, name, attributes) throws(TrackFileError) in
                    guard name == "trkpt" else { try p.skipElement(); return }
                    let offset = p.eventOffset
                    let (lat, lon) = try numbers(&p, attributes, element: "trkpt")
                    guard (-90...90).contains(lat), (-180...180).contains(lon) else {
                        try p.skipElement()
                        if lat == 100 || lat == 200 {
                            // OpenTracks' pause (100) and resume (200): the segment ends here.
                            result.pauseMarkers += 1
                            if !segment.points.isEmpty { track.segments.append(segment); segment = GPXSegment() }
                        } else {
                            result.skippedPoints += 1
                            if result.firstSkipped == nil { result.firstSkipped = "line \(p.line(at: offset)): lat \(lat), lon \(lon)" }
                        }
                        return
                    }
                    var point = try readPoint(&p, GPXPoint(latitude: lat, longitude: lon))
                    if let t = point.time, t < GPXReader.gpsEpoch {
                        point.time = nil
                        result.impossibleTimes += 1
                        if result.firstImpossibleTime == nil { result.firstImpossibleTime = "line \(p.line(at: offset)): \(ISO8601.format(t))" }
                    }
                    if point.time == nil {
                        result.untimedPointCount += 1
                        if result.firstUntimedLine == nil { result.firstUntimedLine = p.line(at: offset) }
                    }
                    segment.points.append(point)
                }
                track.segments.append(segment)
            default: try p.skipElement()
            }
        }
        return track
    }

    /// The first time a GPS receiver can give (1980-01-06, Unix seconds): a point stamped
    /// earlier has no real time.
    static let gpsEpoch = 315_964_800.0

    /// The `lat` and `lon` attributes as numbers, in range or not.
    private static func numbers(_ p: inout TrackFileParser, _ attributes: [XMLAttribute], element: String) throws(TrackFileError) -> (Double, Double) {
        let offset = p.eventOffset
        guard let latText = attributes.value(ofLocal: "lat") else { throw p.fail(.missingAttribute(element: element, attribute: "lat"), at: offset) }
        guard let lonText = attributes.value(ofLocal: "lon") else { throw p.fail(.missingAttribute(element: element, attribute: "lon"), at: offset) }
        let lat = try p.attributeNumber(latText, field: "\(element) lat", at: offset)
        let lon = try p.attributeNumber(lonText, field: "\(element) lon", at: offset)
        return (lat, lon)
    }

    private static func coordinates(_ p: inout TrackFileParser, _ attributes: [XMLAttribute], element: String) throws(TrackFileError) -> (Double, Double) {
        let offset = p.eventOffset
        let (lat, lon) = try numbers(&p, attributes, element: element)
        guard (-90...90).contains(lat) else { throw p.fail(.coordinateOutOfRange(field: "\(element) lat", value: lat), at: offset) }
        guard (-180...180).contains(lon) else { throw p.fail(.coordinateOutOfRange(field: "\(element) lon", value: lon), at: offset) }
        return (lat, lon)
    }

    private static func readPoint(_ p: inout TrackFileParser, _ position: GPXPoint) throws(TrackFileError) -> GPXPoint {
        var point = position
        try p.children { (p, name, _) throws(TrackFileError) in
            switch name {
            case "ele": point.elevation = try p.double("ele")
            case "time": point.time = try p.time("time")
            case "speed": point.speed = try p.double("speed")
            case "course": point.course = try p.double("course")
            case "sat": point.satellites = try p.int("sat", range: 0...1000)
            case "hdop": point.hdop = try p.double("hdop")
            case "fix": point.fixType = TrackFileParser.trim(try p.readText())
            case "extensions": try readExtensions(&p, &point)
            default: try p.skipElement()
            }
        }
        return point
    }

    /// Any depth below `<extensions>`: TrackPointExtension v1/v2 (`hr`, `cad`, `atemp` rounded to
    /// whole degrees, v2 `speed`, `course`), Garmin's PowerExtension `PowerInWatts` (or a bare
    /// `power`, as other apps write it), whatever the prefix. GPX 1.0 `<speed>`/`<course>` win
    /// over v2 values.
    private static func readExtensions(_ p: inout TrackFileParser, _ point: inout GPXPoint) throws(TrackFileError) {
        try p.children { (p, name, _) throws(TrackFileError) in
            switch name {
            case "hr": point.heartRate = try p.int("hr", range: 0...255)
            case "cad": point.cadence = try p.int("cad", range: 0...255)
            case "PowerInWatts", "power": point.power = try p.int(name, range: 0...65535)
            case "atemp":
                if let v = try p.double("atemp"), v >= -273.15, v <= 1000 { point.temperature = Int(v.rounded()) }
            case "speed":
                let v = try p.double("speed")
                if point.speed == nil { point.speed = v }
            case "course":
                let v = try p.double("course")
                if point.course == nil { point.course = v }
            case "TrackPointExtension", "extensions", "Extensions": try readExtensions(&p, &point)
            default: try p.skipElement()
            }
        }
    }

    private static func readWaypoint(_ p: inout TrackFileParser, _ attributes: [XMLAttribute]) throws(TrackFileError) -> GPXWaypoint {
        let (lat, lon) = try coordinates(&p, attributes, element: "wpt")
        var w = GPXWaypoint(latitude: lat, longitude: lon)
        try p.children { (p, name, _) throws(TrackFileError) in
            switch name {
            case "ele": w.elevation = try p.double("wpt ele")
            case "time": w.time = try p.time("wpt time")
            case "name": w.name = TrackFileParser.trim(try p.readText())
            case "desc": w.description = TrackFileParser.trim(try p.readText())
            case "type": w.type = TrackFileParser.trim(try p.readText())
            default: try p.skipElement()
            }
        }
        return w
    }
}
