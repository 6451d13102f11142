import Foundation
import Synchronization
@testable import WorkoutCore

/// Helpers shared by the XML, GPX and TCX tests: running the peer tools (gpsbabel, gpxpy,
/// xmllint) and building workouts from imported files.
enum XMLTestSupport {
    static let gpxFiles = ["garmin-edge-800-output.gpx", "garmin-oregon-700-output.gpx", "garminconnect.gpx", "globalsat_gh625XT.gpx"]
    static let tcxFiles = ["bike.tcx", "gtrnctr_power.tcx", "kona2013.tcx"]

    static func bytes(_ relative: String) throws -> [UInt8] { try SharedData.bytes(SharedData.url(relative)) }

    /// A fresh temporary directory for output files.
    static func tempDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("workoutd-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Rows of `gpsbabel -t -i FORMAT (or -w: waypoints) -f FILE -o unicsv -F -` (header first), as dictionaries.
    static func gpsbabelRows(_ path: String, format: String, kind: String = "-t") throws -> [[String: String]] {
        let r = try SharedData.run(["gpsbabel", kind, "-i", format, "-f", path, "-o", "unicsv", "-F", "-"])
        guard r.status == 0 else { throw ToolFailure(message: "gpsbabel failed: \(r.stderr)") }
        var lines = r.stdout.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
        guard !lines.isEmpty else { return [] }
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        return lines.map { line in
            var row: [String: String] = [:]
            for (k, v) in line.split(separator: ",", omittingEmptySubsequences: false).enumerated() where k < header.count {
                row[header[k]] = String(v)
            }
            return row
        }
    }

    struct GpxpySummary: Decodable, Sendable {
        var count: Int
        var segments: [Int]
        var first: [Double]
        var last: [Double]
        var length2d: Double
        var waypoints: Int
        /// gpxpy's `length_2d()` of the given points (`gpxpy(_:lengthOf:)`), nil without them.
        var pointsLength2d: Double?
    }

    /// What gpxpy reads from a GPX file: point count, per-segment counts, first and last point
    /// (lat, lon, epoch seconds), `length_2d()` and waypoint count; with `points`, also the
    /// `length_2d()` of a GPX gpxpy builds from them (a new segment at each segment change),
    /// in the same run: one Python and one parse of the file, not two.
    static func gpxpy(_ path: String, lengthOf points: [TrackPoint]? = nil) throws -> GpxpySummary {
        let script = """
        import gpxpy, gpxpy.gpx, json, sys
        g = gpxpy.parse(open(sys.argv[1], encoding='utf-8'))
        pts = [p for t in g.tracks for s in t.segments for p in s.points]
        f = lambda p: [p.latitude, p.longitude, p.time.timestamp() if p.time else -1]
        out = {"count": len(pts), "segments": [len(s.points) for t in g.tracks for s in t.segments],
               "first": f(pts[0]) if pts else [], "last": f(pts[-1]) if pts else [],
               "length2d": g.length_2d(), "waypoints": len(g.waypoints)}
        if sys.argv[2:] == ["--points"]:
            built = gpxpy.gpx.GPX(); t = gpxpy.gpx.GPXTrack(); built.tracks.append(t)
            seg = None; last = None
            for lat, lon, s in json.load(sys.stdin):
                if s != last:
                    seg = gpxpy.gpx.GPXTrackSegment(); t.segments.append(seg); last = s
                seg.points.append(gpxpy.gpx.GPXTrackPoint(lat, lon))
            out["pointsLength2d"] = built.length_2d()
        print(json.dumps(out))
        """
        let r: (status: Int32, stdout: String, stderr: String)
        if let points {
            let rows = "[" + points.map { "[\($0.fix.latitude),\($0.fix.longitude),\($0.segment)]" }.joined(separator: ",") + "]"
            r = try SharedData.run(["python3", "-c", script, path, "--points"], stdin: Data(rows.utf8))
        } else {
            r = try SharedData.run(["python3", "-c", script, path])
        }
        guard r.status == 0 else { throw ToolFailure(message: "gpxpy failed: \(r.stderr)") }
        return try JSONDecoder().decode(GpxpySummary.self, from: Data(r.stdout.utf8))
    }

    /// `gpxpy(_:)` of a file in ../shared, read once per test process (the readers' and the
    /// writers' tests both compare with it).
    static func gpxpyShared(_ path: String) throws -> GpxpySummary {
        if let known = sharedGpxpy.withLock({ $0[path] }) { return known }
        let summary = try gpxpy(path)
        sharedGpxpy.withLock { $0[path] = summary }
        return summary
    }
    private static let sharedGpxpy = Mutex<[String: GpxpySummary]>([:])

    /// `xmllint --nonet --noout --schema SCHEMA FILE`: exit status and messages.
    static func xmllint(_ path: String, schema: String) throws -> (status: Int32, output: String) {
        let r = try SharedData.run(["xmllint", "--nonet", "--noout", "--schema", SharedData.url("schemas/" + schema).path, path])
        return (r.status, r.stdout + r.stderr)
    }

    struct ToolFailure: Error, CustomStringConvertible { var message: String; var description: String { message } }

    /// Great-circle distance on a sphere of the mean Earth radius (tests only; the real metrics
    /// are geodesic).
    static func haversine(_ a: Fix, _ b: Fix) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * r * asin(min(1, sqrt(h)))
    }

    /// A saved workout made of track points, with a summary filled from them (haversine
    /// distance within segments, one lap per given lap start).
    static func workout(_ points: [TrackPoint], activity: ActivityType, lapStarts: [Double] = [], events: [WorkoutEvent] = []) -> Workout {
        let accepted = points.filter(\.isAccepted)
        let start = accepted.first?.fix.time ?? 0
        let end = accepted.last?.fix.time ?? start
        var distance = 0.0
        for k in accepted.indices.dropFirst() where accepted[k].segment == accepted[k - 1].segment {
            distance += haversine(accepted[k - 1].fix, accepted[k].fix)
        }
        var laps: [LapSummary] = []
        for (k, s) in lapStarts.enumerated() {
            let e = k + 1 < lapStarts.count ? lapStarts[k + 1] : end
            let inLap = accepted.filter { $0.fix.time >= s && $0.fix.time < e || (k + 1 == lapStarts.count && $0.fix.time == e) }
            var d = 0.0
            for j in inLap.indices.dropFirst() where inLap[j].segment == inLap[j - 1].segment { d += haversine(inLap[j - 1].fix, inLap[j].fix) }
            let hrs = inLap.compactMap(\.fix.heartRate)
            laps.append(LapSummary(index: k, trigger: k + 1 == lapStarts.count ? .end : .manual, startTime: s, endTime: e,
                                   elapsedSeconds: e - s, movingSeconds: e - s, distanceMeters: d, maxSpeed: 5, calories: 12.4,
                                   averageHeartRate: hrs.isEmpty ? nil : hrs.reduce(0, +) / hrs.count, maxHeartRate: hrs.max()))
        }
        let summary = WorkoutSummary(id: WorkoutID(start: start, suffix: 0xbeef), activity: activity, startedAt: start, endedAt: end,
                                     elapsedSeconds: end - start, movingSeconds: end - start, distanceMeters: distance,
                                     pointCount: points.count, acceptedCount: accepted.count,
                                     averageSpeed: end > start ? distance / (end - start) : 0, maxSpeed: 10, calories: 321,
                                     laps: laps)
        return Workout(summary: summary, points: points, events: events, source: "imported:test")
    }
}

extension XMLTestSupport {
    /// The accepted points of every shared GPX and TCX file, read with our readers.
    static func sharedTrack(_ relative: String) throws -> (points: [TrackPoint], activity: ActivityType, lapStarts: [Double]) {
        let bytes = try bytes(relative)
        if relative.hasSuffix(".gpx") {
            let gpx = try GPXReader.read(bytes)
            let points = gpx.trackPoints
            // Three laps over the time range, to exercise lap splitting.
            let t0 = points.first!.fix.time, t1 = points.last!.fix.time
            return (points, gpx.activity ?? .cycling, [t0, t0 + (t1 - t0) / 3, t0 + 2 * (t1 - t0) / 3])
        }
        let activity = try TCXReader.read(bytes).activities[0]
        return (activity.trackPoints, activity.activity ?? .other, activity.laps.map(\.startTime))
    }

    /// A workout of the shared file's points with some rejected fixes mixed in (which no
    /// export may contain) and a lap and a marker event.
    static func sharedWorkout(_ relative: String) throws -> Workout {
        let (points, activity, lapStarts) = try sharedTrack(relative)
        var mixed: [TrackPoint] = []
        for (k, p) in points.enumerated() {
            mixed.append(p)
            if k % 50 == 2 {
                var bad = p.fix
                bad.latitude = 0; bad.longitude = 0; bad.time += 0.25
                mixed.append(TrackPoint(fix: bad, rejection: .nullIsland, segment: p.segment))
            }
        }
        let mid = points[points.count / 2].fix.time
        let events = [WorkoutEvent(kind: .lap, time: lapStarts.count > 1 ? lapStarts[1] : mid),
                      WorkoutEvent(kind: .marker, time: mid + 0.5, text: "Water & <snacks> \"here\"")]
        return workout(mixed, activity: activity, lapStarts: lapStarts, events: events)
    }

    /// Boundaries of segments in a list of points (indices where the segment changes).
    static func segmentBreaks(_ points: [TrackPoint]) -> [Int] {
        points.indices.dropFirst().filter { points[$0].segment != points[$0 - 1].segment }
    }

    /// A synthetic day-long 1 Hz workout (86,400 points) with elevation, heart rate and cadence.
    static func dayLongWorkout(seconds: Int = 86_400) -> Workout {
        let start = 1_790_000_000.0
        var points: [TrackPoint] = []
        points.reserveCapacity(seconds)
        for k in 0..<seconds {
            let t = Double(k)
            let f = Fix(time: start + t, latitude: 47.3 + 0.01 * sin(t / 900), longitude: 8.5 + 0.01 * cos(t / 900),
                        altitude: 400 + 30 * sin(t / 3000), speed: 3.1, hdop: 0.9, heartRate: 120 + k % 40, cadence: 80 + k % 10)
            points.append(TrackPoint(fix: f, rejection: k % 1000 == 999 ? .tooFast : nil, segment: k / 20_000))
        }
        return workout(points, activity: .running, lapStarts: stride(from: 0, to: seconds, by: 3600).map { start + Double($0) })
    }

    /// How many times `needle` occurs in the text `bytes`, without overlaps (strstr: a NUL byte in
    /// `bytes` ends the count there, so a count can only come out short). A day of points is tens
    /// of MB of XML; `String.components(separatedBy:)` spent most of those tests' 6 s of CPU.
    static func occurrences(of needle: String, in bytes: [UInt8]) -> Int {
        let text = bytes + [0]
        return text.withUnsafeBufferPointer { hay in
            needle.withCString { pattern in
                var from = UnsafeRawPointer(hay.baseAddress!).assumingMemoryBound(to: CChar.self)
                var count = 0
                let length = strlen(pattern)
                while let hit = strstr(from, pattern) { count += 1; from = UnsafePointer(hit) + length }
                return count
            }
        }
    }
}
