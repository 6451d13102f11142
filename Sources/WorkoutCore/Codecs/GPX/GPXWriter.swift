/// Writes a workout as GPX 1.1, valid against the GPX 1.1 schema with Garmin's
/// TrackPointExtension v1 (`../shared/schemas/gpx11+garmin.xsd`), in the form Strava and
/// other readers take: UTC times with `Z`, fixed-decimal numbers, heart rate and cadence in
/// `gpxtpx:TrackPointExtension`, power in Garmin's PowerExtension (`gpxpx:PowerInWatts`).
///
/// - Every point of the recorded track is written (`TrackPoint.isOnTrack`: accepted, or
///   stationary jitter, which adds no distance), one `<trkseg>` per run of points with the same
///   `TrackPoint.segment`. Fixes rejected for quality (kept in workoutd's own file with their
///   reason) are left out: GPX has no way to mark a point as rejected, and readers would count them.
/// - Lap and marker events become `<wpt>` elements (before `<trk>`, as the schema orders them)
///   at the position of the last track point at or before the event's time.
/// - Latitude and longitude get 9 decimals (0.1 mm), elevation 2, times millisecond precision
///   when not whole seconds. Speed, course, accuracy and fix quality are not written (GPX 1.1
///   has no element for speed, and TrackPointExtension v1 none either); satellites and HDOP
///   are.
public enum GPXWriter {
    public struct Options: Sendable {
        /// The `creator` attribute.
        public var creator: String
        /// `<metadata><name>` and `<trk><name>`; nil writes the workout's title, else
        /// "<Activity> <start date>". The workout's notes are written as `<desc>`.
        public var name: String?
        /// Whether lap and marker events are written as waypoints.
        public var includesWaypoints: Bool

        public init(creator: String = "workoutd", name: String? = nil, includesWaypoints: Bool = true) {
            self.creator = creator
            self.name = name
            self.includesWaypoints = includesWaypoints
        }
    }

    /// Decimals of latitude and longitude.
    public static let coordinateDecimals = 9
    /// Decimals of elevation.
    public static let elevationDecimals = 2

    /// `<desc>` with the workout's notes, if any.
    private static func writeDescription(_ notes: String?, _ out: inout XMLOutput) {
        guard let notes else { return }
        out.append("  <desc>")
        out.appendEscaped(notes)
        out.append("</desc>\n")
    }

    /// The GPX document as UTF-8 bytes.
    public static func write(_ workout: Workout, options: Options = Options()) -> [UInt8] {
        var out = XMLOutput(capacity: 1024 + workout.points.count * 200)
        write(workout, options: options, into: &out, chunk: nil, drain: { _ in })
        return out.takeBytes()
    }

    /// The same document handed to `drain` a piece at a time, each about `chunk` bytes (the
    /// last shorter): an export into a file writes a 24-hour track's 11 MB through a 1 MB
    /// buffer instead of building it whole and copying it into an array (two 11 MB buffers,
    /// 5,600 page faults). Returns the document's length.
    @discardableResult
    public static func write(_ workout: Workout, options: Options = Options(), chunk: Int = 1 << 20,
                             drain: (UnsafeRawBufferPointer) -> Void) -> Int {
        var out = XMLOutput(capacity: min(1024 + workout.points.count * 200, chunk + 2 * maxPointBytes))
        var total = 0
        func counted(_ b: UnsafeRawBufferPointer) { total += b.count; drain(b) }
        write(workout, options: options, into: &out, chunk: max(1, chunk), drain: counted)
        out.drain(counted)
        return total
    }

    /// Writes the document into `out`, draining it whenever it holds `chunk` bytes (nil: never).
    private static func write(_ workout: Workout, options: Options, into out: inout XMLOutput, chunk: Int?,
                              drain: (UnsafeRawBufferPointer) -> Void) {
        let summary = workout.summary
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.append("<gpx version=\"1.1\" creator=\"")
        out.appendEscaped(options.creator)
        out.append("\" xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\" xmlns:gpxpx=\"http://www.garmin.com/xmlschemas/PowerExtension/v1\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd http://www.garmin.com/xmlschemas/TrackPointExtension/v1 http://www.garmin.com/xmlschemas/TrackPointExtensionv1.xsd\">\n")
        let name = options.name ?? summary.title ?? (workout.activity.displayName + " " + String(ISO8601.format(summary.startedAt).prefix(10)))
        out.append(" <metadata>\n  <name>")
        out.appendEscaped(name)
        out.append("</name>\n")
        writeDescription(summary.notes, &out)
        out.append("  <time>")
        out.appendTime(summary.startedAt)
        out.append("</time>\n </metadata>\n")

        if options.includesWaypoints { writeWaypoints(workout.events, workout.points, &out) }

        out.append(" <trk>\n  <name>")
        out.appendEscaped(name)
        out.append("</name>\n")
        writeDescription(summary.notes, &out)
        out.append("  <type>")
        out.appendEscaped(workout.activity.gpxType)
        out.append("</type>\n")
        var segment: Int?
        for p in workout.points where p.isOnTrack {
            if p.segment != segment {
                if segment != nil { out.append("  </trkseg>\n") }
                out.append("  <trkseg>\n")
                segment = p.segment
            }
            writePoint(p.fix, &out)
            if let chunk, out.count >= chunk { out.drain(drain) }
        }
        if segment != nil { out.append("  </trkseg>\n") }
        out.append(" </trk>\n</gpx>\n")
    }

    /// The GPX document as a string.
    public static func string(_ workout: Workout, options: Options = Options()) -> String {
        String(decoding: write(workout, options: options), as: UTF8.self)
    }

    /// The room of one `<trkpt>`: its markup (~260 bytes) and every number at its longest.
    static var maxPointBytes: Int { 1024 }

    /// The start of a track point or waypoint: `open` (`<trkpt lat="`, `<wpt lat="`), the
    /// position, `<ele>` where finite and `<time>`.
    private static func writePlace(_ open: StaticString, _ at: Fix, time: Double, _ w: inout ByteWriter, _ day: inout UTCDayText) {
        w.literal(open)
        w.fixed(at.latitude, decimals: coordinateDecimals)
        w.literal("\" lon=\"")
        w.fixed(at.longitude, decimals: coordinateDecimals)
        w.literal("\">")
        if let ele = at.altitude, ele.isFinite {
            w.element("<ele>", fixed: ele, decimals: elevationDecimals, "</ele>")
        }
        w.literal("<time>")
        w.utcTime(time, &day)
        w.literal("</time>")
    }

    private static func writePoint(_ f: Fix, _ out: inout XMLOutput) {
        out.appendPiece(capacity: maxPointBytes) { w, day in
            writePlace("   <trkpt lat=\"", f, time: f.time, &w, &day)
            if let sat = f.satellites, sat >= 0 {
                w.element("<sat>", int: sat, "</sat>")
            }
            if let hdop = f.hdop, hdop.isFinite, hdop >= 0 {
                w.element("<hdop>", fixed: hdop, decimals: 2, "</hdop>")
            }
            // TrackPointExtension v1 (in its order atemp, hr, cad): hr is 1...255, cad 0...254; anything
            // else is not writable. Power in Garmin's PowerExtension v1 (`PowerInWatts`, after it).
            let hr = f.heartRate.flatMap { (1...255).contains($0) ? $0 : nil }
            let cad = f.cadence.flatMap { (0...254).contains($0) ? $0 : nil }
            let atemp = f.temperature.flatMap { (-273...1000).contains($0) ? $0 : nil }
            let watts = f.power.flatMap { (0...65535).contains($0) ? $0 : nil }
            if hr != nil || cad != nil || atemp != nil || watts != nil { w.literal("<extensions>") }
            if hr != nil || cad != nil || atemp != nil {
                w.literal("<gpxtpx:TrackPointExtension>")
                if let atemp {
                    w.element("<gpxtpx:atemp>", int: atemp, "</gpxtpx:atemp>")
                }
                if let hr {
                    w.element("<gpxtpx:hr>", int: hr, "</gpxtpx:hr>")
                }
                if let cad {
                    w.element("<gpxtpx:cad>", int: cad, "</gpxtpx:cad>")
                }
                w.literal("</gpxtpx:TrackPointExtension>")
            }
            if let watts {
                w.element("<gpxpx:PowerInWatts>", int: watts, "</gpxpx:PowerInWatts>")
            }
            if hr != nil || cad != nil || atemp != nil || watts != nil { w.literal("</extensions>") }
            w.literal("</trkpt>\n")
        }
    }

    /// Lap and marker events as waypoints, named "Lap n" / the marker text ("Marker n").
    private static func writeWaypoints(_ events: [WorkoutEvent], _ points: [TrackPoint], _ out: inout XMLOutput) {
        guard let firstAccepted = points.firstIndex(where: \.isOnTrack) else { return }
        var laps = 0, markers = 0
        for e in events where e.kind == .lap || e.kind == .marker {
            let name: String
            if e.kind == .lap { laps += 1; name = e.text ?? "Lap \(laps)" } else { markers += 1; name = e.text ?? "Marker \(markers)" }
            // Last track point at or before the event (binary search; points are in time order),
            // else the first one.
            var k = points.endOfTimes(atOrBefore: e.time, time: \.fix.time) - 1
            while k >= 0, !points[k].isOnTrack { k -= 1 }
            let at = points[k >= 0 ? k : firstAccepted].fix
            out.appendPiece(capacity: maxPointBytes) { w, day in writePlace(" <wpt lat=\"", at, time: e.time, &w, &day) }
            out.append("<name>")
            out.appendEscaped(name)
            out.append("</name><type>")
            out.append(e.kind == .lap ? "lap" : "marker")
            out.append("</type></wpt>\n")
        }
    }
}
