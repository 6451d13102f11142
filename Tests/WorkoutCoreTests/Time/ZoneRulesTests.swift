import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Zone files from the system's tzdata, read the way the shell will read them.
enum ZoneFiles {
    static let names = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia",
                        "Pacific/Kiritimati", "Pacific/Tongatapu", "Asia/Kathmandu", "America/Sao_Paulo",
                        "UTC", "Asia/Jerusalem", "America/Nuuk"]
    static func bytes(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name).map { [UInt8]($0) }
    }
    static func rules(_ name: String) throws -> ZoneRules {
        guard let b = bytes(name) else { throw ZoneRulesError("no file for \(name)") }
        return try ZoneRules(tzif: b, name: name)
    }
    static var available: Bool { bytes("Europe/Berlin") != nil }
}


@Suite(.requires(.program(.zoneinfo))) struct ZoneRulesTests {
    /// Offsets agree with Foundation's TimeZone (ICU data) at random instants 1975...2099 and at
    /// every instant one second either side of each transition after 1975.
    @Test(arguments: ZoneFiles.names) func matchesFoundation(zone: String) throws {
        let rules = try ZoneFiles.rules(zone)
        let tz = try #require(TimeZone(identifier: zone))
        var rng = SeededRandom(seed: 42)
        var instants: [Double] = (0..<3000).map { _ in Double(Int64.random(in: 157_766_400...4_102_444_800, using: &rng)) }
        for t in rules.transitions where t > 157_766_400 { instants += [Double(t - 1), Double(t), Double(t + 1)] }
        // Footer territory: transitions each year 2038...2099, probed near their dates.
        for y in 2038...2099 {
            for m in [3, 4, 9, 10, 11] { instants.append(CivilTime(year: y, month: m, day: Int.random(in: 1...28, using: &rng), hour: Int.random(in: 0...23, using: &rng)).secondsSinceEpochAsUTC) }
        }
        var mismatches: [String] = []
        for t in instants {
            let ours = rules.utcOffset(at: t)
            let theirs = tz.secondsFromGMT(for: Date(timeIntervalSince1970: t))
            if ours != theirs { mismatches.append("\(ISO8601.format(t)) ours=\(ours) foundation=\(theirs)") }
        }
        #expect(mismatches.isEmpty, "\(zone): \(mismatches.count) of \(instants.count) differ, e.g. \(mismatches.prefix(5))")
    }

    @Test func civilTimeOfAnInstant() throws {
        let berlin = try ZoneFiles.rules("Europe/Berlin")
        // 2026-03-29T01:00:00Z: CET ends, 03:00 CEST.
        let t = ISO8601.parse("2026-03-29T01:00:00Z")!
        expectEqual(berlin.civilTime(at: t - 1), CivilTime(year: 2026, month: 3, day: 29, hour: 1, minute: 59, second: 59))
        expectEqual(berlin.civilTime(at: t), CivilTime(year: 2026, month: 3, day: 29, hour: 3))
        #expect(berlin.isDaylightTime(at: t))
        let kathmandu = try ZoneFiles.rules("Asia/Kathmandu")
        expectEqual(kathmandu.utcOffset(at: t), 5 * 3600 + 45 * 60)
        // Far future: footer rules (fat and slim files alike).
        expectEqual(berlin.utcOffset(at: ISO8601.parse("2090-07-01T00:00:00Z")!), 7200)
        expectEqual(berlin.utcOffset(at: ISO8601.parse("2090-12-01T00:00:00Z")!), 3600)
    }

    @Test func fixedAndPosixZones() throws {
        expectEqual(ZoneRules.utc.utcOffset(at: 1e9), 0)
        expectEqual(ZoneRules.utc.name, "UTC")
        let k = ZoneRules(fixedOffset: 14 * 3600)
        expectEqual(k.name, "+14:00")
        expectEqual(k.civilTime(at: 0), CivilTime(year: 1970, month: 1, day: 1, hour: 14))
        expectEqual(ZoneRules(fixedOffset: -(3 * 3600 + 30 * 60)).name, "-03:30")
        let ny = try #require(ZoneRules(posix: "EST5EDT,M3.2.0,M11.1.0"))
        expectEqual(ny.utcOffset(at: ISO8601.parse("2026-03-08T06:59:59Z")!), -5 * 3600)
        expectEqual(ny.utcOffset(at: ISO8601.parse("2026-03-08T07:00:00Z")!), -4 * 3600)
        expectEqual(ny.utcOffset(at: ISO8601.parse("2026-11-01T05:59:59Z")!), -4 * 3600)
        expectEqual(ny.utcOffset(at: ISO8601.parse("2026-11-01T06:00:00Z")!), -5 * 3600)
        // Southern hemisphere, 30-minute DST.
        let lh = try #require(ZoneRules(posix: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"))
        expectEqual(lh.utcOffset(at: ISO8601.parse("2026-01-15T00:00:00Z")!), 11 * 3600)
        expectEqual(lh.utcOffset(at: ISO8601.parse("2026-06-15T00:00:00Z")!), 10 * 3600 + 1800)
        // TZif v3: all-year daylight time; hour 26.
        let allYear = try #require(ZoneRules(posix: "EST5EDT,0/0,J365/25"))
        for m in 1...12 { expectEqual(allYear.utcOffset(at: CivilTime(year: 2030, month: m, day: 15).secondsSinceEpochAsUTC), -4 * 3600) }
        expectNotNil(ZoneRules(posix: "IST-2IDT,M3.4.4/26,M10.5.0"))
        for bad in ["", "C", "CET", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "<+01", "CET-25", "CET-1CEST,M3.5.0,M10.5.0/168"] {
            expectNil(ZoneRules(posix: bad), "\(bad)")
        }
    }

    /// The v1 (32-bit) block alone: the v2 file with its version byte zeroed and cut after block 1.
    @Test func readsVersion1Data() throws {
        var b = try #require(ZoneFiles.bytes("America/New_York"))
        func count(_ k: Int) -> Int { (20 + 4 * k..<24 + 4 * k).reduce(0) { $0 << 8 | Int(b[$1]) } }
        let len = 44 + count(3) * 5 + count(4) * 6 + count(5) + count(2) * 8 + count(1) + count(0)
        b[4] = 0
        let v1 = try ZoneRules(tzif: Array(b[0..<len]))
        let v2 = try ZoneFiles.rules("America/New_York")
        expectNil(v1.footer)
        var rng = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            let t = Double(Int64.random(in: -2_000_000_000...2_100_000_000, using: &rng))
            expectEqual(v1.utcOffset(at: t), v2.utcOffset(at: t))
        }
    }

    @Test func rejectsBrokenFiles() throws {
        let b = try #require(ZoneFiles.bytes("Europe/Berlin"))
        #expect(throws: ZoneRulesError.self) { try ZoneRules(tzif: []) }
        #expect(throws: ZoneRulesError.self) { try ZoneRules(tzif: Array("TZif2".utf8)) }
        for cut in stride(from: 0, to: b.count - 1, by: 37) {
            #expect(throws: ZoneRulesError.self) { try ZoneRules(tzif: Array(b[0..<cut])) }
        }
        var bad = b
        bad[0] = UInt8(ascii: "X")
        #expect(throws: ZoneRulesError.self) { try ZoneRules(tzif: bad) }
        // Random corruption never crashes.
        var rng = SeededRandom(seed: 3)
        for _ in 0..<300 {
            var c = b
            for _ in 0..<4 { c[Int.random(in: 0..<c.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            if let z = try? ZoneRules(tzif: c) { _ = z.utcOffset(at: Double(Int.random(in: -4_000_000_000...4_000_000_000, using: &rng))) }
        }
    }
}
