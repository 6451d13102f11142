import Testing
@testable import WorkoutCore

/// The byte writer must produce exactly the text of `JSON.serialized()` and `ISO8601.format`.
@Suite struct JSONWriterTests {
    static let strings = ["", "plain", "quote \" and \\ backslash", "line\nfeed\r\ttab", "bell\u{07}\u{01}\u{1F}\u{0C}\u{08}",
                          "café ünïcødé 🏃‍♀️", "del\u{7F}", "/slash/", "\u{00}nul"]
    static let numbers: [Double] = [0, -0.0, 1, -1, 3, 0.1, 0.25, -12.345, 1e-7, 0.00001, 123456.789, 1e14 + 0.5, 999_999_999_999_999,
                                    1e15, -1e15, 1e16, 1e21, 1.7976931348623157e308, .leastNonzeroMagnitude /* 5e-324 */, .nan, .infinity, -.infinity, 2.5e-5, 3.0000000000000004]

    static func randomValue(_ rng: inout SplitMix64, depth: Int) -> JSON {
        switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2:
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return .number(numbers.randomElement(using: &rng)!)
            case 1: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &rng)))
            default: return .number(Double.random(in: -1e6...1e6, using: &rng) * [1, 1e-9, 1e9].randomElement(using: &rng)!)
            }
        case 3: return .string(strings.randomElement(using: &rng)!)
        case 4: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            var o = JSONObject()
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                o[strings.randomElement(using: &rng)! + String(Int.random(in: 0...9, using: &rng))] = randomValue(&rng, depth: depth + 1)
            }
            return .object(o)
        }
    }

    @Test(arguments: 1...200) func valueMatchesSerialized(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let v = Self.randomValue(&rng, depth: 0)
        var w = JSONWriter()
        w.value(v)
        expectEqual(w.bytes, Array(v.serialized().utf8), "seed \(seed): \(v.serialized())")
    }

    @Test func scalarsMatchSerialized() {
        for s in Self.strings {
            var w = JSONWriter()
            w.string(s)
            expectEqual(w.bytes, Array(JSON.string(s).serialized().utf8), "\(s.debugDescription)")
        }
        for d in Self.numbers {
            var w = JSONWriter()
            w.number(d)
            expectEqual(w.bytes, Array(JSON.number(d).serialized().utf8), "\(d)")
        }
        var w = JSONWriter()
        w.number(nil); w.raw(","); w.int(nil); w.raw(","); w.int(-42); w.raw(","); w.string(nil)
        expectEqual(String(decoding: w.bytes, as: UTF8.self), "null,null,-42,null")
    }

    @Test func iso8601AppendMatchesFormat() {
        var rng = SplitMix64(seed: 8601)
        var times: [Double] = [0, -1, -0.0005, 0.9995, 59.9999, 1_790_000_000.9996, 1_790_000_000.0004, 951_782_400, -62_135_596_800,
                               253_402_300_799.999, 1_700_000_000.125, 1_700_000_000.5]
        for _ in 0..<2000 { times.append(Double.random(in: -3e9...4e9, using: &rng)) }
        for _ in 0..<500 { times.append(1_790_000_000 + Double(Int.random(in: 0...100_000, using: &rng)) + Double(Int.random(in: 0...9999, using: &rng)) / 10_000) }
        for t in times {
            for digits in [0, 1, 3, 6, 9] {
                var bytes: [UInt8] = []
                ISO8601.append(t, fractionDigits: digits, to: &bytes)
                expectEqual(String(decoding: bytes, as: UTF8.self), ISO8601.format(t, fractionDigits: digits), "\(t) \(digits)")
            }
            var w = JSONWriter()
            w.time(t, fractionDigits: 3)
            expectEqual(w.bytes, Array(JSON.string(ISO8601.format(t, fractionDigits: 3)).serialized().utf8))
        }
    }
}
