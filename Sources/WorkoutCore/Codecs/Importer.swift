/// Turns a GPX 1.0/1.1, TCX v2, FIT activity or NMEA log file (any of them gzip-compressed)
/// into workouts, computed by the same recorder as a live one. The activity comes from the
/// option, else from the file, else `.other`.
///
/// The API the daemon calls (pure: bytes in, values out; no I/O, no clock):
/// - `readAll(bytes, fileName:)` -> `[ImportedTrack]`: every workout a file holds (a FIT
///   multisport file has one per session; every other file has one).
/// - `workout(from: track, activity:, id:, settings:, source:)` -> `Workout` for each.
/// - `isDuplicate(summary, of: existing)` against the saved ones.
/// - `read(bytes, fileName:)`: the first track only (kept for single-track callers).
public enum Importer {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownFormat
        case file(String)
        case noPoints
        /// A valid FIT file of another kind (monitoring, settings, ...), refused by name.
        case notActivity(file: String, type: String)
        public var description: String {
            switch self {
            case .unknownFormat: return "not a GPX, TCX, FIT or NMEA file"
            case .file(let why): return why
            case .noPoints: return "no timed track points to import"
            case .notActivity(let file, let type): return "\(file) is a FIT \(type) file, not an activity"
            }
        }
    }

    /// The formats a track can come from.
    public enum Format: String, Sendable, Equatable {
        case gpx = "GPX"
        case tcx = "TCX"
        case fit = "FIT"
        case nmea = "NMEA"
    }

    /// A time span (a device's timer stop -> start).
    public struct Span: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public init(start: Double, end: Double) { self.start = start; self.end = end }
    }

    /// What was read from a file before it became a workout.
    public struct Track: Sendable {
        public var fixes: [Fix]
        /// The file's segment of each fix (GPX `trkseg`, TCX `Track`): a device's pause.
        public var segments: [Int]
        public var activity: ActivityType?
        /// GPX/TCX/FIT tracks were recorded by a device; an NMEA log is a receiver's raw output.
        public var origin: TrackOrigin
        public var format: Format
        /// Start and end of the recording when the file states them (FIT session start_time and
        /// end); nil: the first and last fix.
        public var startTime: Double?
        public var endTime: Double?
        /// Spans when the device's timer was stopped (FIT timer events): paused in the workout.
        public var pauses: [Span]
        /// Where the file's laps end, except the last (TCX `Lap`, FIT `lap`): laps in the workout.
        public var lapEnds: [Double]
        /// Which part of its file the track is: "session 2 of 3 (cycling)" in a multisport file.
        public var label: String?
        /// What the user should know: "cut short at byte 768: kept the whole messages before it".
        public var notes: [String]
        /// Heart rate the file records without a position (FIT records, TCX trackpoints without
        /// one: indoor workouts); a nil bpm is a record without heart rate (a gap). Heart rate on
        /// the fixes stays on the fixes; `workout(from:)` reads both.
        public var heartRate: [HeartRateSample]
        /// The device's own distance over time (FIT record distances, a pool's lengths): the
        /// workout's distance is then the device's (`DistanceSource.device`), in time order.
        public var odometer: [OdometerReading] = []
        /// What the device said of the workout (FIT session totals, a pool swim's lengths).
        public var device: DeviceTotals?
        /// Which leg of a multisport file the track is (1-based) and of how many; nil: the file's only workout.
        public var leg: (number: Int, of: Int)?

        public init(fixes: [Fix], segments: [Int]? = nil, activity: ActivityType?, origin: TrackOrigin, format: Format = .gpx,
                    startTime: Double? = nil, endTime: Double? = nil, pauses: [Span] = [], lapEnds: [Double] = [],
                    label: String? = nil, notes: [String] = [], heartRate: [HeartRateSample] = []) {
            self.fixes = fixes
            self.heartRate = heartRate
            self.segments = segments ?? Array(repeating: 0, count: fixes.count)
            self.activity = activity
            self.origin = origin
            self.format = format
            self.startTime = startTime
            self.endTime = endTime
            self.pauses = pauses
            self.lapEnds = lapEnds
            self.label = label
            self.notes = notes
        }
    }

    /// The note on a track with heart rate and no position (an indoor workout).
    public static let heartRateOnlyNote = "heart rate only, no positions (indoor)"

    /// Largest file a gzip member may expand to (the daemon reads at most this much of a plain file).
    public static let maxDecompressedBytes = 512 << 20

    /// The first track of the file (see `readAll`): what single-track callers use.
    public static func read(_ bytes: [UInt8], fileName: String) throws(Failure) -> Track {
        let all = try readAll(bytes, fileName: fileName)
        return all[0]
    }

    /// Every workout in a file, never empty: a FIT multisport file gives one track per session
    /// (transitions dropped, docs/formats.md), a TCX file one per `<Activity>`, GPX and NMEA one.
    /// The format is recognised by content (FIT header, gzip magic, `<gpx`, `TrainingCenterDatabase`,
    /// `$G`) whatever the name says, else by extension. A gzip file (`.gz` or not) is inflated
    /// first, up to `maxDecompressedBytes`.
    public static func readAll(_ bytes: [UInt8], fileName: String, maxDecompressedBytes: Int = Importer.maxDecompressedBytes) throws(Failure) -> [Track] {
        var lower = fileName.lowercased()
        if Gzip.isGzip(bytes) {
            let inner: [UInt8]
            do { inner = try Gzip.decompress(bytes, limit: maxDecompressedBytes) } catch { throw .file(error.description) }
            if lower.hasSuffix(".gz") { lower.removeLast(3) }
            return try readPlain(inner, lower: lower, fileName: fileName)
        }
        return try readPlain(bytes, lower: lower, fileName: fileName)
    }

    private static func readPlain(_ bytes: [UInt8], lower: String, fileName: String) throws(Failure) -> [Track] {
        if FITMessageDecoder.looksLikeFIT(bytes) { return try readFIT(bytes, fileName: fileName) }
        let head = String(decoding: bytes.prefix(512), as: UTF8.self)
        if head.contains("<gpx") || (lower.hasSuffix(".gpx") && !head.contains("TrainingCenterDatabase")) {
            do {
                let g = try GPXReader.read(bytes)
                let points = g.trackPoints
                return [Track(fixes: points.map(\.fix), segments: points.map(\.segment), activity: g.activity,
                              origin: .device, format: .gpx, startTime: recordingStart(g.time, firstFix: points.first?.fix.time))]
            } catch { throw .file(error.description) }
        }
        if lower.hasSuffix(".tcx") || head.contains("TrainingCenterDatabase") {
            let t: TCXImport
            do { t = try TCXReader.read(bytes) } catch { throw .file(error.description) }
            var out: [Track] = []
            for (k, a) in t.activities.enumerated() {
                let points = a.trackPoints
                let heartOnly = a.heartRateWithoutPosition
                let indoor = points.isEmpty
                guard !points.isEmpty || heartOnly.contains(where: { $0.bpm != nil }) else { continue }
                // Without a track the workout spans the activity's laps (TCX has no pauses).
                out.append(Track(fixes: points.map(\.fix), segments: points.map(\.segment), activity: a.activity, origin: .device,
                                 format: .tcx, startTime: indoor ? a.startTime : recordingStart(a.startTime, firstFix: points.first?.fix.time),
                                 endTime: indoor ? a.lapsEnd : nil,
                                 lapEnds: a.laps.dropFirst().map(\.startTime),
                                 label: t.activities.count > 1 ? "activity \(k + 1) of \(t.activities.count)" : nil,
                                 notes: indoor ? [Importer.heartRateOnlyNote] : [], heartRate: heartOnly))
            }
            if out.isEmpty { throw .noPoints }
            return out
        }
        if lower.hasSuffix(".fit") { return try readFIT(bytes, fileName: fileName) }
        if lower.hasSuffix(".nmea") || lower.hasSuffix(".log") || lower.hasSuffix(".txt") || head.contains("$G") || beginsWithNMEA(bytes) {
            var decoder = NMEADecoder()
            // The 2D/3D fixes straight into one array sized for a 1 Hz log (no copy to filter).
            var fixes: [Fix] = []
            fixes.reserveCapacity(bytes.count / 140)
            var decoded = false
            bytes.withUnsafeBufferPointer { buf in
                decoder.feed(buf) { f in decoded = true; if f.fix.mode >= .twoD { fixes.append(f.fix) } }
            }
            decoder.flush { f in decoded = true; if f.fix.mode >= .twoD { fixes.append(f.fix) } }
            // A .txt or .log that holds no NMEA at all is an unknown file, said as for any other
            // (not "no timed track points").
            if !decoded && !head.contains("$G") && !beginsWithNMEA(bytes) { throw .unknownFormat }
            return [Track(fixes: fixes, activity: nil, origin: .receiver, format: .nmea)]
        }
        throw .unknownFormat
    }

    private static func readFIT(_ bytes: [UInt8], fileName: String) throws(Failure) -> [Track] {
        let file: FITActivityFile
        do { file = try FITActivityFile.read(bytes, keeping: .fixesOnly) } catch {
            if case .notActivity(let type) = error { throw .notActivity(file: baseName(fileName), type: type) }
            throw .file(error.description)
        }
        let tracks = file.tracks()
        if tracks.isEmpty {
            if file.recordCount > 0 { throw .file(FITError.noPositions(records: file.recordCount).description) }
            throw .noPoints
        }
        return tracks
    }

    /// A start stated by the file (GPX metadata time, TCX activity Id) when it can be the start
    /// of the recording: at most `statedStartLead` seconds before the first fix (a workout's
    /// export states its start, before a receiver's first trusted fix); else nil (the first fix).
    static func recordingStart(_ stated: Double?, firstFix: Double?) -> Double? {
        guard let stated, let firstFix, stated.isFinite, stated <= firstFix, firstFix - stated <= statedStartLead else { return nil }
        return stated
    }

    /// How long before the first fix a file's stated start may be (s).
    static let statedStartLead = 600.0

    private static func baseName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    /// The recorder's settings for a file a device already recorded: the device filtered its
    /// fixes and drew its line, so the import keeps that line: no second jitter filter, no
    /// warm-up, and a gap or a long step inside a segment is part of the track, not signal loss
    /// or a jump (docs/metrics.md). Quality gates (fix mode, (0,0)) still apply, and a speed cap
    /// against glitches: the highest of any activity (`SpeedLimit.anyActivity`), since a track
    /// faster than the activity named for it is still what happened (the import warns instead).
    public static func importSettings(_ settings: MetricsSettings) -> MetricsSettings {
        var s = settings
        s.speedLimit = .anyActivity
        s.stationaryRadius = 0
        s.warmUpCount = 1
        s.signalLostTimeout = 1e9
        s.jumpThreshold = 1e9
        return s
    }

    /// Builds the workout from the points with the live recorder's rules.
    /// - The workout starts at the file's start time (or the first fix) and ends at its end time
    ///   (or the last fix).
    /// - A new file segment is the device's pause: a pause and a resume, so no distance bridges
    ///   the gap. A span in `pauses` is paused too, except at the instants of fixes recorded
    ///   inside it (a device may log while its timer is stopped): the pause is split around them
    ///   so every fix is kept and elapsed time still leaves the stopped time out. These are
    ///   `.device` pauses: unlike a segment change, the distance from the last fix before the
    ///   stop to the first after it counts (the device moved meanwhile: the track is what happened).
    /// - `lapEnds` close laps, after the fixes stamped at or before them.
    /// - `lapEnds` close laps, after the fixes stamped at or before them.
    /// - Heart rate (on the fixes, and `heartRate` without a position) goes to the recorder as
    ///   a live strap's readings do, so zones and heart-rate calories are computed the same way
    ///   (docs/metrics.md); a fix's reading moves off the fix into the workout's heart-rate
    ///   series (exports put it back on the point). A fix or record without heart rate after
    ///   one with it is a gap. A track with heart rate and no fix is an indoor workout: it spans
    ///   the file's start and end (else its first and last reading), and a file's outdoor
    ///   activity becomes its indoor counterpart (`indoorCounterpart`).
    public static func workout(from track: Track, activity: ActivityType?, defaultActivity: ActivityType = .other, id suffix: UInt16,
                               settings: MetricsSettings, source: String) throws(Failure) -> Workout {
        try imported(from: track, activity: activity, defaultActivity: defaultActivity, id: suffix, settings: settings, source: source).workout
    }

    /// `workout(from:...)` with what the user should know about the file (`ImportedWorkout.warnings`):
    /// the track's own notes, times running backwards, a track far faster than its activity.
    /// The activity is `activity` (the request's), else the file's own, else `defaultActivity`
    /// (the configured `defaultActivity`).
    ///
    /// The fixes are taken in file order within each file segment, the segments in the order of
    /// their first times: a fix stamped before one already recorded is `out_of_order`, as live
    /// (never reordered into a path that was not travelled), and a warning says so.
    public static func imported(from track: Track, activity: ActivityType?, defaultActivity: ActivityType = .other, id suffix: UInt16,
                                settings: MetricsSettings, source: String) throws(Failure) -> ImportedWorkout {
        // Times out of sequence with the records around them (a device's bad timestamp), judged
        // in file order as the live path judges a receiver's: such fixes are kept as
        // `time_outlier`, such heart-rate records and distance readings are left out.
        let judge = ImportTimeJudge()
        let outliers = judge.outliers(track.fixes.map(\.time))
        let heartOutliers = judge.outliers(track.heartRate.map(\.time))
        let odometerOutliers = judge.outliers(track.odometer.map(\.time))
        let order = ImportOrder(track, outliers: outliers)
        // Heart-rate records without a position, by time (fed before the fixes stamped at or after them).
        let records = zip(track.heartRate, heartOutliers).filter { $0.0.time.isFinite && !$0.1 }.map(\.0).sorted { $0.time < $1.time }
        let readings = records.filter { $0.bpm != nil }
        let fixTimes = order.indices.lazy.filter { !outliers[$0] }.map { track.fixes[$0].time }
        let odometer = zip(track.odometer, odometerOutliers).filter { $0.0.time.isFinite && $0.0.meters.isFinite && !$0.1 }.map(\.0)
        // Without a fix or a heart-rate reading, a device's distance alone (a pool swim's
        // lengths, an indoor run's foot pod) spans the track, else the file's stated span (a
        // multisport leg with nothing recorded).
        guard let firstTime = fixTimes.min() ?? readings.first?.time ?? odometer.first?.time ?? track.startTime,
              let lastTime = fixTimes.max() ?? readings.last?.time ?? odometer.last?.time ?? track.endTime else { throw .noPoints }
        let start = min(track.startTime.flatMap { $0.isFinite ? $0 : nil } ?? firstTime, firstTime)
        let end = max(track.endTime.flatMap { $0.isFinite ? $0 : nil } ?? lastTime, lastTime)
        // A file's activity with no position at all was done indoors (the option is the user's word).
        let fromFile = order.indices.isEmpty ? track.activity.map { $0.indoorCounterpart ?? $0 } : track.activity
        let kind = activity ?? fromFile ?? defaultActivity
        var recorder = WorkoutRecorder(id: WorkoutID(start: start, suffix: suffix), activity: kind, startedAt: start,
                                       settings: track.origin.settings(settings))
        let pauses = track.pauses.filter { $0.end > $0.start && $0.end > start && $0.start < end }.sorted { $0.start < $1.start }
        let laps = track.lapEnds.filter { $0 > start && $0 < end }.sorted()
        var pi = 0, li = 0
        var previous: (time: Double, segment: Int?) = (start, nil)

        /// Closes laps ending before `t`, and pauses over the stopped time between the previous
        /// fix and `t` (or over the whole gap when the segment changes).
        func gap(to t: Double, newSegment: Bool, final: Bool) {
            while li < laps.count, laps[li] <= previous.time { recorder.lap(at: laps[li]); li += 1 }
            while pi < pauses.count, pauses[pi].end <= previous.time { pi += 1 }
            var paused = false
            var k = pi
            while k < pauses.count, pauses[k].start < t {
                let s = max(pauses[k].start, previous.time), e = min(pauses[k].end, t)
                k += 1
                guard e > s else { continue }
                if stop(at: s, resumeAt: e, before: t, final: final, cause: .device) { return }
                paused = true
            }
            if !paused, newSegment, t > previous.time, stop(at: previous.time, resumeAt: t, before: t, final: final, cause: .manual) { return }
            while li < laps.count, laps[li] < t { recorder.lap(at: laps[li]); li += 1 }
        }

        /// Pauses at `s` and resumes at `e` (just before `t` when `e` is `t`); returns true when
        /// the workout ends paused. A device's timer stop is a `.device` pause (the distance across
        /// it counts); a new file segment a `.manual` one (nothing bridges it).
        func stop(at s: Double, resumeAt e: Double, before t: Double, final: Bool, cause: PauseCause) -> Bool {
            while li < laps.count, laps[li] < t, laps[li] <= s { recorder.lap(at: laps[li]); li += 1 }
            recorder.pause(at: s, cause: cause)
            if final && e >= t { return true }  // still stopped at the end
            // Resume just before the fix: a fix stamped at the resume itself counts as late.
            let resume = e < t ? e : max(s, t - min(0.001, (t - s) / 2))
            while li < laps.count, laps[li] < resume { recorder.lap(at: laps[li]); li += 1 }
            recorder.resume(at: resume)
            return false
        }

        var ri = 0
        /// Feeds the heart-rate records stamped before `t` (or at it: a record goes before a fix).
        func feedRecords(through t: Double) {
            while ri < records.count, records[ri].time <= t {
                let r = records[ri]
                ri += 1
                guard r.time >= start else { continue }  // heart rate before the track's start
                if r.time > previous.time { gap(to: r.time, newSegment: false, final: false) }
                if let bpm = r.bpm, bpm > 0 { recorder.heartRate(time: r.time, bpm: bpm) } else { recorder.heartRateGap(at: r.time) }
                previous.time = max(previous.time, r.time)
            }
        }
        // The device's distance readings, by time (fed before the fix or record stamped at or after them).
        var oi = 0
        /// Feeds the odometer readings stamped at or before `t`, each after the pauses and laps before it.
        func feedOdometer(through t: Double) {
            while oi < odometer.count, odometer[oi].time <= t {
                let r = odometer[oi]
                oi += 1
                guard r.time >= start else { continue }
                if r.time > previous.time { gap(to: r.time, newSegment: false, final: false) }
                recorder.odometer(time: r.time, meters: r.meters, source: .device)
                previous.time = max(previous.time, r.time)
            }
        }
        if !odometer.isEmpty { recorder.reserveCapacity(odometerReadings: odometer.count, source: .device) }
        recorder.reserveCapacity(fixes: order.indices.count)
        var discarded = DiscardedRecorderEvents()  // what `ingest` reports, unused here
        // The track's speed check, step by step beside the recorder (its distances reused).
        var speedSteps = TrackSpeedCheck.Steps()
        for i in order.indices {
            var f = track.fixes[i]
            if outliers[i] { recorder.recordTimeOutlier(f); continue }
            let seg = track.segments[i]
            feedRecords(through: f.time)
            feedOdometer(through: f.time)
            if f.time > previous.time {
                let newSegment = previous.segment.map { $0 != seg } ?? false
                // Nothing to do in the gap (no segment change, no lap end or pause before the fix):
                // `gap` would close nothing and pass no pause (a pause starting at or after the
                // fix also ends after the previous time).
                if newSegment || (li < laps.count && laps[li] < f.time) || (pi < pauses.count && pauses[pi].start < f.time) {
                    gap(to: f.time, newSegment: newSegment, final: false)
                }
            }
            if let bpm = f.heartRate, bpm > 0 {
                if recorder.heartRate(time: f.time, bpm: bpm) == .recorded { f.heartRate = nil }
            } else {
                recorder.heartRateGap(at: f.time)
            }
            recorder.ingest(f, reportingTo: &discarded)
            speedSteps.add(f, segment: seg, known: recorder.lastMeasured)
            previous = (max(previous.time, f.time), seg)
        }
        feedRecords(through: end)
        feedOdometer(through: end)
        if end > previous.time { gap(to: end, newSegment: false, final: true) }
        var w = recorder.finish(at: end)
        w.source = source
        if let d = track.device {
            w.device = d
            w.summary.apply(d)
        }
        var warnings = track.notes
        // A FIT record is a fix or a heart-rate record, and may carry a reading too: readings
        // count only when they are all there is (a pool's lengths).
        var badTimes = zip(track.fixes, outliers).filter(\.1).map(\.0.time) + zip(track.heartRate, heartOutliers).filter(\.1).map(\.0.time)
        if badTimes.isEmpty { badTimes = zip(track.odometer, odometerOutliers).filter(\.1).map(\.0.time) }
        if !badTimes.isEmpty { warnings.append(ImportTimeJudge.warning(badTimes)) }
        if let backwards = order.backwardsWarning(outOfOrder: w.summary.rejectedByReason[.outOfOrder, default: 0]) { warnings.append(backwards) }
        if let fast = speedSteps.warning(activity: kind, distance: w.summary.distanceMeters) { warnings.append(fast) }
        return ImportedWorkout(workout: w, warnings: warnings)
    }

    /// A workout that is the same recording as one already saved: same start (to the second)
    /// and the same number of accepted points, or the points of one are the recorded track of the
    /// other (an export holds the track: accepted and stationary points, without the fixes
    /// rejected for quality; so an export's re-import is recognised, and so is the original
    /// imported after its export).
    public static func isDuplicate(_ w: WorkoutSummary, of existing: WorkoutSummary) -> Bool {
        guard abs(w.startedAt - existing.startedAt) < 1 else { return false }
        return w.acceptedCount == existing.acceptedCount || w.pointCount == trackPointCount(existing)
            || trackPointCount(w) == existing.pointCount
    }

    /// Points of the recorded track (what GPX, TCX and FIT exports hold): accepted fixes and
    /// stationary jitter (`RejectionReason.keepsPosition`).
    public static func trackPointCount(_ s: WorkoutSummary) -> Int {
        s.acceptedCount + RejectionReason.allCases.filter(\.keepsPosition).reduce(0) { $0 + s.rejectedByReason[$1, default: 0] }
    }
}


/// One workout read from a file (`Importer.readAll`).
public typealias ImportedTrack = Importer.Track
