// libFuzzer entry point for workoutd's decoders of untrusted input. Built by fuzz/run.sh together
// with every source file of Sources/WorkoutCore into ONE module (no `import WorkoutCore`, no
// @testable), with `swiftc -sanitize=fuzzer,address -parse-as-library`. One binary serves every
// target; the environment variable FUZZ_TARGET picks one:
//
//   nmea      NMEADecoder.feed/flush        (the NMEA TCP feed and the feed socket)
//   gpsd      GpsdReader.feed/flush         (gpsd's JSON stream)
//   control   ControlRequest.decode(line:)  (the control socket)
//   gpx       GPXReader.read                (import)
//   tcx       TCXReader.read                (import)
//   fit       FITActivityFile.read (with and without records: they agree) + Importer.readAll +
//             Importer.workout (import), FITWriter (export)
//   inflate   Inflate.inflate (raw deflate) and Gzip.decompress (the gzip framing), capped
//   hrm       HeartRateMeasurement.parse    (Bluetooth heart-rate strap notifications)
//   cpm       CyclingPowerMeasurement.parse (Bluetooth power meter notifications, 0x2A63)
//   csc       CSCMeasurement.parse          (Bluetooth speed/cadence sensor notifications, 0x2A5B)
//   rsc       RSCMeasurement.parse (footpod notifications, 0x2A53); and the input cut into a
//             stream of power, CSC and RSC notifications through SensorRates and SensorTrack
//   dbus      DBusMessageFramer + DBusMessage.decode (the system and session bus connections)
//   native    WorkoutFile.decode (saved workouts; export and edit load them): its fast path and
//             the general decoder give the same workout or the same error
//   http      HTTPRequestParser (the web pages' server) with WebRoute and WebAccess on each
//             request: the same requests whatever the split, never more buffered than the limits
//   web       the web pages' renderers (workout, live, history, records, calendar pages, route,
//             charts, terminal charts) on a workout built from the input: valid UTF-8 out, at
//             most LineChart.maxVertices per chart
//   feed      LineFramer + FeedSocketDecoder (the feed socket: JSON fix, HR, SIMULATION and
//             SEGMENT lines, NMEA sentences), split anywhere: the same fixes, readings, counts
//   journal   JournalRecord.decodeLine (restore after a crash); the input is a line's body, the
//             harness appends its CRC-32 (a mutated checksum would hide every body from it)
//   strava    StravaActivities.parse (activities.csv of a Strava export)
//   tzif      ZoneRules(tzif:) (/usr/share/zoneinfo files, for streak days)
//   logfmt    LogfmtParser.parse (workoutctl logs, notifications): a parsed line rendered again
//             parses to the same line
//   plan      PlanDecoder.decode (a .zwo or JSON plan) played through PlanMachine
//   fitplan   PlanDecoder.decode of a FIT workout file (the input is its data; the harness adds
//             header and CRC) played through PlanMachine
//   ftms      IndoorBikeData.parse and TrainerControl (a smart trainer's data and control point)
//   powercurves PowerCurveFile.decode (power-curves.bin, read at the first power-curve): what
//             decodes encodes to bytes that decode to the same entries
//   index     IndexRecord.parse (index.jsonl at start-up): pieces cut after newlines parse to
//             what the whole does; each record's line parses back to it; a line read straight
//             from its text (IndexRecord.written) is the record its tree gives
//
// Besides "does not crash" (ASan and Swift's own traps make any memory error, overflow or
// out-of-range index fatal), each target checks a property that a stream decoder must have:
// the stream decoders give the same fixes whatever the input is split into (a TCP read can
// end anywhere), and an accepted control request encodes to one that decodes (stable after one round).
// dbus: the framer gives the same messages whatever the split, and a decoded message re-encodes
// (same byte order) to bytes that decode to the same message and encode to the same bytes.
import Glibc

private enum Target: String { case nmea, gpsd, control, gpx, tcx, fit, inflate, dbus, hrm, cpm, csc, rsc, native, http, web, feed, journal, strava, tzif, logfmt, index, plan, fitplan, ftms, powercurves }

nonisolated(unsafe) private var target: Target = {
    guard let name = getenv("FUZZ_TARGET").map({ String(cString: $0) }), let t = Target(rawValue: name) else {
        fputs("FUZZ_TARGET must be one of nmea gpsd control gpx tcx fit inflate dbus hrm cpm csc rsc native http web feed journal strava tzif logfmt index plan fitplan ftms powercurves\n", stderr)
        exit(2)
    }
    return t
}()

/// Fails the run: libFuzzer records the input as a crash.
private func violated(_ what: String) -> Never {
    fputs("property violated: \(what)\n", stderr)
    abort()
}

/// The first byte picks where the rest is split in two (0 = not split), so the fuzzer explores
/// split points together with contents.
private func splitPoint(_ bytes: [UInt8]) -> (cut: Int, body: ArraySlice<UInt8>) {
    guard let first = bytes.first else { return (0, []) }
    let body = bytes.dropFirst()
    return (body.isEmpty ? 0 : Int(first) % (body.count + 1), body)
}

private func checkFix(_ f: Fix, _ source: String) {
    if !(f.latitude >= -90 && f.latitude <= 90) || !(f.longitude >= -180 && f.longitude <= 180) {
        violated("\(source) emitted a fix outside the globe: \(f.latitude), \(f.longitude)")
    }
    if !f.time.isFinite { violated("\(source) emitted a fix with time \(f.time)") }
}

private func nmea(_ bytes: [UInt8]) {
    let (cut, body) = splitPoint(bytes)
    let all = Array(body)
    var whole = NMEADecoder()
    var a = whole.feed(all)
    a += whole.flush()
    var split = NMEADecoder()
    var b = split.feed(Array(all[..<cut]))
    b += split.feed(Array(all[cut...]))
    b += split.flush()
    // String(describing:) so that a NaN field compares equal to itself.
    if "\(a)" != "\(b)" { violated("NMEA fixes depend on where the stream is split (cut \(cut)): \(a.count) vs \(b.count)") }
    for f in a { checkFix(f, "NMEADecoder") }
}

private func gpsd(_ bytes: [UInt8]) {
    let (cut, body) = splitPoint(bytes)
    let all = Array(body)
    var whole = GpsdReader()
    var a = whole.feed(all)
    a += whole.flush()
    var split = GpsdReader()
    var b = split.feed(Array(all[..<cut]))
    b += split.feed(Array(all[cut...]))
    b += split.flush()
    if "\(a)" != "\(b)" { violated("gpsd fixes depend on where the stream is split (cut \(cut)): \(a.count) vs \(b.count)") }
    for f in a { checkFix(f, "GpsdReader") }
}

private func decodeBytes(_ b: [UInt8]) -> Result<ControlRequest, ProtocolError> {
    b.withUnsafeBufferPointer { ControlRequest.decode(line: $0) }
}

/// An accepted request must encode to a request that decodes. Encoding normalises times to whole
/// seconds (`list` with `"to":"...T12:00:00.5Z"` comes back as 12:00:01; workoutctl sends the
/// user's own string, so this loses nothing in practice), so the exact check is that a second
/// encode/decode changes nothing.
private func control(_ bytes: [UInt8]) {
    guard case .success(let request) = decodeBytes(bytes) else { return }
    guard case .success(let r2) = decodeBytes(Array(request.encoded().serialized().utf8)) else {
        violated("an accepted control request does not decode after encoding: \(request)")
    }
    guard case .success(let r3) = decodeBytes(Array(r2.encoded().serialized().utf8)), r3 == r2 else {
        violated("control request not stable through encode/decode: \(request) -> \(r2)")
    }
}

private func gpx(_ bytes: [UInt8]) {
    guard let file = try? GPXReader.read(bytes) else { return }
    for p in file.trackPoints { _ = p }
    _ = file.pointCount
}

private func tcx(_ bytes: [UInt8]) {
    guard let file = try? TCXReader.read(bytes) else { return }
    _ = file
}

/// FIT: decode, split into tracks and build workouts; every fix is on the globe with a finite
/// time, and a file that decodes re-encodes (as our export) into a file that decodes again with
/// the same number of accepted points.
private func fit(_ bytes: [UInt8]) {
    // The import's lean read (no records) gives the fixes and heart rate of the full one's records.
    switch (Result { () throws(FITError) in try FITActivityFile.read(bytes) }, Result { () throws(FITError) in try FITActivityFile.read(bytes, keeping: .fixesOnly) }) {
    case (.success(let full), .success(let lean)):
        if lean.fixes != full.records.compactMap(\.fix) || lean.heartRateOnly.count + lean.fixes.count != full.records.count
            || lean.sessions != full.sessions || lean.laps != full.laps || lean.timerEvents != full.timerEvents {
            violated("FIT: the import's read differs from the full read")
        }
    case (.failure(let a), .failure(let b)): if a != b { violated("FIT: the two reads refuse differently: \(a) vs \(b)") }
    case (.success, .failure(let e)), (.failure(let e), .success): violated("FIT: one read refuses (\(e)), the other reads")
    }
    guard let tracks = try? Importer.readAll(bytes, fileName: "fuzz.fit") else { return }
    for t in tracks {
        for f in t.fixes { checkFix(f, "FIT") }
        guard let w = try? Importer.workout(from: t, activity: nil, id: 1, settings: MetricsSettings(), source: "") else { continue }
        let out = FITWriter.write(w)
        guard let back = try? FITActivityFile.read(out) else { violated("our FIT export of a fuzzed file does not decode") }
        // One record per accepted point; a workout without one has its indoor records (one per
        // second of sensor readings, or one per heart-rate sample with heart rate only).
        let expected = w.summary.acceptedCount > 0 ? w.summary.acceptedCount : w.indoorRecords.count
        if back.records.count != expected {
            violated("FIT export has \(back.records.count) records for \(w.summary.acceptedCount) accepted points, \(w.indoorRecords.count) indoor records")
        }
    }
}

/// Native workout files: `decode` (fast path first) and `decodeGeneral` agree on every input,
/// and a file that decodes re-encodes to bytes that decode to the same workout.
private func native(_ bytes: [UInt8]) {
    let fast = Result { () throws(WorkoutFile.DecodeError) -> Workout in try WorkoutFile.decode(bytes) }
    let general = Result { () throws(WorkoutFile.DecodeError) -> Workout in try WorkoutFile.decodeGeneral(bytes) }
    switch (fast, general) {
    case (.success(let a), .success(let b)):
        if a != b { violated("native: the fast and general decoders give different workouts") }
        guard let again = try? WorkoutFile.decode(WorkoutFile.encode(a)) else { violated("native: a decoded workout re-encodes to a file that does not decode") }
        if WorkoutFile.encode(again) != WorkoutFile.encode(a) { violated("native: re-encoding is not stable") }
    case (.failure(let a), .failure(let b)):
        if a != b { violated("native: different errors: \(a) vs \(b)") }
    case (.success, .failure(let e)): violated("native: the fast path decodes what the general decoder refuses (\(e))")
    case (.failure(let e), .success): violated("native: the fast path refuses what the general decoder decodes (\(e))")
    }
}

/// Inflate: raw deflate and gzip framing with a 1 MB cap; the output never exceeds the cap, and
/// what inflates once inflates the same again (no state leaks between calls).
private func inflate(_ bytes: [UInt8]) {
    var out: [UInt8] = []
    let r = try? bytes.withUnsafeBufferPointer { (b) throws(InflateError) -> Int in try Inflate.inflate(b, from: 0, into: &out, limit: 1 << 20) }
    if out.count > 1 << 20 { violated("inflate wrote \(out.count) bytes past its 1 MB cap") }
    if r != nil {
        var again: [UInt8] = []
        _ = try? bytes.withUnsafeBufferPointer { (b) throws(InflateError) -> Int in try Inflate.inflate(b, from: 0, into: &again, limit: 1 << 20) }
        if again != out { violated("inflate is not deterministic") }
    }
    if let g = try? Gzip.decompress(bytes, limit: 1 << 20), g.count > 1 << 20 { violated("gzip output past its cap") }
}

/// Frames `bytes` (cut in two at `cut`, or whole) and decodes every frame; stops at the first
/// framing error, as the connection does (it closes). Messages that do not decode are recorded
/// by their error, as the connection skips unknown types and closes on the rest.
private func dbusFrames(_ chunks: [ArraySlice<UInt8>]) -> [String] {
    var framer = DBusMessageFramer(maximumMessageLength: 1 << 20)
    var out: [String] = []
    for c in chunks {
        framer.append(c)
        while true {
            let frame: [UInt8]?
            do { frame = try framer.nextFrame() } catch { out.append("framing: \(error)"); return out }
            guard let frame else { break }
            do {
                let m = try DBusMessage.decode(frame)
                out.append("\(m)")
                checkReencode(m, endianness: frame[0] == 0x42 ? .big : .little)
            } catch {
                out.append("decode: \(error)")
            }
        }
    }
    return out
}

private func checkReencode(_ m: DBusMessage, endianness: DBusEndianness) {
    let again: [UInt8]
    do { again = try m.encoded(serial: m.serial, endianness: endianness) } catch {
        violated("a decoded D-Bus message does not encode: \(error): \(m)")
    }
    guard let m2 = try? DBusMessage.decode(again) else { violated("a re-encoded D-Bus message does not decode: \(m)") }
    if "\(m2)" != "\(m)" { violated("D-Bus message changed through encode/decode: \(m) -> \(m2)") }
    guard let third = try? m2.encoded(serial: m2.serial, endianness: endianness), third == again else {
        violated("D-Bus encoding not stable after one round: \(m)")
    }
}

private func dbus(_ bytes: [UInt8]) {
    let (cut, body) = splitPoint(bytes)
    let all = Array(body)
    let whole = dbusFrames([all[...]])
    let split = dbusFrames([all[..<cut], all[cut...]])
    if whole != split { violated("D-Bus messages depend on where the stream is split (cut \(cut)): \(whole.count) vs \(split.count)") }
}

/// A strap's notification: parsing never traps; an accepted value re-encodes to bytes that parse
/// to the same measurement, and its length is exactly what its flags account for (with the RR
/// flag every byte is used; without it, extra bytes are ignored).
private func hrm(_ bytes: [UInt8]) {
    guard let m = try? HeartRateMeasurement.parse(bytes) else { return }
    guard let again = try? HeartRateMeasurement.parse(m.encoded()), again == m else {
        violated("heart rate measurement not stable through encode/parse: \(bytes) -> \(m)")
    }
    let header = 1 + (m.sixteenBit ? 2 : 1) + (m.energyExpendedKilojoules == nil ? 0 : 2)
    if bytes[0] & 0x10 != 0 && header + 2 * m.rrIntervals1024.count != bytes.count {
        violated("RR intervals do not account for every byte: \(bytes)")
    }
    if m.bpm < 0 || m.bpm > 65535 { violated("bpm \(m.bpm) out of 16 bits") }
}

/// A power meter's notification: parsing never traps; an accepted value re-encodes to exactly
/// the bytes its flags account for (every flag bit is a field or a kept flag), which parse to the
/// same measurement; a cadence from two crank reports is finite and not negative.
private func cpm(_ bytes: [UInt8]) {
    guard let m = try? CyclingPowerMeasurement.parse(bytes) else { return }
    let e = m.encoded()
    guard e.count <= bytes.count, Array(bytes.prefix(e.count)) == e else {
        violated("cycling power measurement does not re-encode to its own bytes: \(bytes) -> \(e)")
    }
    guard let again = try? CyclingPowerMeasurement.parse(e), again == m else { violated("cycling power measurement not stable: \(bytes)") }
    if let c = m.crank, let w = m.wheel {
        let r = c.revolutionsPerMinute(since: RevolutionData(revolutions: w.revolutions, eventTime: w.eventTime, ticksPerSecond: 1024), counterBits: 16)
        if let r, !(r.isFinite && r >= 0) { violated("cadence \(r) from \(bytes)") }
    }
}

/// A speed/cadence sensor's notification: the same properties as `cpm`.
private func csc(_ bytes: [UInt8]) {
    guard let m = try? CSCMeasurement.parse(bytes) else { return }
    let e = m.encoded()
    guard e.count <= bytes.count, Array(bytes.prefix(e.count)) == e else {
        violated("CSC measurement does not re-encode to its own bytes: \(bytes) -> \(e)")
    }
    guard let again = try? CSCMeasurement.parse(e), again == m else { violated("CSC measurement not stable: \(bytes)") }
    if let w = m.wheel, let c = m.crank {
        let r = w.revolutionsPerMinute(since: c, counterBits: 32)
        if let r, !(r.isFinite && r >= 0) { violated("wheel rate \(r) from \(bytes)") }
    }
}

/// A footpod's notification: the same properties as `cpm`. Then the whole input as a stream of
/// notifications (each: a length byte, a service byte, the value; arriving 0.25 s apart) through
/// one device's `SensorRates` and a `SensorTrack`: every reading is finite and not negative, the
/// track's figures are finite, and replaying its samples gives the same figures.
private func rsc(_ bytes: [UInt8]) {
    if let m = try? RSCMeasurement.parse(bytes) {
        let e = m.encoded()
        guard e.count <= bytes.count, Array(bytes.prefix(e.count)) == e else {
            violated("RSC measurement does not re-encode to its own bytes: \(bytes) -> \(e)")
        }
        guard let again = try? RSCMeasurement.parse(e), again == m else { violated("RSC measurement not stable: \(bytes)") }
    }
    var rates = SensorRates(wheelCircumference: 2.105)
    var track = SensorTrack(ftp: 250)
    var i = 0, t = 1000.0
    while i + 2 <= bytes.count {
        let n = Int(bytes[i]) % 24, kind = bytes[i + 1] % 4
        let value = Array(bytes[(i + 2)..<min(bytes.count, i + 2 + n)])
        i += 2 + n
        t += 0.25
        let service: SensorService = [.cyclingPower, .cyclingSpeedCadence, .runningSpeedCadence, .heartRate][Int(kind)]
        if kind == 3 { track.gap(at: t, source: .csc); continue }
        guard let m = service.parse(value), let r = rates.reading(m, at: t), let source = service.source else { continue }
        for v in [r.power.map(Double.init), r.cadence, r.speed, r.distance] {
            if let v, !(v.isFinite && v >= 0) { violated("reading \(r) from \(bytes)") }
        }
        track.add(time: t, source: source, reading: r)
    }
    let a = track.finished(at: t + 1), b = SensorTrack.replay(track.samples, ftp: 250).finished(at: t + 1)
    guard a.work.isFinite, a.distance.isFinite, a.analysis.normalizedPower.map(\.isFinite) ?? true else { violated("figures not finite from \(bytes)") }
    guard a.work == b.work, a.distance == b.distance, a.analysis.normalizedPower == b.analysis.normalizedPower else {
        violated("replayed sensor samples give other figures: \(bytes)")
    }
}

/// HTTP requests: whatever the split, the same requests and the same refusal; the parser never
/// holds more than its limits; routing and access decisions take any request.
private func http(_ bytes: [UInt8]) {
    let (cut, body) = splitPoint(bytes)
    let limits = HTTPLimits(requestLineBytes: 256, headerBytes: 512, headerCount: 8, bodyBytes: 256)
    func run(_ chunks: [ArraySlice<UInt8>]) -> [String] {
        var p = HTTPRequestParser(limits: limits)
        var out: [String] = []
        for chunk in chunks {
            p.append(Array(chunk))
            loop: while true {
                switch p.next() {
                case .request(let r):
                    out.append("\(r.method.name) \(r.target) \(r.headers.count) \(r.body.count)")
                    _ = WebRoute(r)
                    _ = WebAccess(port: 8765, formToken: "f0k").decide(r) { $0 == "s3ss" }
                    _ = r.keepsAlive
                    let form = PercentEncoding.form(String(decoding: r.body, as: UTF8.self))
                    _ = WebAccess(port: 8765, formToken: "f0k").formTokenMatches(form)
                case .needMore: break loop
                case .failure(let e):
                    out.append("failure \(e.status.code)")
                    return out
                }
            }
            if p.pendingBytes > 256 + 512 + 256 + 2 { violated("parser holds \(p.pendingBytes) bytes") }
        }
        return out
    }
    let whole = run([body])
    let split = run([body.prefix(cut), body.dropFirst(cut)])
    if whole != split { violated("requests differ by split at \(cut): \(whole) vs \(split)") }
}

/// A workout built from the input (points, heart rate, events, laps) through every renderer.
private func web(_ bytes: [UInt8]) {
    var k = 0
    func next() -> UInt8 { defer { k += 1 }; return k < bytes.count ? bytes[k] : 0 }
    func next16() -> Int { Int(next()) << 8 | Int(next()) }
    let start = 1_790_000_000.0
    var points: [TrackPoint] = [], events: [WorkoutEvent] = [], hr: [HeartRateSample] = []
    var t = start, lat = 47.0, lon = 8.0, segment = 0
    while k + 8 <= bytes.count {
        let op = next()
        t += Double(next()) * (op & 1 == 0 ? 1 : 0.1)
        switch op % 8 {
        case 0, 1, 2, 3:
            lat += Double(Int8(bitPattern: next())) * 1e-5
            lon += Double(Int8(bitPattern: next())) * 1e-5
            let alt = next16()
            let extra = next()
            var f = Fix(time: t, latitude: op == 3 ? .nan : lat, longitude: lon, altitude: extra & 1 == 0 ? Double(alt) - 1000 : nil)
            if extra & 2 != 0 { f.heartRate = Int(next()) }
            if extra & 4 != 0 { f.power = next16() }
            if extra & 8 != 0 { f.cadence = Int(next()) }
            if extra & 16 != 0 { segment += 1 }
            if extra & 32 != 0 { f.speed = Double(next()) / 10 }
            let rejection: RejectionReason? = extra & 64 != 0 ? RejectionReason.allCases[Int(extra >> 4) % RejectionReason.allCases.count] : nil
            points.append(TrackPoint(fix: f, rejection: rejection, segment: segment))
        case 4:
            let kind = WorkoutEventKind.allCases[Int(next()) % WorkoutEventKind.allCases.count]
            events.append(WorkoutEvent(kind: kind, time: t - Double(next()), cause: PauseCause.allCases[Int(op >> 3) % PauseCause.allCases.count], text: next() & 1 == 0 ? "<b>&\"x'" : nil))
        case 5:
            let b = next()
            hr.append(HeartRateSample(time: t, bpm: b == 0 ? nil : Int(b)))
        default:
            t -= Double(next())  // out of order
        }
    }
    var s = WorkoutSummary(id: WorkoutID(start: start, suffix: 1), activity: ActivityType.allCases[Int(bytes.first ?? 0) % ActivityType.allCases.count],
                           startedAt: start, endedAt: t, elapsedSeconds: t - start, movingSeconds: (t - start) / 2,
                           distanceMeters: Double(bytes.count) * 10, elevationGainMeters: 12, pointCount: points.count)
    if (bytes.last ?? 0) & 1 == 0 { s.heartRateZoneBounds = [100, 120, 140, 160, 180]; s.heartRateZoneSeconds = [1, 2, 3, 4, 5, 6] }
    s.laps = [LapSummary(index: 0, trigger: .manual, startTime: start, endTime: start + 60, elapsedSeconds: 60, movingSeconds: 60, distanceMeters: 100),
              LapSummary(index: 1, trigger: .end, startTime: start + 60, endTime: t, elapsedSeconds: 60, movingSeconds: 60, distanceMeters: 100)]
    s.splits = s.laps
    s.bestEfforts = [BestEffort(distanceMeters: 1000, seconds: 300, startTime: start)]
    hr.sort { $0.time < $1.time }
    let w = Workout(summary: s, points: points, events: events, heartRate: HeartRateSeries(samples: hr))
    let c = WebPageContext(units: (bytes.count & 1 == 0) ? .metric : .imperial, calendar: StreakCalculator(zone: .utc), now: t, formToken: "tok", version: "fuzz")
    for view in [WorkoutView(), WorkoutView(x: .time, colouring: .heartRate)] {
        var report = WorkoutPage.Report()
        let page = WorkoutPage(workout: w, view: view).render(c, report: &report)
        if String(validating: page, as: UTF8.self) == nil { violated("workout page is not UTF-8") }
        for chart in report.charts where chart.vertices > LineChart.maxVertices { violated("\(chart.name) drew \(chart.vertices) vertices") }
    }
    let live = LiveSnapshot(state: "active", summary: s, points: points, events: events)
    _ = LivePage.render(live, c)
    _ = LivePage.event(live, c, wasRecording: false)
    _ = HistoryPage(summaries: [s, s], filter: HistoryFilter()).render(c)
    _ = RecordsPage(summaries: [s]).render(c)
    _ = CalendarPage(summaries: [s], year: nil, streaks: nil, habits: []).render(c)
    for chart in TerminalChart.charts(of: w, units: .metric, columns: 60) { _ = chart.lines(rows: 4) }
}

/// The feed socket as FeedHub runs it: 4 KiB lines framed, each decoded; everything the decoder
/// reports, in order, as text.
private func feedDecode(_ chunks: [ArraySlice<UInt8>]) -> [String] {
    var lines = LineFramer(maxLine: 4096)
    var d = FeedSocketDecoder()
    var out: [String] = []
    for c in chunks {
        _ = c.withUnsafeBytes { raw in
            lines.feed(raw) { item in
                switch item {
                case .line(let l):
                    let fixes = d.decode(line: l)
                    for f in fixes {
                        checkFix(f, "FeedSocketDecoder")
                        if l.first == UInt8(ascii: "{"), let field = FixBounds.violation(f) { violated("feed: a JSON fix with an implausible \(field) was accepted") }
                    }
                    out.append("\(fixes) \(d.takeHeartRates()) \(d.takeSegmentBreak())")
                case .tooLong: out.append("too long")
                }
                return true
            }
        }
    }
    out.append("\(d.rejected.sorted { $0.key < $1.key }) \(String(describing: d.replay)) \(String(describing: d.satellites))")
    return out
}

private func feed(_ bytes: [UInt8]) {
    let (cut, body) = splitPoint(bytes)
    let all = Array(body)
    let whole = feedDecode([all[...]])
    let split = feedDecode([all[..<cut], all[cut...]])
    if whole != split { violated("feed socket results depend on where the stream is split (cut \(cut))") }
}

/// A journal line's body with its checksum appended: a record that decodes re-encodes to a line
/// that decodes, and encoding is stable after that one round (times and values may be rounded once).
private func journal(_ bytes: [UInt8]) {
    let body = String(decoding: bytes, as: UTF8.self)
    let line = body + "*" + CRC32.hex(CRC32.checksum(body.utf8))
    guard let r = JournalRecord.decodeLine(Substring(line)) else { return }
    let again = r.encodeLine()
    guard again.hasSuffix("\n"), let r2 = JournalRecord.decodeLine(Substring(again.dropLast())) else {
        violated("journal: a decoded record's own line does not decode: \(r)")
    }
    if r2.encodeLine() != again, let r3 = JournalRecord.decodeLine(Substring(r2.encodeLine().dropLast())), r3.encodeLine() != r2.encodeLine() {
        violated("journal: encoding is not stable: \(r) -> \(r2) -> \(r3)")
    }
    if case .fix(let f) = r { checkFix(f, "JournalRecord") }
}

/// activities.csv: parsing never traps; every entry has a file name without `./`, and its
/// activity is the one its type maps to.
private func strava(_ bytes: [UInt8]) {
    guard let csv = try? StravaActivities.parse(bytes) else { return }
    for (file, e) in csv.byFile {
        if file.isEmpty || file.hasPrefix("./") { violated("strava: entry file name \"\(file)\"") }
        if e.activity != StravaActivities.activity(forStravaType: e.type) { violated("strava: activity of \(e.type) differs") }
    }
}

/// TZif: a file that reads answers sane offsets (within a day) and valid civil times everywhere
/// between 1900 and 2100, and the local time is the instant plus the offset in force.
private func tzif(_ bytes: [UInt8]) {
    guard let z = try? ZoneRules(tzif: bytes) else { return }
    var t = -2_208_988_800.0
    while t < 4_102_444_800 {
        let off = z.utcOffset(at: t)
        if abs(off) > 26 * 3600 { violated("tzif: offset \(off) s at \(t)") }
        if !z.civilTime(at: t).isValidDate() { violated("tzif: invalid civil time at \(t)") }
        if z.localSeconds(at: t) != t + Double(off) { violated("tzif: local seconds at \(t) are not the instant plus its offset") }
        t += 86_400 * 97.3
    }
}

/// A parsed log line rendered back (message and fields through `Logfmt`) parses to a line that
/// renders the same: what `workoutctl logs` shows survives a second round.
private func logfmtRender(_ l: LogfmtLine) -> String {
    ([Logfmt.message(l.message)] + l.fields.map { Logfmt.key($0.key) + "=" + Logfmt.value(.string($0.value)) }).joined(separator: " ")
}

private func logfmt(_ bytes: [UInt8]) {
    guard let l = LogfmtParser.parse(String(decoding: bytes, as: UTF8.self)) else { return }
    let once = logfmtRender(l)
    guard let l2 = LogfmtParser.parse(once) else { violated("logfmt: a parsed line rendered again does not parse: \(once)") }
    let twice = logfmtRender(l2)
    if twice != once { violated("logfmt: not stable through render/parse: \(once) -> \(twice)") }
}

/// index.jsonl: pieces cut after newlines (how start-up parses a large index on several threads)
/// give the records of one pass, and each record's own line parses back to one record with the
/// same line.
private func index(_ bytes: [UInt8]) {
    let whole = IndexRecord.parse(bytes[...])
    for count in 2...4 {
        let joined = IndexRecord.pieces(of: bytes, count: count).flatMap { IndexRecord.parse(bytes[$0]) }
        if joined != whole { violated("index: \(count) pieces parse to other records than one pass") }
    }
    for r in whole {
        let line = r.line
        let back = IndexRecord.parse(Array(line.utf8)[...])
        guard back.count == 1, back[0].line == line else { violated("index: a record's line does not parse back to it: \(line)") }
    }
    // A line read straight from its text (the written shape) is the record its tree gives.
    for line in bytes.split(separator: 10, omittingEmptySubsequences: false) {
        Array(line).withUnsafeBufferPointer { b in
            if let w = IndexRecord.written(b), IndexRecord.tree(b) != [w] { violated("index: a line read from its text differs from its tree") }
        }
    }
}

/// powercurves: power-curves.bin is read whole or not at all; what it reads writes back to
/// bytes that read to the same entries.
private func powercurves(_ bytes: [UInt8]) {
    guard let entries = PowerCurveFile.decode(bytes) else { return }
    let again = PowerCurveFile.encode(entries)
    // String(describing:) so that a NaN compares equal to itself.
    guard let back = PowerCurveFile.decode(again), "\(back)" == "\(entries)" else { violated("powercurves: decoded entries do not survive encode/decode") }
}

/// plan: a plan file (.zwo or JSON) is read or refused; a plan read keeps within its limits and
/// plays through the machine (ticks, presses, a pause) with every step begun in order, each
/// power asked within the plan's range.
private func plan(_ bytes: [UInt8]) {
    guard let p = try? PlanDecoder.decode(bytes, ftpWatts: 250) else { return }
    play(p)
}

/// fitplan: the input is the data of a FIT workout file (the harness adds the header and the
/// CRC, which a mutation would otherwise break at once): read or refused in words, a plan read
/// keeps within its limits and plays through the machine as `plan` does.
private func fitplan(_ bytes: [UInt8]) {
    var e = FITEncoder()
    e.appendRaw(bytes)
    guard let p = try? PlanDecoder.decode(e.file(), ftpWatts: 250, heartRateZones: HeartRateZones(maximum: 190), maxHeartRate: 190) else { return }
    play(p)
}

/// Plays a plan through the machine (ticks, presses, a pause): every step begun in order, each
/// power asked within the plan's range.
private func play(_ p: Plan) {
    if p.steps.isEmpty || p.steps.count > Plan.maxSteps { violated("plan: \(p.steps.count) steps") }
    var m = PlanMachine(plan: p)
    var begun = -1
    func take(_ actions: [PlanAction]) {
        for a in actions {
            switch a {
            case .stepStarted(let i): if i != begun + 1 { violated("plan: step \(i) after \(begun)") }; begun = i
            case .setPower(let w): if !(1...2_500).contains(w) { violated("plan: \(w) W asked") }
            case .releaseTrainer, .pauseTrainer, .prompt, .closeLap, .finished: break
            }
        }
    }
    take(m.start(at: 0, distance: 0))
    var t = 0.0
    for k in 0..<min(200, p.steps.count * 3) {
        t += 7
        take(k % 5 == 4 ? m.next(at: t, distance: t * 3) : m.tick(at: t, distance: t * 3))
        take(m.measured(heartRate: Double(k % 200), cadence: Double(k % 130), speed: Double(k % 9), at: t))
        if k == 10 { take(m.pause(at: t)); take(m.resume(at: t + 60, distance: t * 3)); t += 60 }
    }
    take(m.stop(at: t + 1))
}

/// ftms: Indoor Bike Data values parse or are refused and become finite readings; the control
/// point's answers, whatever they are, never make the machine write two requests at once.
private func ftms(_ bytes: [UInt8]) {
    let (cut, body) = splitPoint(bytes)
    var rates = SensorRates()
    if let d = try? IndoorBikeData.parse(body.prefix(cut)), let r = rates.reading(.fitnessMachine(d), at: 1) {
        for c in SensorChannel.allCases { if let v = r.value(c), !v.isFinite || v < 0 { violated("ftms: \(c) = \(v)") } }
    }
    var t = TrainerControl()
    var now = 0.0
    var inFlight = 0
    func take(_ actions: [TrainerAction]) {
        for a in actions { if case .write = a { inFlight += 1; if inFlight > 1 { violated("ftms: two writes without an answer") } } }
    }
    take(t.connected(now: now))
    for (i, b) in body.dropFirst(cut).enumerated() {
        now += 0.3
        switch b % 6 {
        case 0: take(t.want(.power(Int(b) * 3), now: now))
        case 1: take(t.want(.free, now: now))
        case 2: take(t.want(.paused, now: now))
        case 3: inFlight = 0; take(t.indicated([0x80, b & 0x0F, (b >> 4) % 6], now: now))
        case 4: inFlight = 0; take(t.tick(now: now + Double(i % 3)))
        default: inFlight = 0; take(t.disconnected(now: now)); take(t.connected(now: now))
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    switch target {
    case .nmea: nmea(bytes)
    case .gpsd: gpsd(bytes)
    case .control: control(bytes)
    case .gpx: gpx(bytes)
    case .tcx: tcx(bytes)
    case .fit: fit(bytes)
    case .inflate: inflate(bytes)
    case .dbus: dbus(bytes)
    case .hrm: hrm(bytes)
    case .native: native(bytes)
    case .cpm: cpm(bytes)
    case .csc: csc(bytes)
    case .rsc: rsc(bytes)
    case .http: http(bytes)
    case .web: web(bytes)
    case .feed: feed(bytes)
    case .journal: journal(bytes)
    case .strava: strava(bytes)
    case .tzif: tzif(bytes)
    case .logfmt: logfmt(bytes)
    case .index: index(bytes)
    case .plan: plan(bytes)
    case .fitplan: fitplan(bytes)
    case .ftms: ftms(bytes)
    case .powercurves: powercurves(bytes)
    }
    return 0
}
