/// Journal lines: `<compact JSON>*<CRC-32 in 8 hex digits>\n`. The checksum tells a torn or
/// corrupted tail from good records; reading stops at the first bad line (docs/storage.md).
extension JournalRecord {
    public func encodeLine() -> String {
        var line: [UInt8] = []
        line.reserveCapacity(192)
        appendLine(to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// `encodeLine()`'s bytes appended to `out` (the journal's buffer): no String per line.
    public func appendLine(to out: inout [UInt8]) {
        var w = JSONWriter(capacity: 0)
        let start = out.count
        swap(&w.bytes, &out)  // written in place at the end of `out`
        defer { swap(&w.bytes, &out) }
        switch self {
        case .fix(let f):
            // The hot path while recording (one line per fix): the point array is written as bytes
            // straight into the line instead of being written, parsed into a JSON tree and written
            // again.
            w.raw(#"{"r":"fix","p":"#)
            WorkoutFile.writePoint(TrackPoint(fix: f), to: &w.bytes)
            w.raw("}")
        case .heartRate(let t, let bpm, let rr):
            // Heart rate and sensor readings come several times a second beside the fixes: written
            // straight as bytes too (the same text as `json()`, keys in its order).
            w.raw(#"{"r":"hr","t":"#); w.number(t); w.raw(#","bpm":"#); w.int(bpm)
            if !rr.isEmpty {
                w.raw(#","rr":["#)
                for (k, v) in rr.enumerated() {
                    if k > 0 { w.raw(",") }
                    w.int(Int(v))
                }
                w.raw("]")
            }
            w.raw("}")
        case .heartRateGap(let t):
            w.raw(#"{"r":"hrgap","t":"#); w.number(t); w.raw("}")
        case .alive(let t):
            // Once a second with the journal's flush.
            w.raw(#"{"r":"alive","t":"#); w.number(t); w.raw("}")
        case .sensor(let sample):
            w.raw(#"{"r":"sensor","t":"#); w.number(sample.time); w.raw(#","s":"#); w.string(sample.source.rawValue)
            if let r = sample.reading {
                if let v = r.power { w.raw(#","w":"#); w.int(v) }
                if let v = r.cadence { w.raw(#","cad":"#); w.number(v) }
                if let v = r.speed { w.raw(#","v":"#); w.number(v) }
                if let v = r.distance { w.raw(#","d":"#); w.number(v) }
            } else {
                w.raw(#","gap":true"#)
            }
            w.raw("}")
        case .started, .paused, .resumed, .lap, .marker, .stopped, .shutdown, .settings, .recovered, .rebased,
             .suspended, .shifted, .plan, .planStep:
            w.bytes.append(contentsOf: encodeLineThroughTree().utf8)
            return
        }
        let sum = w.bytes.withUnsafeBufferPointer { CRC32.checksum(UnsafeBufferPointer(rebasing: $0[start...])) }
        w.raw("*")
        CRC32.appendHex(sum, to: &w.bytes)
        w.raw("\n")
    }

    /// The line written from `json()`: control records, and what the direct paths above must
    /// equal (JournalRecordTests).
    func encodeLineThroughTree() -> String {
        var body = ""
        json().write(to: &body)
        return body + "*" + CRC32.hex(CRC32.checksum(body.utf8)) + "\n"
    }

    /// Decodes one line (without its newline) from bytes, without copying them into a String
    /// first: the checksum is checked on the bytes, and only then is the JSON parsed. nil when
    /// the checksum or content is bad.
    public static func decodeLine(_ line: UnsafeBufferPointer<UInt8>) -> JournalRecord? {
        let n = line.count
        guard n >= 9, line[n - 9] == UInt8(ascii: "*") else { return nil }
        var sum: UInt32 = 0
        for k in (n - 8)..<n {
            let c = line[k]
            let v: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            sum = sum << 4 | UInt32(v)
        }
        let body = UnsafeBufferPointer(rebasing: line[0..<(n - 9)])
        guard CRC32.checksum(body) == sum, let j = try? JSON.parse(body) else { return nil }
        return JournalRecord(json: j)
    }

    /// Decodes one line (without its newline); nil when the checksum or content is bad.
    public static func decodeLine(_ line: Substring) -> JournalRecord? {
        guard let star = line.lastIndex(of: "*") else { return nil }
        let body = line[..<star]
        let sum = line[line.index(after: star)...]
        guard sum.count == 8, UInt32(sum, radix: 16) == CRC32.checksum(body.utf8),
              let j = try? JSON.parse(String(body)) else { return nil }
        return JournalRecord(json: j)
    }

    func json() -> JSON {
        switch self {
        case .started(let id, let a, let t): return ["r": "start", "id": .string(id.rawValue), "activity": .string(a.rawValue), "t": .number(t)]
        case .paused(let t, let c): return ["r": "pause", "t": .number(t), "cause": .string(c.rawValue)]
        case .resumed(let t): return ["r": "resume", "t": .number(t)]
        case .lap(let t): return ["r": "lap", "t": .number(t)]
        case .marker(let t, let text): return ["r": "marker", "t": .number(t), "text": .string(text)]
        case .stopped(let t): return ["r": "stop", "t": .number(t)]
        case .shutdown(let t): return ["r": "shutdown", "t": .number(t)]
        case .settings(let t, let from, let to): return ["r": "settings", "t": .number(t), "from": from.json(), "to": to.json()]
        case .recovered(let t, let g): return ["r": "recovered", "t": .number(t), "gapFrom": .number(g)]
        case .suspended(let t, let u): return ["r": "suspended", "t": .number(t), "until": .number(u)]
        case .alive(let t): return ["r": "alive", "t": .number(t)]
        case .shifted(let s): return ["r": "shifted", "by": .number(s)]
        case .plan(let t, let p): return ["r": "plan", "t": .number(t), "plan": p.json()]
        case .planStep(let t, let i, let d, let timer, let laps):
            return ["r": "planstep", "t": .number(t), "i": .int(i), "d": .number(d), "timer": .number(timer), "laps": .int(laps)]
        case .rebased(let t, let o): return ["r": "rebased", "t": .number(t), "origin": .string(o.rawValue)]
        case .heartRate(let t, let bpm, let rr):
            var o: JSONObject = JSONObject([("r", "hr"), ("t", .number(t)), ("bpm", .int(bpm))])
            if !rr.isEmpty { o["rr"] = .array(rr.map { .int(Int($0)) }) }
            return .object(o)
        case .heartRateGap(let t): return ["r": "hrgap", "t": .number(t)]
        case .sensor(let s):
            var o: JSONObject = JSONObject([("r", "sensor"), ("t", .number(s.time)), ("s", .string(s.source.rawValue))])
            if let r = s.reading {
                if let w = r.power { o["w"] = .int(w) }
                if let c = r.cadence { o["cad"] = .number(c) }
                if let v = r.speed { o["v"] = .number(v) }
                if let d = r.distance { o["d"] = .number(d) }
            } else {
                o["gap"] = true
            }
            return .object(o)
        case .fix(let f):
            var out: [UInt8] = []
            WorkoutFile.writePoint(TrackPoint(fix: f), to: &out)
            // Reuse the saved-file point layout: one compact array.
            return ["r": "fix", "p": (try? JSON.parse(out)) ?? .null]
        }
    }

    init?(json j: JSON) {
        guard let r = j["r"]?.stringValue else { return nil }
        let t = j["t"]?.doubleValue
        switch r {
        case "start":
            guard let s = j["id"]?.stringValue, let id = WorkoutID(rawValue: s), let a = j["activity"]?.stringValue,
                  let activity = ActivityType(rawValue: a), let t else { return nil }
            self = .started(id: id, activity: activity, time: t)
        case "pause":
            guard let t, let c = j["cause"]?.stringValue.flatMap(PauseCause.init(rawValue:)) else { return nil }
            self = .paused(time: t, cause: c)
        case "resume": guard let t else { return nil }; self = .resumed(time: t)
        case "lap": guard let t else { return nil }; self = .lap(time: t)
        case "marker": guard let t else { return nil }; self = .marker(time: t, text: j["text"]?.stringValue)
        case "stop": guard let t else { return nil }; self = .stopped(time: t)
        case "shutdown": guard let t else { return nil }; self = .shutdown(time: t)
        case "settings":
            guard let t, let from = j["from"].flatMap(LiveMetricsSettings.init(json:)), let to = j["to"].flatMap(LiveMetricsSettings.init(json:)) else { return nil }
            self = .settings(time: t, from: from, to: to)
        case "alive": guard let t else { return nil }; self = .alive(time: t)
        case "shifted": guard let s = j["by"]?.doubleValue, s.isFinite else { return nil }; self = .shifted(by: s)
        case "plan":
            guard let t, let p = j["plan"].flatMap(Plan.init(journaled:)) else { return nil }
            self = .plan(time: t, plan: p)
        case "planstep":
            guard let t, let i = j["i"]?.intValue, i >= 0, let d = j["d"]?.doubleValue, d.isFinite, let timer = j["timer"]?.doubleValue,
                  timer.isFinite, let laps = j["laps"]?.intValue, laps >= 0 else { return nil }
            self = .planStep(time: t, index: i, distance: d, timer: timer, laps: laps)
        case "rebased":
            guard let t else { return nil }
            self = .rebased(time: t, origin: j["origin"]?.stringValue.flatMap(TrackOrigin.init(rawValue:)) ?? .receiver)
        case "suspended":
            guard let t, let u = j["until"]?.doubleValue else { return nil }
            self = .suspended(time: t, until: u)
        case "recovered":
            guard let t, let g = j["gapFrom"]?.doubleValue else { return nil }
            self = .recovered(time: t, gapFrom: g)
        case "hr":
            guard let t, let bpm = j["bpm"]?.intValue else { return nil }
            let rr = (j["rr"]?.arrayValue ?? []).compactMap { $0.intValue.flatMap { (0...65535).contains($0) ? UInt16($0) : nil } }
            self = .heartRate(time: t, bpm: bpm, rr: rr)
        case "hrgap": guard let t else { return nil }; self = .heartRateGap(time: t)
        case "sensor":
            guard let t, let source = j["s"]?.stringValue.flatMap(SensorSource.init(rawValue:)) else { return nil }
            if j["gap"]?.boolValue == true {
                self = .sensor(SensorSample(time: t, source: source, reading: nil))
            } else {
                let r = SensorReading(power: j["w"]?.intValue, cadence: j["cad"]?.doubleValue, speed: j["v"]?.doubleValue, distance: j["d"]?.doubleValue)
                guard !r.isEmpty else { return nil }
                self = .sensor(SensorSample(time: t, source: source, reading: r))
            }
        case "fix":
            guard let a = j["p"]?.arrayValue, a.count >= 14, let time = a[0].doubleValue, let lat = a[1].doubleValue,
                  let lon = a[2].doubleValue, let m = a[6].intValue, let mode = FixMode(rawValue: m) else { return nil }
            // Never a place off the globe or an endless time (the writer never writes one: a line
            // whose checksum holds by chance is a bad record, skipped; found by the journal fuzzer).
            guard time.isFinite, (-90.0...90.0).contains(lat), (-180.0...180.0).contains(lon) else { return nil }
            self = .fix(Fix(time: time, latitude: lat, longitude: lon, altitude: a[3].doubleValue, speed: a[4].doubleValue,
                            course: a[5].doubleValue, mode: mode, quality: a.count > 14 ? a[14].stringValue.flatMap(FixQuality.init(rawValue:)) : nil,
                            satellites: a[8].intValue, hdop: a[9].doubleValue, horizontalAccuracy: a[7].doubleValue,
                            heartRate: a[10].intValue, cadence: a[11].intValue,
                            power: a.count > 15 ? a[15].intValue : nil, temperature: a.count > 16 ? a[16].intValue : nil))
        default: return nil
        }
    }
}

/// CRC-32 (IEEE 802.3, as zlib), table-driven.
public enum CRC32 {
    static let table: [UInt32] = (0..<256).map { i -> UInt32 in
        var c = UInt32(i)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The checksum of a buffer: the table and the bytes through pointers, one tight loop (the
    /// journal's reader runs it over every byte at start-up, also in debug builds).
    public static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        table.withUnsafeBufferPointer { t in
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
            return c ^ 0xFFFF_FFFF
        }
    }

    public static func checksum<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    public static func hex(_ v: UInt32) -> String {
        var out: [UInt8] = []
        appendHex(v, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `hex(v)`'s eight lowercase digits appended as bytes (`String(v, radix: 16)` padded: a
    /// String and its radix conversion per journal line before).
    public static func appendHex(_ v: UInt32, to out: inout [UInt8]) {
        for k in stride(from: 28, through: 0, by: -4) {
            let d = UInt8(truncatingIfNeeded: (v >> UInt32(k)) & 0xF)
            out.append(d < 10 ? 48 + d : 87 + d)
        }
    }
}
