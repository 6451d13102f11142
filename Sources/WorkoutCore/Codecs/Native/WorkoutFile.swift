/// The native saved-workout file (`<id>.json` under `$XDG_DATA_HOME/workoutd/workouts/`): one
/// JSON object with the summary, events, and every point, rejected ones with their reason.
/// Points are compact arrays `[time, lat, lon, alt, speed, course, mode, hAcc, sats, hdop, hr,
/// cad, segment, rejection, quality?, power?, temperature?]` (null where unknown) so a 24-hour
/// workout saves fast. Heart rate recorded beside the fixes follows as
/// `"heartRate":{"samples":[[time, bpm or null (a gap)], ...], "rr":[[time, interval in 1/1024 s], ...]}`
/// (absent when there is none). Power, speed/cadence and footpod readings follow as
/// `"sensors":[[time, source, watts, cadence, m/s, metres], ...]` (null where the reading has
/// none; `[time, source]` starts the source's gap; absent when there are none), a device's
/// distance readings as `"odometer":{"source":"device"|"sensor","readings":[[time, metres], ...]}`
/// (absent for a GPS workout), and what the recording device said as `"device":{...}`
/// (`DeviceTotals`, absent when nothing).
public enum WorkoutFile {
    public static let format = "workoutd-workout/1"

    public enum DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
        case notJSON(String)
        case wrongFormat(String)
        case badSummary
        case badPoint(Int)
        public var description: String {
            switch self {
            case .notJSON(let why): return "not a workout file: \(why)"
            case .wrongFormat(let f): return "unknown workout file format '\(f)'"
            case .badSummary: return "the summary is missing or damaged"
            case .badPoint(let i): return "point \(i) is damaged"
            }
        }
    }

    /// Encodes a workout into the bytes of its file. Points are written as bytes straight into
    /// the output (a 24-hour workout has 86,400 of them). `revision`: when and where the file is
    /// written (`Revision`), right after `format`; without it the bytes are those of files
    /// written before revisions existed.
    public static func encode(_ w: Workout, revision: Revision? = nil) -> [UInt8] {
        encode(source: w.source, summary: w.summary, events: w.events, points: w.points, heartRate: w.heartRate, sensors: w.sensors,
               odometer: w.odometer, device: w.device, revision: revision)
    }

    /// The same bytes for a workout whose points are still in the recorder's store.
    public static func encode(_ w: RecordedWorkout, revision: Revision? = nil) -> [UInt8] {
        encode(source: w.source, summary: w.summary, events: w.events, points: w.points, heartRate: w.heartRate, sensors: w.sensors,
               odometer: w.odometer, device: w.device, revision: revision)
    }

    /// The same bytes handed to `drain` a chunk (about `chunk` bytes) at a time, so that a long
    /// workout is written without its whole file in memory: `drain` takes the bytes and leaves
    /// the array empty (or not: what it leaves is handed again with the next chunk).
    public static func encode(_ w: RecordedWorkout, revision: Revision? = nil, chunk: Int = 1 << 20, drain: (inout [UInt8]) -> Void) {
        withoutActuallyEscaping(drain) { drain in
            var out = encode(source: w.source, summary: w.summary, events: w.events, points: w.points, heartRate: w.heartRate,
                             sensors: w.sensors, odometer: w.odometer, device: w.device, revision: revision, chunk: chunk, drain: drain)
            drain(&out)
        }
    }

    static func encode<P: Collection<TrackPoint>>(source: String, summary: WorkoutSummary, events: [WorkoutEvent], points: P,
                                                  heartRate: HeartRateSeries = HeartRateSeries(), sensors: [SensorSample] = [],
                                                  odometer: OdometerSeries = OdometerSeries(), device: DeviceTotals? = nil,
                                                  revision: Revision? = nil, chunk: Int? = nil, drain: ((inout [UInt8]) -> Void)? = nil) -> [UInt8] {
        // The head straight to bytes (the text of the `JSON` trees `summary.json()` and
        // `json()` of the events, serialized: SummaryJSONCacheTests, WorkoutFileEncodeTests).
        var head = JSONWriter(capacity: 4096 + 320 * (summary.splits.count + summary.laps.count + events.count))
        head.raw("{\"format\":\"")
        head.bytes.append(contentsOf: format.utf8)
        head.raw("\"")
        if let revision {
            head.raw(",\"revision\":")
            revision.writeJSON(to: &head)
        }
        head.raw(",\"source\":")
        head.string(source)
        head.raw(",\"summary\":")
        var cache = SummaryJSONCache()
        summary.writeJSON(to: &head, cache: &cache)
        head.raw(",\"events\":[")
        for (k, e) in events.enumerated() {
            if k > 0 { head.raw(",") }
            e.writeJSON(to: &head)
        }
        head.raw("],\"points\":[")
        var out: [UInt8] = []
        let whole = head.bytes.count + 16 + points.count * 130 + heartRate.samples.count * 20 + heartRate.rrIntervals.count * 22
        out.reserveCapacity(chunk.map { min($0 + (1 << 16), whole) } ?? whole)
        out.append(contentsOf: head.bytes)
        // The points are formed in a scratch buffer (see `ByteWriter`) and appended to `out`
        // in batches of up to 64 KiB: one room check per point, one array append per batch.
        ByteWriter.batched(to: &out) { w, out in
            var first = true
            for p in points {
                w.flush(before: maxPointBytes, to: &out)
                if let chunk, let drain, out.count >= chunk { drain(&out) }
                w.piece(maxPointBytes) { c in
                    if !first { c.byte(UInt8(ascii: ",")); c.byte(10) }
                    writePoint(p, &c)
                }
                first = false
            }
        }
        out.append(UInt8(ascii: "]"))
        if !heartRate.isEmpty { writeHeartRate(heartRate, to: &out, chunk: chunk, drain: drain) }
        if !sensors.isEmpty { writeSensors(sensors, to: &out, chunk: chunk, drain: drain) }
        if !odometer.isEmpty { writeOdometer(odometer, to: &out, chunk: chunk, drain: drain) }
        if let device {
            out.append(contentsOf: #","device":"#.utf8)
            out.append(contentsOf: device.json().serialized().utf8)
        }
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// `,"sensors":[[t,"power",w,cad,v,d],[t,"csc"],...]`
    static func writeSensors(_ samples: [SensorSample], to out: inout [UInt8], chunk: Int? = nil, drain: ((inout [UInt8]) -> Void)? = nil) {
        out.append(contentsOf: #","sensors":["#.utf8)
        // One entry: brackets, commas, a time and three numbers (32 bytes each), a source name.
        let entry = 180
        ByteWriter.batched(to: &out) { w, out in
            for (k, s) in samples.enumerated() {
                w.flush(before: entry, to: &out)
                if let chunk, let drain, out.count >= chunk { drain(&out) }
                w.piece(entry) { c in
                    if k > 0 { c.byte(UInt8(ascii: ",")); c.byte(10) }
                    c.byte(UInt8(ascii: "["))
                    c.fixed(s.time, decimals: 3)
                    c.byte(UInt8(ascii: ","))
                    c.quoted(s.source.rawValue)
                    if let r = s.reading {
                        c.byte(UInt8(ascii: ",")); optInt(r.power, &c)
                        c.byte(UInt8(ascii: ",")); opt(r.cadence, 2, &c)
                        c.byte(UInt8(ascii: ",")); opt(r.speed, 3, &c)
                        c.byte(UInt8(ascii: ",")); opt(r.distance, 3, &c)
                    }
                    c.byte(UInt8(ascii: "]"))
                }
            }
        }
        out.append(UInt8(ascii: "]"))
    }

    /// The `sensors` array of a file; damaged entries are skipped (a reading is never invented).
    static func decodeSensors(_ j: JSON?) -> [SensorSample] {
        var out: [SensorSample] = []
        for e in j?.arrayValue ?? [] {
            guard let a = e.arrayValue, a.count == 2 || a.count == 6, let t = a[0].doubleValue,
                  let source = a[1].stringValue.flatMap(SensorSource.init(rawValue:)) else { continue }
            if a.count == 2 { out.append(SensorSample(time: t, source: source, reading: nil)); continue }
            let r = SensorReading(power: a[2].intValue, cadence: a[3].doubleValue, speed: a[4].doubleValue, distance: a[5].doubleValue)
            if !r.isEmpty { out.append(SensorSample(time: t, source: source, reading: r)) }
        }
        return out
    }

    /// `,"heartRate":{"samples":[[t,bpm],...],"rr":[[t,v],...]}`
    static func writeHeartRate(_ h: HeartRateSeries, to out: inout [UInt8], chunk: Int? = nil, drain: ((inout [UInt8]) -> Void)? = nil) {
        out.append(contentsOf: #","heartRate":{"samples":["#.utf8)
        // One entry: brackets, a comma, a time (32 bytes) and a number (32 bytes).
        let entry = 80
        ByteWriter.batched(to: &out) { w, out in
            /// `[time,value]` entries, comma-separated.
            func entries(_ n: Int, time: (Int) -> Double, value: (Int, inout ByteCursor) -> Void) {
                for k in 0..<n {
                    w.flush(before: entry, to: &out)
                    if let chunk, let drain, out.count >= chunk { drain(&out) }
                    w.piece(entry) { c in
                        if k > 0 { c.byte(UInt8(ascii: ",")) }
                        c.byte(UInt8(ascii: "["))
                        c.fixed(time(k), decimals: 3)
                        c.byte(UInt8(ascii: ","))
                        value(k, &c)
                        c.byte(UInt8(ascii: "]"))
                    }
                }
            }
            entries(h.samples.count, time: { h.samples[$0].time }, value: { optInt(h.samples[$0].bpm, &$1) })
            w.flush(before: 16, to: &out)
            w.literal(#"],"rr":["#)
            entries(h.rrIntervals.count, time: { h.rrIntervals[$0].time }, value: { $1.int(Int(h.rrIntervals[$0].interval1024)) })
        }
        out.append(contentsOf: "]}".utf8)
    }

    /// `,"odometer":{"source":"device","readings":[[t,metres],...]}` (metres with 3 decimals).
    static func writeOdometer(_ o: OdometerSeries, to out: inout [UInt8], chunk: Int? = nil, drain: ((inout [UInt8]) -> Void)? = nil) {
        out.append(contentsOf: #","odometer":{"source":"#.utf8)
        out.append(contentsOf: "\"\(o.source.rawValue)\"".utf8)
        out.append(contentsOf: #","readings":["#.utf8)
        let entry = 80
        ByteWriter.batched(to: &out) { w, out in
            for (k, r) in o.readings.enumerated() {
                w.flush(before: entry, to: &out)
                if let chunk, let drain, out.count >= chunk { drain(&out) }
                w.piece(entry) { c in
                    if k > 0 { c.byte(UInt8(ascii: ",")) }
                    c.byte(UInt8(ascii: "["))
                    c.fixed(r.time, decimals: 3)
                    c.byte(UInt8(ascii: ","))
                    c.fixed(r.meters, decimals: 3)
                    c.byte(UInt8(ascii: "]"))
                }
            }
        }
        out.append(contentsOf: "]}".utf8)
    }

    /// The `odometer` object of a file; damaged readings are skipped (never invented).
    static func decodeOdometer(_ j: JSON?) -> OdometerSeries {
        guard let j, let source = j["source"]?.stringValue.flatMap(DistanceSource.init(rawValue:)) else { return OdometerSeries() }
        var o = OdometerSeries(source: source)
        for r in j["readings"]?.arrayValue ?? [] {
            guard let a = r.arrayValue, a.count == 2, let t = a[0].doubleValue, let m = a[1].doubleValue else { continue }
            o.readings.append(OdometerReading(time: t, meters: m))
        }
        return o
    }

    /// The `heartRate` object of a file; damaged entries are skipped (a sample is never invented).
    static func decodeHeartRate(_ j: JSON?) -> HeartRateSeries {
        guard let j else { return HeartRateSeries() }
        var h = HeartRateSeries()
        for s in j["samples"]?.arrayValue ?? [] {
            guard let a = s.arrayValue, a.count == 2, let t = a[0].doubleValue else { continue }
            let bpm = a[1].intValue
            if a[1] != .null && bpm == nil { continue }
            h.samples.append(HeartRateSample(time: t, bpm: bpm))
        }
        for r in j["rr"]?.arrayValue ?? [] {
            guard let a = r.arrayValue, a.count == 2, let t = a[0].doubleValue, let v = a[1].intValue, (0...65535).contains(v) else { continue }
            h.rrIntervals.append(RRInterval(time: t, interval1024: UInt16(v)))
        }
        return h
    }

    /// One point: `[time, lat, lon, alt, speed, course, mode, hAcc, sats, hdop, hr, cad, segment,
    /// rejection, quality?, power?, temperature?]` (also the `p` of a journal fix record). The
    /// optional tail is written only as far as needed (quality `null` when power or temperature
    /// follow), so points without them are byte for byte what older versions wrote.
    static func writePoint(_ p: TrackPoint, to out: inout [UInt8]) {
        ByteWriter.append(to: &out, capacity: maxPointBytes) { writePoint(p, &$0) }
    }

    /// The scratch buffer of one point: its 17 fields at their longest (a number's 32 bytes or
    /// a quoted enum name), commas, brackets and the `,\n` before it, with room to spare.
    static var maxPointBytes: Int { 1024 }

    @inline(__always)
    static func writePoint(_ p: TrackPoint, _ w: inout ByteWriter) {
        w.piece(maxPointBytes) { writePoint(p, &$0) }
    }

    /// At most 17 fields of 34 bytes, 16 commas and 2 brackets: 598 bytes (`maxPointBytes`).
    @inline(__always)
    static func writePoint(_ p: TrackPoint, _ w: inout ByteCursor) {
        let f = p.fix
        let comma = UInt8(ascii: ",")
        w.byte(UInt8(ascii: "["))
        w.fixed(f.time, decimals: 3); w.byte(comma)
        w.fixed(f.latitude, decimals: 9); w.byte(comma)
        w.fixed(f.longitude, decimals: 9); w.byte(comma)
        opt(f.altitude, 3, &w); w.byte(comma)
        opt(f.speed, 3, &w); w.byte(comma)
        opt(f.course, 2, &w); w.byte(comma)
        w.int(f.mode.rawValue); w.byte(comma)
        opt(f.horizontalAccuracy, 2, &w); w.byte(comma)
        optInt(f.satellites, &w); w.byte(comma)
        opt(f.hdop, 2, &w); w.byte(comma)
        optInt(f.heartRate, &w); w.byte(comma)
        optInt(f.cadence, &w); w.byte(comma)
        w.int(p.segment); w.byte(comma)
        if let r = p.rejection { w.quoted(r.rawValue) } else { w.literal("null") }
        if f.quality != nil || f.power != nil || f.temperature != nil {
            w.byte(comma)
            if let q = f.quality { w.quoted(q.rawValue) } else { w.literal("null") }
        }
        if f.power != nil || f.temperature != nil {
            w.byte(comma); optInt(f.power, &w)
            w.byte(comma); optInt(f.temperature, &w)
        }
        w.byte(UInt8(ascii: "]"))
    }

    @inline(__always) static func opt(_ v: Double?, _ d: Int, _ w: inout ByteCursor) {
        if let v, v.isFinite { w.fixed(v, decimals: d) } else { w.literal("null") }
    }
    @inline(__always) static func optInt(_ v: Int?, _ w: inout ByteCursor) {
        if let v { w.int(v) } else { w.literal("null") }
    }

    public static func decode(_ bytes: [UInt8]) throws(DecodeError) -> Workout {
        if let (j, points) = decodeFast(bytes) {
            guard let f = j["format"]?.stringValue else { throw .wrongFormat("none") }
            guard f == format else { throw .wrongFormat(f) }
            guard let s = j["summary"], let summary = WorkoutSummary(json: s) else { throw .badSummary }
            return workout(j, summary: summary, points: points)
        }
        return try decodeGeneral(bytes)
    }

    /// The decoder for any input (`decode` tries `decodeFast` first).
    static func decodeGeneral(_ bytes: [UInt8]) throws(DecodeError) -> Workout {
        let j: JSON
        do { j = try JSON.parse(bytes) } catch let e as JSONParseError { throw .notJSON(e.description) } catch { throw .notJSON("unreadable") }
        guard let f = j["format"]?.stringValue else { throw .wrongFormat("none") }
        guard f == format else { throw .wrongFormat(f) }
        guard let s = j["summary"], let summary = WorkoutSummary(json: s) else { throw .badSummary }
        var points: [TrackPoint] = []
        let raw = j["points"]?.arrayValue ?? []
        points.reserveCapacity(raw.count)
        for (i, pj) in raw.enumerated() {
            guard let a = pj.arrayValue, a.count >= 14, let t = a[0].doubleValue, let lat = a[1].doubleValue, let lon = a[2].doubleValue,
                  let m = a[6].intValue, let mode = FixMode(rawValue: m), let seg = a[12].intValue else { throw .badPoint(i) }
            let fix = Fix(time: t, latitude: lat, longitude: lon, altitude: a[3].doubleValue, speed: a[4].doubleValue,
                          course: a[5].doubleValue, mode: mode, quality: a.count > 14 ? a[14].stringValue.flatMap(FixQuality.init(rawValue:)) : nil,
                          satellites: a[8].intValue, hdop: a[9].doubleValue, horizontalAccuracy: a[7].doubleValue,
                          heartRate: a[10].intValue, cadence: a[11].intValue,
                          power: a.count > 15 ? a[15].intValue : nil, temperature: a.count > 16 ? a[16].intValue : nil)
            let rejection = a[13].stringValue.flatMap(RejectionReason.init(rawValue:))
            points.append(TrackPoint(fix: fix, rejection: rejection, segment: seg))
        }
        return workout(j, summary: summary, points: points)
    }

    static func workout(_ j: JSON, summary: WorkoutSummary, points: [TrackPoint]) -> Workout {
        let events = (j["events"]?.arrayValue ?? []).compactMap(WorkoutEvent.init(json:))
        return Workout(summary: summary, points: points, events: events, source: j["source"]?.stringValue ?? "recorded",
                       heartRate: decodeHeartRate(j["heartRate"]), sensors: decodeSensors(j["sensors"]), odometer: decodeOdometer(j["odometer"]),
                       device: j["device"].flatMap { $0.objectValue == nil ? nil : DeviceTotals(json: $0) })
    }
}

extension WorkoutEvent {
    public func json() -> JSON { JSONTree.build { encode(to: &$0) } }

    /// `json().serialized()` written straight to bytes, the same text.
    func writeJSON(to w: inout JSONWriter) { encode(to: &w) }

    /// The event's one schema, for the tree and the bytes.
    func encode<S: JSONSink>(to s: inout S) {
        s.beginObject()
        s.key("kind"); s.string(kind.rawValue)
        s.key("time"); s.time(time, fractionDigits: 3)
        if let cause { s.key("cause"); s.string(cause.rawValue) }
        if let text { s.key("text"); s.string(text) }
        s.endObject()
    }

    public init?(json j: JSON) {
        guard let k = j["kind"]?.stringValue, let kind = WorkoutEventKind(rawValue: k),
              let t = j["time"]?.stringValue.flatMap({ ISO8601.parse($0) }) else { return nil }
        self.init(kind: kind, time: t, cause: j["cause"]?.stringValue.flatMap(PauseCause.init(rawValue:)), text: j["text"]?.stringValue)
    }
}
