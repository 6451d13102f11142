import Testing
@testable import WorkoutCore

/// `distanceSource`, `gpsDistanceMeters` and `multisport` (with `multisportLeg`/`multisportLegs`)
/// in the summary JSON: the tree and the direct writer agree, and a summary reads back the same.
@Suite struct SummaryDeviceKeysTests {
    static func summary() -> WorkoutSummary {
        WorkoutSummary(id: WorkoutID(start: 1_550_384_804, suffix: 7), activity: .cycling, startedAt: 1_550_384_804,
                       endedAt: 1_550_408_399, elapsedSeconds: 13_471, distanceMeters: 78_941.12)
    }

    static func written(_ s: WorkoutSummary) -> String {
        var w = JSONWriter()
        var cache = SummaryJSONCache()
        s.writeJSON(to: &w, cache: &cache)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test func aGPSWorkoutSaysGPSAndNoLeg() throws {
        let s = Self.summary()
        let j = s.json()
        expectEqual(j["distanceSource"]?.stringValue, "gps")
        expectEqual(j["gpsDistanceMeters"], .null)
        expectEqual(j["multisport"], .null)
        expectNil(j["multisportLeg"])
        expectEqual(Self.written(s), j.serialized())
        expectEqual(WorkoutSummary(json: j), s)
    }

    @Test func aDeviceLegKeepsItsSourceGeodesicAndEvent() throws {
        var s = Self.summary()
        s.distanceSource = .device
        s.gpsDistanceMeters = 81_110.5
        s.multisport = MultisportLeg(event: WorkoutID(start: 1_550_380_000, suffix: 9), leg: 3, legs: 5)
        let j = s.json()
        expectEqual(j["distanceSource"]?.stringValue, "device")
        expectEqual(j["gpsDistanceMeters"]?.doubleValue, 81_110.5)
        expectEqual(j["multisport"]?.stringValue, WorkoutID(start: 1_550_380_000, suffix: 9).rawValue)
        #expect(j["multisportLeg"]?.intValue == 3 && j["multisportLegs"]?.intValue == 5)
        expectEqual(Self.written(s), j.serialized())
        let back = try #require(WorkoutSummary(json: try JSON.parse(Array(j.serialized().utf8))))
        expectEqual(back, s)
    }

    @Test func aDamagedLegIsNoLeg() throws {
        var s = Self.summary()
        s.multisport = MultisportLeg(event: s.id, leg: 4, legs: 3)
        expectNil(WorkoutSummary(json: s.json())?.multisport)
    }
}
