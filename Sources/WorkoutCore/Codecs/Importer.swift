/// Turns a GPX 1.0/1.1, TCX v2 or NMEA log file into a workout, computed by the same recorder
/// as a live one. The activity comes from the option, else from the file, else `.other`.
public enum Importer {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownFormat
        case file(String)
        case noPoints
        public var description: String {
            switch self {
            case .unknownFormat: return "not a GPX, TCX or NMEA file"
            case .file(let why): return why
            case .noPoints: return "no timed track points to import"
            }
        }
    }

    /// What was read from a file before it became a workout.
    public struct Track: Sendable {
        public var fixes: [Fix]
        /// The file's segment of each fix (GPX `trkseg`, TCX `Track`): a device's pause.
        public var segments: [Int]
        public var activity: ActivityType?
        /// GPX/TCX tracks were recorded by a device; an NMEA log is a receiver's raw output.
        public var origin: TrackOrigin

        public init(fixes: [Fix], segments: [Int]? = nil, activity: ActivityType?, origin: TrackOrigin) {
            self.fixes = fixes
            self.segments = segments ?? Array(repeating: 0, count: fixes.count)
            self.activity = activity
            self.origin = origin
        }
    }

    public static func read(_ bytes: [UInt8], fileName: String) throws(Failure) -> Track {
        let lower = fileName.lowercased()
        let head = String(decoding: bytes.prefix(512), as: UTF8.self)
        if lower.hasSuffix(".gpx") || head.contains("<gpx") {
            do {
                let g = try GPXReader.read(bytes)
                return Track(fixes: g.trackPoints.map(\.fix), segments: g.trackPoints.map(\.segment), activity: g.activity, origin: .device)
            } catch { throw .file(error.description) }
        }
        if lower.hasSuffix(".tcx") || head.contains("TrainingCenterDatabase") {
            do {
                let t = try TCXReader.read(bytes)
                var fixes: [Fix] = []
                var segments: [Int] = []
                for (k, a) in t.activities.enumerated() {
                    for p in a.trackPoints { fixes.append(p.fix); segments.append(k * 10_000 + p.segment) }
                }
                return Track(fixes: fixes, segments: segments, activity: t.activities.first?.activity, origin: .device)
            } catch { throw .file(error.description) }
        }
        if lower.hasSuffix(".nmea") || lower.hasSuffix(".log") || lower.hasSuffix(".txt") || head.contains("$G") || beginsWithNMEA(bytes) {
            var decoder = NMEADecoder()
            var fixes = decoder.feed(bytes)
            fixes += decoder.flush()
            // A .txt or .log that holds no NMEA at all is an unknown file, said as for any other
            // (not "no timed track points").
            if fixes.isEmpty && !head.contains("$G") && !beginsWithNMEA(bytes) { throw .unknownFormat }
            return Track(fixes: fixes.filter { $0.mode >= .twoD }, activity: nil, origin: .receiver)
        }
        throw .unknownFormat
    }

    /// The recorder's settings for a file a device already recorded: the device filtered its
    /// fixes and drew its line, so the import keeps that line: no second jitter filter, no
    /// warm-up, and a gap or a long step inside a segment is part of the track, not signal loss
    /// or a jump (docs/metrics.md). Quality gates (fix mode, (0,0), speed cap) still apply.
    public static func importSettings(_ settings: MetricsSettings) -> MetricsSettings {
        var s = settings
        s.stationaryRadius = 0
        s.warmUpCount = 1
        s.signalLostTimeout = 1e9
        s.jumpThreshold = 1e9
        return s
    }

    /// Builds the workout from the points with the live recorder's rules. A new file segment is
    /// the device's pause: it becomes a pause and a resume, so no distance bridges the gap.
    public static func workout(from track: Track, activity: ActivityType?, id suffix: UInt16, settings: MetricsSettings, source: String) throws(Failure) -> Workout {
        var order = Array(track.fixes.indices)
        if !zip(track.fixes, track.fixes.dropFirst()).allSatisfy({ $0.time <= $1.time }) {
            order.sort { track.fixes[$0].time < track.fixes[$1].time }
        }
        guard let firstIndex = order.first, let lastIndex = order.last else { throw .noPoints }
        let first = track.fixes[firstIndex], last = track.fixes[lastIndex]
        let kind = activity ?? track.activity ?? .other
        var recorder = WorkoutRecorder(id: WorkoutID(start: first.time, suffix: suffix), activity: kind, startedAt: first.time,
                                       settings: track.origin.settings(settings))
        var previous: (time: Double, segment: Int)?
        for i in order {
            let f = track.fixes[i]
            let seg = track.segments[i]
            if let p = previous, p.segment != seg, f.time > p.time {
                // Resume just before the fix: a fix stamped at the resume itself counts as late.
                recorder.pause(at: p.time, cause: .manual)
                recorder.resume(at: max(p.time, f.time - min(0.001, (f.time - p.time) / 2)))
            }
            _ = recorder.ingest(f)
            previous = (f.time, seg)
        }
        var w = recorder.finish(at: last.time)
        w.source = source
        return w
    }

    /// A workout that is the same recording as one already saved: same start (to the second)
    /// and the same number of points.
    public static func isDuplicate(_ w: WorkoutSummary, of existing: WorkoutSummary) -> Bool {
        abs(w.startedAt - existing.startedAt) < 1 && w.pointCount == existing.pointCount
    }
}
