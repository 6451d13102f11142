import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Every deliberate difference from gpsd 3.22, per capture, by kind, with the epochs it concerns
/// (gpsd's time text after its 1024-week move). docs/gps-decoding.md explains each one.
/// Kinds not listed must not occur at all; everything else must agree exactly: same epochs in the
/// same order, lat/lon within 1e-7 deg, altitude to gpsd's 4 decimals, speed to its 3 decimals.
private let expectedDifferences: [String: [NMEAOracle.Kind: [String]]] = [
    "bt451": [
        // gpsd reports the first GLL before the ZDA that dates it (TPV without time), and never
        // reports the last epoch of each segment (no GLL, its learned cycle ender, follows).
        .onlyOurs: ["2029-07-25T15:25:04.500Z", "2029-07-25T15:25:08.500Z", "2029-07-25T14:33:08.500Z"],
        // Time of day drops from 15:25 to 14:33 (segments out of order): gpsd treats any drop as
        // midnight and adds a day until the next ZDA/RMC; we only do so for drops over 12 h.
        .dayShift: ["2029-07-26T14:33:06.000Z"],
    ],
    "bundg_zeus_9": [
        // The receiver's GLL carries the next second's time 25 times; gpsd closes the epoch there and
        // reports it without the GGA that followed (no altitude, RMC's position). We keep the GGA.
        .latlon: bundgGLLAhead, .altitude: bundgGLLAhead,
        // Epochs without RMC/VTG: gpsd derives a speed from consecutive positions; we report none.
        .speedDerived: ["2018-08-20T09:48:34.000Z", "2018-08-20T09:50:04.000Z"],
    ],
    "haicom-305N": [
        // gpsd reported this epoch at its GGA with mode 1, before the GSA (2D) and RMC (A) came.
        .onlyOurs: ["2026-11-22T09:53:04.802Z"],
        // GSA says 2D; gpsd says 3D because the GGA carries an altitude. We keep the GSA mode.
        .mode: ["2026-11-22T09:53:07.801Z"],
    ],
    "humminbird-M37": [
        // gpsd emits no report for the first GLL-only and first GGA-only epoch of the log.
        .onlyOurs: ["2026-05-02T19:41:02.000Z", "2026-05-02T19:41:04.000Z"],
        // GGA-only epochs: gpsd derives a speed from positions, we report none.
        .speedDerived: ["2026-05-02T19:41:08.000Z", "2026-05-02T19:41:12.000Z", "2026-05-02T19:41:16.000Z",
                        "2026-05-02T19:41:20.000Z", "2026-05-02T19:41:24.000Z", "2026-05-02T19:41:14.000Z",
                        "2026-05-02T19:41:18.000Z"],
        // GLL epochs followed by an (untimed) VTG: we take the VTG's speed, gpsd had already
        // reported the epoch with a derived speed before the VTG arrived.
        .speedValue: ["2026-05-02T19:41:06.000Z", "2026-05-02T19:41:10.000Z", "2026-05-02T19:41:14.000Z",
                      "2026-05-02T19:41:18.000Z", "2026-05-02T19:41:22.000Z", "2026-05-02T19:41:12.000Z",
                      "2026-05-02T19:41:16.000Z"],
    ],
    "nl2008u": [:],
    "nmea-rtk": [:],
    "rst39": [
        // gpsd emits no report for the first GGA after the first RMC.
        .onlyOurs: ["2033-10-05T20:41:32.100Z"],
        // 10 Hz GGA with one RMC per second: gpsd derives speed for the GGA-only epochs.
        .speedDerived: rst39Derived,
    ],
    "ublox-lea-4h": [
        .mode: ["2026-03-26T03:08:58.000Z", "2026-03-26T03:08:59.000Z", "2026-03-26T03:09:00.000Z", "2026-03-26T03:09:01.000Z"],
    ],
]

private let bundgGLLAhead: [String] = [16, 17, 21, 22, 23, 25, 26, 27, 28, 33, 34, 35, 36, 37, 38, 39, 43, 44, 45, 46,
                                       47, 50, 51, 52, 53].map { "2018-08-20T09:48:\($0 < 10 ? "0" : "")\($0).000Z" }
private let rst39Derived: [String] = (0..<40).compactMap { k -> String? in
    // 20:41:32.2 ... 20:41:36.0 except the whole seconds 33, 34, 35 (which have an RMC).
    let tenths = 322 + k
    guard tenths <= 360, tenths % 10 != 0 || tenths == 360 else { return nil }
    return "2033-10-05T20:41:\(tenths / 10).\(tenths % 10)00Z"
}

@Suite("NMEA decoder against gpsd 3.22's own output")
struct NMEAOracleTests {
    @Test("fixes equal gpsd's deduplicated TPVs, except the documented differences",
          .requires(.sharedData), arguments: NMEAOracle.captures)
    func oracle(_ name: String) throws {
        let (fixes, _) = NMEAOracle.decode(try NMEAOracle.logBytes(name))
        let gpsd = try NMEAOracle.tpvs(name)
        let (matched, diffs) = NMEAOracle.compare(ours: fixes, gpsd: gpsd)
        let expected = try #require(expectedDifferences[name])
        for kind in NMEAOracle.Kind.allCases {
            let got = diffs.filter { $0.kind == kind }.map(\.time)
            expectEqual(got.sorted(), (expected[kind] ?? []).sorted(), "\(name) \(kind.rawValue): \(diffs.filter { $0.kind == kind })")
        }
        let onlyGpsd = diffs.filter { $0.kind == .onlyGpsd }.count
        let shifted = diffs.filter { $0.kind == .dayShift }.count
        expectEqual(matched + onlyGpsd + shifted, gpsd.count)
        print("NMEA oracle \(name): gpsd epochs \(gpsd.count), ours \(fixes.count), same-time matched \(matched), differences \(diffs.count)")
    }

    @Test("every chunk size from 1 to 64 bytes gives identical fixes", .requires(.sharedData), arguments: NMEAOracle.captures)
    func chunking(_ name: String) throws {
        let bytes = try NMEAOracle.logBytes(name)
        let whole = NMEAOracle.decode(bytes)
        #expect(!whole.fixes.isEmpty)
        for size in 1...64 {
            let chunked = NMEAOracle.decode(bytes, chunk: size)
            expectEqual(chunked.fixes, whole.fixes, "chunk size \(size)")
            expectEqual(chunked.stats, whole.stats, "chunk size \(size)")
        }
    }

    @Test("decodeAll counts sentences and fixes", .requires(.sharedData))
    func decodeAll() throws {
        let bytes = try NMEAOracle.logBytes("bundg_zeus_9")
        let r = NMEADecoder.decodeAll(bytes)
        expectEqual(r.fixes, 148)
        expectEqual(r.sentences, 4999)
    }

    @Test("diagnostic dump", .requires(.sharedData, .optIn(variable: "NMEA_DUMP", why: "a diagnostic dump, only on request", command: "NMEA_DUMP=1 swift test --filter NMEAOracleTests")))
    func dump() throws {
        for name in NMEAOracle.captures {
            let (fixes, stats) = NMEAOracle.decode(try NMEAOracle.logBytes(name))
            let gpsd = try NMEAOracle.tpvs(name)
            let (matched, diffs) = NMEAOracle.compare(ours: fixes, gpsd: gpsd)
            print("== \(name): ours \(fixes.count) gpsd \(gpsd.count) matched \(matched) stats \(stats)")
            for d in diffs { print("   \(d)") }
        }
    }
}
