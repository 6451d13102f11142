/// Turns a GPX 1.0/1.1, TCX v2, FIT activity or NMEA log file (any of them gzip-compressed)
/// into workouts, computed by the same recorder as a live one. The activity comes from the
/// option, else from the file, else from the track's speeds (`ActivityInference`), else the
/// configured `defaultActivity`.
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
        /// The title and notes the file gives itself (GPX `name`/`desc`, TCX `Notes`), when they
        /// are a person's words (`WorkoutAnnotation.fromFile`).
        public var annotation = WorkoutAnnotation()
        /// The device's own distance over time (FIT record distances, a pool's lengths): the
        /// workout's distance is then the device's (`DistanceSource.device`), in time order.
        public var odometer: [OdometerReading] = []
        /// Power, cadence and speed the file records without a position (an indoor ride or run),
        /// as readings of `SensorSource.file`: recorded as a live sensor's are. Power and cadence
        /// on the fixes stay on the fixes.
        public var sensors: [SensorSample] = []
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
            let g: GPXImport
            do { g = try GPXReader.read(bytes) } catch { throw .file(error.description) }
            let points = g.trackPoints
            // Nothing left once the points that cannot be read are set aside: said with them.
            if points.isEmpty, !g.notes.isEmpty { throw .file(Failure.noPoints.description + ": " + g.notes.joined(separator: "; ")) }
            var track = Track(fixes: points.map(\.fix), segments: points.map(\.segment), activity: g.activity,
                              origin: .device, format: .gpx, startTime: recordingStart(g.time, firstFix: points.first?.fix.time),
                              notes: g.notes)
            track.annotation.title = WorkoutAnnotation.fromFile(g.name) ?? WorkoutAnnotation.fromFile(g.tracks.first?.name)
            track.annotation.notes = WorkoutAnnotation.fromFile(g.description) ?? WorkoutAnnotation.fromFile(g.tracks.first?.description)
            return [track]
        }
        if lower.hasSuffix(".tcx") || head.contains("TrainingCenterDatabase") {
            let t: TCXImport
            do { t = try TCXReader.read(bytes) } catch { throw .file(error.description) }
            var out: [Track] = []
            for (k, a) in t.activities.enumerated() {
                let points = a.trackPoints
                let heartOnly = a.heartRateWithoutPosition
                let sensors = a.sensorsWithoutPosition
                let indoor = points.isEmpty
                // The trackpoints' DistanceMeters is the device's distance (with a track too, whose
                // geodesic length is kept beside it), except over a track cut short of its laps.
                let cutShort = indoor ? nil : a.cutShortNote(points)
                let odometer = indoor ? a.distanceWithoutPosition : cutShort == nil ? a.deviceDistance : []
                guard !points.isEmpty || heartOnly.contains(where: { $0.bpm != nil }) || !sensors.isEmpty || !odometer.isEmpty else { continue }
                // Without a track the workout spans the activity's laps (TCX has no pauses).
                var track = Track(fixes: points.map(\.fix), segments: points.map(\.segment), activity: a.activity, origin: .device,
                                  format: .tcx, startTime: indoor ? a.startTime : recordingStart(a.startTime, firstFix: points.first?.fix.time),
                                  endTime: indoor ? a.lapsEnd : nil,
                                  lapEnds: a.laps.dropFirst().map(\.startTime),
                                  label: t.activities.count > 1 ? "activity \(k + 1) of \(t.activities.count)" : nil,
                                  notes: indoor ? (sensors.isEmpty && odometer.isEmpty ? [Importer.heartRateOnlyNote] : [])
                                      : (cutShort.map { [$0] } ?? []), heartRate: heartOnly)
                track.sensors = sensors
                track.odometer = odometer
                track.annotation.notes = WorkoutAnnotation.fromFile(a.notes)
                // A device that names itself (`<Creator>`: a Garmin, not an app's or workoutd's
                // own export) counted the calories of its laps: the workout's, `device`; not when
                // the track is cut short of the laps (their calories are the whole ride's).
                // Its laps' TotalTimeSeconds is its timer's time (`apply` takes it when it fits the track's span).
                let kcal = a.laps.reduce(0) { $0 + $1.calories }
                let timer = a.laps.reduce(0) { $0 + ($1.totalTimeSeconds.isFinite ? max(0, $1.totalTimeSeconds) : 0) }
                if a.creatorName != nil, kcal > 0 || timer > 0, cutShort == nil {
                    track.device = DeviceTotals(calories: kcal > 0 ? Double(kcal) : nil, timerSeconds: timer > 0 ? timer : nil)
                }
                out.append(track)
            }
            if out.isEmpty { throw .noPoints }
            return out
        }
        if lower.hasSuffix(".fit") { return try readFIT(bytes, fileName: fileName) }
        if lower.hasSuffix(".nmea") || lower.hasSuffix(".log") || lower.hasSuffix(".txt") || head.contains("$G") || beginsWithNMEA(bytes) {
            var decoder = NMEADecoder()
            // The 2D/3D fixes straight into one array (no copy to filter), sized for a log of
            // RMC alone (~70 bytes a fix): a 1 Hz log of RMC and GGA (~137 bytes a fix) sized at
            // 1/140 outgrew it and was copied whole (15 MB of a 24 h log); pages never written
            // are never touched.
            var fixes: [Fix] = []
            fixes.reserveCapacity(bytes.count / 64)
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

    /// The FIT file inside `bytes` when `bytes` are a gzip file whose content is FIT (the daemon
    /// imports it with `FITImport`); nil for anything else. Inflated up to `maxDecompressedBytes`.
    public static func fitInsideGzip(_ bytes: [UInt8], maxDecompressedBytes: Int = Importer.maxDecompressedBytes) throws(Failure) -> [UInt8]? {
        guard Gzip.isGzip(bytes) else { return nil }
        let inner: [UInt8]
        do { inner = try Gzip.decompress(bytes, limit: maxDecompressedBytes) } catch { throw .file(error.description) }
        return FITMessageDecoder.looksLikeFIT(inner) ? inner : nil
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
                               machine: MachineTag? = nil, settings: MetricsSettings, source: String) throws(Failure) -> Workout {
        try imported(from: track, activity: activity, defaultActivity: defaultActivity, id: suffix, machine: machine, settings: settings, source: source).workout
    }

    /// `workout(from:...)` with what the user should know about the file (`ImportedWorkout.warnings`):
    /// the track's own notes, times running backwards, a track far faster than its activity.
    /// The activity is `activity` (the request's), else the file's own, else the one its speeds
    /// suggest (`ActivityInference`, said in a warning), else `defaultActivity` (the configured
    /// `defaultActivity`, also said).
    ///
    /// The fixes are taken in file order within each file segment, the segments in the order of
    /// their first times: a fix stamped before one already recorded is `out_of_order`, as live
    /// (never reordered into a path that was not travelled), and a warning says so.
    /// `machine`: this machine's tag, which ends the ID (`WorkoutID.init(start:suffix:machine:)`).
    public static func imported(from track: Track, activity: ActivityType?, defaultActivity: ActivityType = .other, id suffix: UInt16,
                                machine: MachineTag? = nil, settings: MetricsSettings, source: String) throws(Failure) -> ImportedWorkout {
        // Times out of sequence with the records around them (a device's bad timestamp), judged
        // in file order as the live path judges a receiver's: such fixes are kept as
        // `time_outlier`, such heart-rate records and distance readings are left out.
        var track = track
        let silentPower = track.dropSilentPower()
        let judge = ImportTimeJudge()
        let outliers = judge.outliers(track.fixes.map(\.time))
        let heartOutliers = judge.outliers(track.heartRate.map(\.time))
        // Records whose times agree with none of the others (no consistent run): refused in words.
        let kept = zip(track.fixes, outliers).contains { !$1 && $0.time.isFinite } || zip(track.heartRate, heartOutliers).contains { !$1 && $0.time.isFinite }
        if !kept, outliers.filter({ $0 }).count + heartOutliers.filter({ $0 }).count >= judge.alone { throw .file(ImportTimeJudge.noConsistentRun) }
        let odometerOutliers = judge.outliers(track.odometer.map(\.time))
        let order = ImportOrder(track, outliers: outliers)
        // Heart-rate records without a position, by time (fed before the fixes stamped at or after them).
        let records = zip(track.heartRate, heartOutliers).filter { $0.0.time.isFinite && !$0.1 }.map(\.0).sorted { $0.time < $1.time }
        let readings = records.filter { $0.bpm != nil }
        // The earliest and latest fix time (`min()` and `max()`'s comparisons, NaN included) in
        // one pass reading each fix's time in place: two passes of a lazy filter and map over a
        // 24 h log's fixes cost 24 M instructions (a whole `Fix` copied per read).
        var fixSpan: (first: Double, last: Double)?
        for i in order.indices where !outliers[i] {
            let t = track.fixes[i].time
            if let s = fixSpan { fixSpan = (t < s.first ? t : s.first, s.last < t ? t : s.last) } else { fixSpan = (t, t) }
        }
        let odometer = zip(track.odometer, odometerOutliers).filter { $0.0.time.isFinite && $0.0.meters.isFinite && !$0.1 }.map(\.0)
        let sensorOutliers = judge.outliers(track.sensors.map(\.time))
        let sensorRecords = zip(track.sensors, sensorOutliers).filter { $0.0.time.isFinite && !$0.1 }.map(\.0).sorted { $0.time < $1.time }
        // Without a fix or a heart-rate reading, a device's distance alone (a pool swim's
        // lengths, an indoor run's foot pod) spans the track, else the file's stated span (a
        // multisport leg with nothing recorded). The workout ends at the last record of any
        // kind: a reading after the last fix or heart rate would otherwise be left out (an
        // indoor TCX whose last trackpoint, distance only, is stamped 1 ms past its lap's
        // rounded end lost its last 4-8 m).
        let lastOfEach = [fixSpan?.last, readings.last?.time, odometer.last?.time, sensorRecords.last?.time].compactMap { $0 }
        guard let firstTime = fixSpan?.first ?? readings.first?.time ?? odometer.first?.time ?? sensorRecords.first?.time ?? track.startTime,
              let lastTime = lastOfEach.max() ?? track.endTime
        else { throw .noPoints }
        let start = min(track.startTime.flatMap { $0.isFinite ? $0 : nil } ?? firstTime, firstTime)
        let end = max(track.endTime.flatMap { $0.isFinite ? $0 : nil } ?? lastTime, lastTime)
        // A file's activity with no position at all was done indoors (the option is the user's word).
        let fromFile = order.indices.isEmpty ? track.activity.map { $0.indoorCounterpart ?? $0 } : track.activity
        // A file that names no activity: judged from its speeds, else the configured default.
        var inference: (guess: ActivityInference?, asked: Bool) = (nil, false)
        // The geodesic the inference measured from each fix (in order) to the one before, NaN
        // for none: the recorder's fix filter measures the same pair whenever the fix before was
        // accepted, and takes it from here (one geodesic a fix instead of two).
        var stepMeters: [Double] = []
        if activity == nil && fromFile == nil && !order.indices.isEmpty {
            var steps = ActivityInference.Steps()
            stepMeters.reserveCapacity(order.indices.count)
            for i in order.indices {
                steps.add(track.fixes[i], segment: track.segments[i])
                stepMeters.append(steps.lastStep ?? .nan)
            }
            inference = (steps.guess, true)
        }
        let kind = activity ?? fromFile ?? inference.guess?.activity ?? defaultActivity
        var r = ImportRecorder(id: WorkoutID(start: start, suffix: suffix, machine: machine), activity: kind, start: start, end: end,
                               settings: track.origin.settings(settings), pauses: track.pauses, lapEnds: track.lapEnds)
        var fixHeartRates = 0  // read in place (a `reduce` copied every fix into its closure)
        for k in track.fixes.indices where track.fixes[k].heartRate != nil { fixHeartRates += 1 }
        r.reserveCapacity(fixes: order.indices.count, odometerReadings: odometer.count, heartRateSamples: records.count + fixHeartRates)
        var ri = 0, oi = 0, si = 0
        /// The heart-rate records, readings and sensor records stamped at or before `t` (a
        /// record goes before a fix), by time: a reading before a record stamped at the same
        /// time, as a FIT record's distance goes before its heart rate (`FITImport` feeds them in
        /// that order), and a record's power and cadence after both.
        func feed(through t: Double) {
            while true {
                let record = ri < records.count && records[ri].time <= t ? records[ri].time : nil
                let reading = oi < odometer.count && odometer[oi].time <= t ? odometer[oi].time : nil
                let sensor = si < sensorRecords.count && sensorRecords[si].time <= t ? sensorRecords[si].time : nil
                if let reading, reading <= record ?? .infinity, reading <= sensor ?? .infinity {
                    r.reading(odometer[oi]); oi += 1
                } else if let record, record <= sensor ?? .infinity {
                    r.heartRecord(records[ri]); ri += 1
                } else if sensor != nil {
                    r.sensor(sensorRecords[si]); si += 1
                } else {
                    return
                }
            }
        }
        for (k, i) in order.indices.enumerated() {
            let f = track.fixes[i]
            if outliers[i] { r.timeOutlier(f); continue }
            feed(through: f.time)
            var known = MeasuredPair.none
            if k > 0, k < stepMeters.count, !stepMeters[k].isNaN {
                let b = order.indices[k - 1]
                known = MeasuredPair(latitude1: track.fixes[b].latitude, longitude1: track.fixes[b].longitude,
                                     latitude2: f.latitude, longitude2: f.longitude, meters: stepMeters[k])
            }
            r.fix(f, segment: track.segments[i], known: known)
        }
        feed(through: end)
        var w = r.finish(source: source, device: track.device)
        w.summary.annotation = track.annotation
        var warnings = track.notes
        if silentPower { warnings.append(Importer.silentPowerWarning) }
        if inference.asked {
            warnings.append(ActivityInference.warning(inference.guess, kind: kind))
        }
        // A FIT record is a fix or a heart-rate record, and may carry a reading too: readings
        // count only when they are all there is (a pool's lengths).
        var badTimes = zip(track.fixes, outliers).filter(\.1).map(\.0.time) + zip(track.heartRate, heartOutliers).filter(\.1).map(\.0.time)
        if badTimes.isEmpty { badTimes = zip(track.odometer, odometerOutliers).filter(\.1).map(\.0.time) }
        if !badTimes.isEmpty { warnings.append(ImportTimeJudge.warning(badTimes)) }
        if let backwards = order.backwardsWarning(outOfOrder: w.summary.rejectedByReason[.outOfOrder, default: 0]) { warnings.append(backwards) }
        if let fast = r.speedSteps.warning(activity: kind, distance: w.summary.distanceMeters) { warnings.append(fast) }
        return ImportedWorkout(recorded: w, warnings: warnings, leg: track.leg)
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
