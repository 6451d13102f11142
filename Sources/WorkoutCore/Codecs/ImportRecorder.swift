/// One imported track's records through the recorder with the import's rules (docs/formats.md),
/// record by record: what `Importer.imported` does for a track read whole, and what the FIT
/// import does straight from the file (`FITImport`) without holding its records.
///
/// Heart-rate records and odometer readings go in before the fix stamped at or after them; the
/// track's pauses (a device's timer stops) and file segments pause the workout between the
/// records they fall between, its lap ends close laps there (`gap`).
struct ImportRecorder {
    private(set) var recorder: WorkoutRecorder
    let start: Double
    let end: Double
    let kind: ActivityType
    private let pauses: [Importer.Span]
    private let laps: [Double]
    private var pi = 0, li = 0
    private var previous: (time: Double, segment: Int?)
    private var discarded = DiscardedRecorderEvents()  // what `ingest` reports, unused here
    /// The track's speed check, step by step beside the recorder (its distances reused).
    private(set) var speedSteps = TrackSpeedCheck.Steps()

    init(id: WorkoutID, activity kind: ActivityType, start: Double, end: Double, settings: MetricsSettings,
         pauses: [Importer.Span], lapEnds: [Double]) {
        self.start = start
        self.end = end
        self.kind = kind
        recorder = WorkoutRecorder(id: id, activity: kind, startedAt: start, settings: settings)
        self.pauses = pauses.filter { $0.end > $0.start && $0.end > start && $0.start < end }.sorted { $0.start < $1.start }
        laps = lapEnds.filter { $0 > start && $0 < end }.sorted()
        previous = (start, nil)
    }

    mutating func reserveCapacity(fixes: Int, odometerReadings: Int, heartRateSamples: Int) {
        if odometerReadings > 0 { recorder.reserveCapacity(odometerReadings: odometerReadings, source: .device) }
        recorder.reserveCapacity(fixes: fixes)
        // Each pause (and the end) may add a gap to the samples: room for them too, or the
        // last one would double the array (and the memory of a long import).
        if heartRateSamples > 0 { recorder.reserveCapacity(heartRateSamples: heartRateSamples + 2 * pauses.count + 16) }
    }

    /// A heart-rate record without a position (a nil bpm is a gap).
    mutating func heartRecord(_ r: HeartRateSample) {
        guard r.time.isFinite, r.time >= start else { return }  // heart rate before the track's start
        if r.time > previous.time { gap(to: r.time, newSegment: false, final: false) }
        if let bpm = r.bpm, bpm > 0 { recorder.heartRate(time: r.time, bpm: bpm) } else { recorder.heartRateGap(at: r.time) }
        previous.time = max(previous.time, r.time)
    }

    /// A reading of the device's distance.
    mutating func reading(_ r: OdometerReading) {
        guard r.time.isFinite, r.meters.isFinite, r.time >= start else { return }
        if r.time > previous.time { gap(to: r.time, newSegment: false, final: false) }
        recorder.odometer(time: r.time, meters: r.meters, source: .device)
        previous.time = max(previous.time, r.time)
    }

    /// Power, cadence or speed the file records without a position (`SensorSource.file`).
    mutating func sensor(_ r: SensorSample) {
        guard r.time.isFinite, r.time >= start, let reading = r.reading else { return }
        if r.time > previous.time { gap(to: r.time, newSegment: false, final: false) }
        recorder.sensorReading(time: r.time, source: .file, reading: reading)
        previous.time = max(previous.time, r.time)
    }

    /// A fix of file segment `segment`; `known` may hold the geodesic from the fix before it
    /// (the importer's first pass measured it), reused by the fix filter when that is its pair.
    mutating func fix(_ fix: Fix, segment seg: Int, known: MeasuredPair = .none) {
        var f = fix
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
        recorder.ingest(f, reportingTo: &discarded, known: known)
        speedSteps.add(f, segment: seg, known: recorder.lastMeasured)
        previous = (max(previous.time, f.time), seg)
    }

    /// A fix whose time is an outlier (`ImportTimeJudge`): kept, counting nothing.
    mutating func timeOutlier(_ f: Fix) { recorder.recordTimeOutlier(f) }

    /// The workout, ended at `end` (still paused there if a timer stop runs to the end), with
    /// the device's totals applied.
    mutating func finish(source: String, device: DeviceTotals?) -> RecordedWorkout {
        if end > previous.time { gap(to: end, newSegment: false, final: true) }
        var w = recorder.finishRecording(at: end)
        w.source = source
        if let device {
            w.device = device
            w.summary.apply(device)
        }
        return w
    }

    /// Closes laps ending before `t`, and pauses over the stopped time between the previous
    /// fix and `t` (or over the whole gap when the segment changes).
    private mutating func gap(to t: Double, newSegment: Bool, final: Bool) {
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
    private mutating func stop(at s: Double, resumeAt e: Double, before t: Double, final: Bool, cause: PauseCause) -> Bool {
        while li < laps.count, laps[li] < t, laps[li] <= s { recorder.lap(at: laps[li]); li += 1 }
        recorder.pause(at: s, cause: cause)
        if final && e >= t { return true }  // still stopped at the end
        // Resume just before the fix: a fix stamped at the resume itself counts as late.
        let resume = e < t ? e : max(s, t - min(0.001, (t - s) / 2))
        while li < laps.count, laps[li] < resume { recorder.lap(at: laps[li]); li += 1 }
        recorder.resume(at: resume)
        return false
    }
}
