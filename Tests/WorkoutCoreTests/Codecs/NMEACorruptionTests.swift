import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

@Suite("NMEA decoder on damaged input")
struct NMEACorruptionTests {
    /// Lines of nmea-rtk.log (CRLF kept), a capture with GGA + RMC in each of its 122 epochs.
    static func lines() throws -> [[UInt8]] {
        let bytes = try NMEAOracle.logBytes("nmea-rtk")
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
    }

    static func checksum(_ body: ArraySlice<UInt8>) -> [UInt8] {
        let x = body.reduce(UInt8(0), ^)
        return Array(String(format: "%02X", x).utf8)
    }

    /// Index of the n-th RMC line.
    static func rmc(_ lines: [[UInt8]], _ n: Int) -> Int {
        lines.indices.filter { String(decoding: lines[$0].prefix(6), as: UTF8.self).hasSuffix("RMC") }[n]
    }

    static func run(_ lines: [[UInt8]], chunk: Int? = nil, options: NMEADecoder.Options = .init()) -> (fixes: [NMEAFix], stats: NMEADecoder.Stats) {
        NMEAOracle.decode(lines.flatMap { $0 }, chunk: chunk, options: options)
    }

    static func faults(_ s: NMEADecoder.Stats) -> [String: Int] {
        ["badChecksum": s.badChecksum, "missingChecksum": s.missingChecksum, "tooLong": s.tooLong,
         "malformed": s.malformed, "notNMEA": s.notNMEA].filter { $0.value != 0 }
    }

    @Test("each kind of damage is counted by reason and the rest still decodes", .requires(.sharedData))
    func damage() throws {
        let clean = try Self.lines()
        let base = Self.run(clean)
        #expect(base.fixes.count == 122 && Self.faults(base.stats).isEmpty)

        var v = clean
        // 1. Flipped checksum digit.
        var i = Self.rmc(v, 3)
        let star = v[i].lastIndex(of: UInt8(ascii: "*"))!
        v[i][star + 1] = v[i][star + 1] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        // 2. Sentence truncated before its checksum (a dropped read).
        i = Self.rmc(v, 10)
        v[i] = Array(v[i].prefix(40)) + [0x0D, 0x0A]
        // 3. Sentence truncated and the next one glued on.
        i = Self.rmc(v, 20)
        v[i] = Array(v[i].prefix(30))
        // 4. A line of random bytes (no newline, no '$').
        var rng = SeededRandom(seed: 42)
        let noise = (0..<300).map { _ in UInt8.random(in: 0...255, using: &rng) }.filter { $0 != 0x0A && $0 != UInt8(ascii: "$") && $0 != UInt8(ascii: "#") }
        v.insert(noise + [0x0A], at: Self.rmc(v, 30))
        // 5. A 150 KB line.
        v.insert(Array(repeating: UInt8(ascii: "A"), count: 150 * 1024) + [0x0A], at: Self.rmc(v, 40))
        // 6. Invalid UTF-8 inside a sentence whose checksum is recomputed to match.
        i = Self.rmc(v, 50)
        let s6 = v[i].lastIndex(of: UInt8(ascii: "*"))!
        v[i][10] = 0xFF
        v[i].replaceSubrange((s6 + 1)..<(s6 + 3), with: Self.checksum(v[i][1..<s6]))
        // 7. Junk before a valid sentence on the same line (resynchronised on '$').
        i = Self.rmc(v, 60)
        v[i] = Array("\u{01}\u{02}xx".utf8) + v[i]

        for chunk in [nil, 1, 7, 64] as [Int?] {
            let r = Self.run(v, chunk: chunk)
            expectEqual(Self.faults(r.stats), ["badChecksum": 1, "missingChecksum": 1, "malformed": 2, "notNMEA": 1, "tooLong": 1], "chunk \(String(describing: chunk))")
            expectEqual(r.stats.noise, 1)
            // Every epoch still has its GGA: all 122 fixes survive; the 4 epochs whose RMC was lost
            // (damage 1, 2, 3, 6) have no speed; the resynchronised RMC (7) decodes normally.
            expectEqual(r.fixes.count, 122)
            expectEqual(zip(r.fixes, base.fixes).filter { $0.fix.speed != $1.fix.speed }.count, 4)
            #expect(zip(r.fixes, base.fixes).allSatisfy { $0.fix.latitude == $1.fix.latitude || $0.fix.time == $1.fix.time })
        }
    }

    @Test("sentences without checksum: rejected by default, accepted by option")
    func missingChecksum() throws {
        let text = "$GPGGA,120000.00,4807.0380,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,\r\n$GPRMC,120000.00,A,4807.0380,N,01131.0000,E,10.0,84.4,230394,,,A\n$GPGGA,120001.00,4807.0390,N,01131.0000,E,1,08,0.9,545.4,M,46.9,M,,\n"
        var d = NMEADecoder()
        var fixes = d.feed(Array(text.utf8)) + d.flush()
        #expect(fixes.isEmpty)
        expectEqual(d.stats.missingChecksum, 3)
        var lenient = NMEADecoder(options: .init(acceptMissingChecksum: true))
        fixes = lenient.feed(Array(text.utf8)) + lenient.flush()
        expectEqual(fixes.count, 2)
        expectEqual(fixes.first?.time, ISO8601.parse("1994-03-23T12:00:00Z"))
        let f = try #require(fixes.first)
        let knots: Double = 10 * 1852.0 / 3600
        let lat: Double = 48 + 7.038 / 60
        expectLess(abs((f.speed ?? 0) - knots), 1e-12)
        expectLess(abs((f.altitude ?? 0) - 592.3), 1e-9)
        expectLess(abs(f.latitude - lat), 1e-12)
    }

    @Test("talkers, proprietary and comment lines, NMEA 4.1 fields, midnight crossing")
    func variants() {
        func line(_ body: String) -> String {
            let x = body.utf8.reduce(UInt8(0), ^)
            return "$" + body + "*" + String(format: "%02X", x) + "\r\n"
        }
        var text = "# a comment\n"
        text += line("PGRME,15.0,M,45.0,M,25.0,M")
        text += line("GNRMC,235959.00,A,4813.0535,N,00824.8697,E,1.00,90.0,311224,,,R,V")
        text += line("GNGGA,235959.00,4813.0535,N,00824.8697,E,4,12,0.7,765.8,M,47.4,M,1.0,0000")
        text += line("GNGSA,A,3,18,21,26,,,,,,,,,,1.3,0.7,1.1,1")
        text += line("GLGSA,A,3,76,87,,,,,,,,,,,1.3,0.7,1.1,2")
        text += line("GBGGA,000000.00,4813.0600,N,00824.8697,E,5,12,0.7,765.8,M,,M,,")  // GGA only, next day
        text += line("QZTXT,01,01,02,hello")
        var d = NMEADecoder()
        var fixes: [NMEAFix] = []
        Array(text.utf8).withUnsafeBufferPointer { d.feed($0) { fixes.append($0) }; d.flush { fixes.append($0) } }
        expectEqual(fixes.count, 2)
        let first = fixes[0].fix, second = fixes[1]
        expectEqual(first.quality, .rtkFixed)
        expectEqual(first.mode, .threeD)
        expectEqual(first.satellites, 12)
        expectEqual(first.time, ISO8601.parse("2024-12-31T23:59:59Z"))
        expectEqual(second.fix.time, ISO8601.parse("2025-01-01T00:00:00Z"))
        expectEqual(second.fix.quality, .rtkFloat)
        expectNil(second.geoidSeparation)
        expectEqual(second.fix.altitude, 765.8)
        let s = d.stats
        expectEqual(s.comments, 1)
        expectEqual(s.proprietary, 1)
        expectEqual(s.unsupported, 1)
    }

    /// The body scan, eight bytes at a time, gives what a byte-by-byte loop gives (checksum,
    /// a byte outside printable ASCII or a '*', the first `maxFields` commas) for every byte
    /// value at each of the first 17 positions, random bodies of every length up to 90, and a
    /// body with more commas than fields are kept.
    @Test func bodyScanMatchesByteLoop() {
        func reference(_ body: [UInt8]) -> (UInt8, Bool, [Int]) {
            var x: UInt8 = 0, bad = false, commas: [Int] = []
            for (k, c) in body.enumerated() {
                bad = bad || c < 0x20 || c > 0x7E || c == UInt8(ascii: "*")
                x ^= c
                if c == UInt8(ascii: ","), commas.count < NMEADecoder.maxFields { commas.append(k) }
            }
            return (x, bad, commas)
        }
        func scanned(_ body: [UInt8]) -> (UInt8, Bool, [Int]) {
            let out = UnsafeMutablePointer<Int>.allocate(capacity: NMEADecoder.maxFields)
            defer { out.deallocate() }
            var padded = body
            padded.append(0)  // a body may be empty: the pointer needs a byte behind it
            let r = padded.withUnsafeBufferPointer { NMEADecoder.scanBody($0.baseAddress!, from: 0, to: body.count, commas: out) }
            return (r.checksum, r.bad, (0..<r.commas).map { out[$0] })
        }
        var bodies: [[UInt8]] = []
        let sentence = Array("GPGGA,094736.00,5251.0094,N,00518.8172,E,1,12,0.60,-4,M,46.8,M,,".utf8)
        for v in 0...255 {
            for at in 0..<17 {
                var b = sentence
                b[at] = UInt8(v)
                bodies.append(b)
            }
        }
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array(",*.0123456789ABN$ \t".utf8) + [0x00, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xFF]
        for n in 0...90 {
            for _ in 0..<20 { bodies.append((0..<n).map { _ in alphabet.randomElement(using: &rng)! }) }
        }
        bodies.append(Array(repeating: UInt8(ascii: ","), count: 3 * NMEADecoder.maxFields))
        for body in bodies {
            let (x, bad, commas) = scanned(body), (rx, rbad, rcommas) = reference(body)
            #expect(x == rx && bad == rbad && commas == rcommas, "\(body)")
        }
    }

    /// The number reader (integer digits, then decimals) reads what the one-loop reader it
    /// replaced read: the same mantissa and scale, or nil, for signs, points, 18 and more digits
    /// and junk, in random fields up to 24 bytes; and `power10` is `pow10` for every scale.
    @Test func mantissaMatchesOneLoopReader() {
        func reference(_ f: [UInt8]) -> (Int64, Int)? {
            var i = 0
            guard i < f.count else { return nil }
            var negative = false
            if f[i] == UInt8(ascii: "-") { negative = true; i += 1 } else if f[i] == UInt8(ascii: "+") { i += 1 }
            var m: Int64 = 0, digits = 0, scale = 0, seenPoint = false
            while i < f.count {
                let c = f[i]
                if c == UInt8(ascii: ".") {
                    if seenPoint { return nil }
                    seenPoint = true
                } else {
                    let d = c &- UInt8(ascii: "0")
                    guard d < 10 else { return nil }
                    if digits < 18 {
                        m = m &* 10 &+ Int64(d); digits += 1
                        if seenPoint { scale += 1 }
                    } else if !seenPoint {
                        return nil
                    }
                }
                i += 1
            }
            guard digits > 0 else { return nil }
            return (negative ? -m : m, scale)
        }
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789.-+,A ".utf8) + Array(repeating: UInt8(ascii: "7"), count: 12)
        var fields: [[UInt8]] = ["", "-", "+", ".", "-.5", "5.", "0", "-0", "4916.45", "12345678901234567890",
                                 "1234567890.1234567890123", "1.2.3", "1-2"].map { Array($0.utf8) }
        for n in 1...24 { for _ in 0..<300 { fields.append((0..<n).map { _ in alphabet.randomElement(using: &rng)! }) } }
        for f in fields {
            let got = f.withUnsafeBufferPointer { NMEAFieldScanner.mantissa($0, 0, f.count) }
            let want = reference(f)
            #expect(got?.0 == want?.0 && got?.1 == want?.1, "\(String(decoding: f, as: UTF8.self))")
        }
        for k in 0...22 { #expect(NMEAFieldScanner.power10(k) == NMEAFieldScanner.pow10[k]) }
    }
}
