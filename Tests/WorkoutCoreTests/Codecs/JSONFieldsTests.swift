import Testing
@testable import WorkoutCore

/// One field list writes a reply to a tree and to bytes, the same text, and reads it back.
@Suite struct JSONFieldsTests {
    @Test func bytesTreeAndReadBack() throws {
        var s = SensorReply(kind: "bluetooth", address: "AA:BB", state: "lost")
        s.services = ["heart_rate"]; s.since = 1_800_000_000; s.problem = "out of range \"x\""; s.badMeasurements = 3
        var w = JSONWriter()
        s.write(to: &w)
        expectEqual(String(decoding: w.bytes, as: UTF8.self), s.json().serialized())
        expectEqual(SensorReply(json: try JSON.parse(w.bytes)), s)
        // Written after other members (as inside a status reply's array): commas in place.
        var list = JSONWriter()
        list.array([s, SensorReply()]) { w, r in r.write(to: &w) }
        expectEqual(try JSON.parse(list.bytes).arrayValue?.map(SensorReply.init(json:)), [s, SensorReply()])
    }

    @Test func oddMembersKeepTheStartingValue() {
        let odd: JSON = ["kind": 7, "battery": "full", "services": "none", "since": "yesterday", "badMeasurements": nil]
        expectEqual(SensorReply(json: odd), SensorReply())
        expectEqual(SensorReply(json: "not an object"), SensorReply())
    }
}
