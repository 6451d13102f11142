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
        public var activity: ActivityType?
    }

    public static func read(_ bytes: [UInt8], fileName: String) throws(Failure) -> Track {
        let lower = fileName.lowercased()
        let head = String(decoding: bytes.prefix(512), as: UTF8.self)
        if lower.hasSuffix(".gpx") || head.contains("<gpx") {
            do {
                let g = try GPXReader.read(bytes)
                return Track(fixes: g.trackPoints.map(\.fix), activity: g.activity)
            } catch { throw .file(error.description) }
        }
        if lower.hasSuffix(".tcx") || head.contains("TrainingCenterDatabase") {
            do {
                let t = try TCXReader.read(bytes)
                let fixes = t.activities.flatMap { $0.trackPoints.map(\.fix) }
                return Track(fixes: fixes, activity: t.activities.first?.activity)
            } catch { throw .file(error.description) }
        }
        if lower.hasSuffix(".nmea") || lower.hasSuffix(".log") || lower.hasSuffix(".txt") || head.contains("$G") {
            var decoder = NMEADecoder()
            var fixes = decoder.feed(bytes)
            fixes += decoder.flush()
            return Track(fixes: fixes.filter { $0.mode >= .twoD }, activity: nil)
        }
        throw .unknownFormat
    }

    /// Builds the workout from the points with the live recorder's rules.
    public static func workout(from track: Track, activity: ActivityType?, id suffix: UInt16, settings: MetricsSettings, source: String) throws(Failure) -> Workout {
        let fixes = track.fixes.sorted { $0.time < $1.time }
        guard let first = fixes.first, let last = fixes.last else { throw .noPoints }
        let kind = activity ?? track.activity ?? .other
        var recorder = WorkoutRecorder(id: WorkoutID(start: first.time, suffix: suffix), activity: kind, startedAt: first.time, settings: settings)
        for f in fixes { _ = recorder.ingest(f) }
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
