import Testing
@testable import WorkoutCore

/// `ByteWriter` writes the numbers of saved workouts, journal lines and GPX: its text must be
/// exactly what `formatFixed`, `String(Int)` and `ISO8601.format` give, and the native file's
/// bytes exactly what the per-value writer before it produced (rebuilt here from those).
struct ByteWriterTests {
    static func write(_ body: (inout ByteWriter) -> Void) -> String {
        var out: [UInt8] = []
        ByteWriter.append(to: &out, capacity: 256, body)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func fixedMatchesFormatFixed() {
        var rng = SeededRandom(seed: 77)
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, 2.5, 0.05, 0.15, 0.125, 0.0005, 0.0015, -0.0049999999, 9.9999999995,
                                99.995, 999_999.9995, -179.9999999995, 89.99999999949, 1e-12, -1e-12, 123_456_789.123_456_789,
                                4_503_599_627_370_495.5, 4_503_599_627_370_496, 9_007_199_254_740_992 /* 2^53, what 2^53 + 1 rounds to */, 8.999_999_999_999_998e18,
                                9e18, 9.000_000_000_000_002e18, 1e19, -1e300, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
                                .infinity, -.infinity, .nan, 1_795_000_000.0005, 1_795_000_000.0015, -1_795_000_000.9995]
        for _ in 0..<30_000 {
            let magnitude = Double.random(in: -9...12, using: &rng)
            values.append(Double.random(in: -1...1, using: &rng) * pow10(magnitude))
        }
        for _ in 0..<5_000 {
            // Exact halves at each number of decimals (the rounding rule's edge).
            let d = Int.random(in: 0...9, using: &rng)
            let whole = Double(Int.random(in: -10_000_000...10_000_000, using: &rng))
            values.append((whole + 0.5) / pow10(Double(d)))
        }
        // Around the scaled magnitude where `fixed` leaves its fast rounding (4.5e15, 2^52).
        for d in [0, 2, 3, 9] {
            for k in -6...6 { values += [(4.5e15 + Double(k) * 0.5) / pow10(Double(d)), -(4_503_599_627_370_496 + Double(k)) / pow10(Double(d))] }
        }
        var failures = 0
        for v in values {
            for d in [0, 1, 2, 3, 4, 6, 7, 9, 12, 15, 18, 19] {
                let fast = Self.write { $0.fixed(v, decimals: d) }
                if fast != formatFixed(v, decimals: d) {
                    failures += 1
                    if failures < 5 { Issue.record("value \(v) decimals \(d): \(fast) != \(formatFixed(v, decimals: d))") }
                }
            }
        }
        expectEqual(failures, 0)
    }

    /// `digits9` forms digits by multiplying with 2^57/10^m (its proof is in its comment; the
    /// whole range below 10^9 was checked once offline): every value of up to 5 digits here, and
    /// the edges and random values of 6 to 9 digits, at every width that holds them.
    @Test func digitChunksAreExact() {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 16)
        defer { buffer.deallocate() }
        func text(_ v: UInt64, _ k: Int) -> String {
            ByteWriter.digits9(v, k, buffer)
            return String(decoding: UnsafeBufferPointer(start: buffer, count: k), as: UTF8.self)
        }
        func expected(_ v: UInt64, _ k: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: k - s.count) + s
        }
        var rng = SeededRandom(seed: 3)
        var failures = 0
        for k in 1...9 {
            let limit = ByteWriter.powerOf10(k)
            var values: [UInt64] = [0, 1, limit - 1, limit / 10, limit / 10 &- 1, limit / 2, limit / 2 &- 1]
            if k <= 5 { values = Array(0..<limit) } else { for _ in 0..<50_000 { values.append(UInt64.random(in: 0..<limit, using: &rng)) } }
            for v in values where text(v, k) != expected(v, k) {
                failures += 1
                if failures < 5 { Issue.record("\(v) in \(k) digits: \(text(v, k))") }
            }
        }
        expectEqual(failures, 0)
        for k in 0...19 {
            let p = ByteWriter.powerOf10(k)
            for v in [p, p &- 1, p &+ 1] { expectEqual(ByteWriter.digitCount(v), String(v).count, "\(v)") }
        }
        #expect(ByteWriter.digitCount(.max) == 20 && ByteWriter.digitCount(0) == 1)
    }

    @Test func intMatchesString() {
        var rng = SeededRandom(seed: 5)
        var values: [Int] = [0, 1, -1, 9, 10, 99, 100, 9_999, 10_000, 99_999_999, 100_000_000, .max, .min, .max - 1, .min + 1]
        for _ in 0..<20_000 { values.append(Int.random(in: .min ... .max, using: &rng) >> Int.random(in: 0...63, using: &rng)) }
        for v in values {
            let fast = Self.write { $0.int(v) }
            expectEqual(fast, String(v))
            if fast != String(v) { return }
        }
        for v in [0, 7, 42, 99] as [Int] {
            expectEqual(Self.write { $0.twoDigits(v) }, (v < 10 ? "0" : "") + String(v))
        }
        expectEqual(Self.write { $0.unsigned(7, minimumWidth: 4) }, "0007")
        expectEqual(Self.write { $0.unsigned(123_456, minimumWidth: 4) }, "123456")
    }

    @Test func utcTimeMatchesISO8601() {
        var rng = SeededRandom(seed: 11)
        var times: [Double] = [0, -1, -0.0004, -0.0006, 951_782_400, 1_709_164_799.9996, 1_709_164_799.9994, 4_102_444_800.5,
                               -99_999_999_999_999, 1e14, .nan, .infinity]
        for _ in 0..<20_000 {
            times.append(Double(Int.random(in: -100_000_000...4_200_000_000, using: &rng)))
            times.append(Double(Int.random(in: -4_200_000_000_000...4_200_000_000_000, using: &rng)) / 1000)
        }
        var day = UTCDayText()
        // The latest time written: a 7-digit year (ISO8601.format's own rounding differs there).
        #expect(Self.write { $0.utcTime(99_999_999_999_999, &day) }.hasPrefix("3170843-11-07T09:46:39."))
        for t in times {
            let fast = Self.write { $0.utcTime(t, &day) }
            let expected: String
            if !t.isFinite || abs(t) >= 1e14 {
                expected = "1970-01-01T00:00:00Z"
            } else {
                let ms = (t * 1000).rounded(.toNearestOrAwayFromZero)
                expected = ISO8601.format(t, fractionDigits: ms.truncatingRemainder(dividingBy: 1000) == 0 ? 0 : 3)
            }
            // ISO8601.format pads the year of a time before year 0 differently; the writers
            // clamp such years to 0000 (as XMLOutput always did).
            if t < -62_167_219_200 { #expect(fast.hasPrefix("0000-")); continue }
            expectEqual(fast, expected, "time \(t)")
            if fast != expected { return }
        }
    }

    /// The writer of one point as it was before `ByteWriter` (values through `formatFixed` and
    /// `String`), for comparing whole files byte for byte.
    static func referencePoint(_ p: TrackPoint) -> String {
        let f = p.fix
        func opt(_ v: Double?, _ d: Int) -> String { v.map { $0.isFinite ? formatFixed($0, decimals: d) : "null" } ?? "null" }
        func optInt(_ v: Int?) -> String { v.map { String($0) } ?? "null" }
        var fields = [formatFixed(f.time, decimals: 3), formatFixed(f.latitude, decimals: 9), formatFixed(f.longitude, decimals: 9),
                      opt(f.altitude, 3), opt(f.speed, 3), opt(f.course, 2), String(f.mode.rawValue), opt(f.horizontalAccuracy, 2),
                      optInt(f.satellites), opt(f.hdop, 2), optInt(f.heartRate), optInt(f.cadence), String(p.segment),
                      p.rejection.map { "\"\($0.rawValue)\"" } ?? "null"]
        if f.quality != nil || f.power != nil || f.temperature != nil { fields.append(f.quality.map { "\"\($0.rawValue)\"" } ?? "null") }
        if f.power != nil || f.temperature != nil { fields += [optInt(f.power), optInt(f.temperature)] }
        return "[" + fields.joined(separator: ",") + "]"
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func nativePointsAreTheBytesOfTheReferenceWriter(_ seed: UInt64) {
        var w = WorkoutFileFastDecodeTests.workout(seed: seed)
        // Values at the edges of the formats: not finite, huge, negative zero, extreme integers.
        let edges: [Fix] = [
            Fix(time: .nan, latitude: .infinity, longitude: -.infinity, altitude: .nan, speed: 1e300, course: -0.0, mode: .noFix,
                satellites: .max, hdop: -1e-300, horizontalAccuracy: 9e18, heartRate: .min, cadence: 0, power: -1, temperature: .max),
            Fix(time: -1e20, latitude: -0.0000000005, longitude: 179.9999999995, altitude: -0.0005, speed: 0.0005, course: 359.995,
                quality: .rtkFloat, satellites: 0, hdop: 0.005, horizontalAccuracy: 0.015),
        ]
        w.points += edges.map { TrackPoint(fix: $0, rejection: .invalidPosition, segment: -3) }
        let bytes = WorkoutFile.encode(w)
        let text = String(decoding: bytes, as: UTF8.self)
        let expected = w.points.map(Self.referencePoint).joined(separator: ",\n")
        #expect(text.contains("\"points\":[" + expected + "]"))
        for p in w.points {
            var one: [UInt8] = []
            WorkoutFile.writePoint(p, to: &one)
            expectEqual(String(decoding: one, as: UTF8.self), Self.referencePoint(p))
        }
    }

    @Test func heartRateSeriesIsWrittenAsBefore() {
        var h = HeartRateSeries()
        h.samples = [HeartRateSample(time: 1_795_000_000.0005, bpm: 61), HeartRateSample(time: 1_795_000_001, bpm: nil)]
        h.rrIntervals = [RRInterval(time: 1_795_000_000.25, interval1024: 65535), RRInterval(time: 1_795_000_000.5, interval1024: 0)]
        var out: [UInt8] = []
        WorkoutFile.writeHeartRate(h, to: &out)
        let t = { formatFixed($0, decimals: 3) }
        expectEqual(String(decoding: out, as: UTF8.self),
                #","heartRate":{"samples":[["# + t(1_795_000_000.0005) + ",61],[1795000001.000,null]],\"rr\":[[1795000000.250,65535],["
                   + t(1_795_000_000.5) + ",0]]}")
    }

    private func pow10(_ e: Double) -> Double {
        var r = 1.0
        var k = 0.0
        if e >= 0 { while k < e.rounded(.down) { r *= 10; k += 1 } } else { while k > e.rounded(.up) { r /= 10; k -= 1 } }
        return r * (1 + (e - e.rounded(.towardZero)).magnitude)
    }
}
