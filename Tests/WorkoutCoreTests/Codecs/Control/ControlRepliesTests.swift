import Testing
@testable import WorkoutCore

/// `recompute`, `export`, the status sensors and `activities`: what the daemon writes reads back
/// equal with the same types workoutctl renders from.
@Suite struct ControlRepliesTests {
    static func parse(_ w: JSONWriter) throws -> JSON { try JSON.parse(w.bytes) }

    @Test func recomputeRoundTrip() throws {
        let w = RecomputationTests.recorded()
        let r = Recomputation(w, settings: try RecomputationTests.settings([("metrics.autoPauseSeconds", 0)]))
        let reply = RecomputeReply(r, saved: true, settings: ["metrics.autoPauseSeconds=0"], notes: ["a note"])
        let sent = try JSON.parse(JSON.object(JSONObject(reply.members)).serialized())
        expectEqual(sent.objectValue?.keys, ["before", "after", "saved", "settings", "notes"])
        let back = try #require(RecomputeReply(json: sent))
        #expect(back.pauseCounts == (1, 0))
        expectEqual(back.after.movingSeconds, rounded(r.after.summary.movingSeconds, 3))
        #expect(back.saved && back.settings == reply.settings && back.notes == reply.notes)
        // The members are what Recomputation.json() always wrote for the two summaries.
        expectEqual(sent["before"], r.json()["before"])
        expectNil(RecomputeReply(json: ["before": ["id": "x"], "after": .null]), "no readable summaries: no reply")
    }

    @Test func exportRoundTrip() throws {
        let cases: [ExportReply] = [
            ExportReply(format: .gpx, body: .content("<gpx>\"x\"</gpx>\n", base64: false)),
            ExportReply(format: .fit, body: .content(Base64.encode([0, 1, 2, 255]), base64: true)),
            ExportReply(format: .tcx, body: .written(bytes: 1234)),
        ]
        for reply in cases {
            var w = JSONWriter()
            reply.write(to: &w)
            let sent = try Self.parse(w)
            expectEqual(sent["ok"]?.boolValue, true)
            expectEqual(ExportReply(json: sent), reply)
        }
        var w = JSONWriter()
        cases[1].write(to: &w)
        expectEqual(String(decoding: w.bytes, as: UTF8.self), #"{"ok":true,"format":"fit","content":"AAEC/w==","encoding":"base64"}"#)
        expectEqual(cases[1].contentBytes, [0, 1, 2, 255])
        expectEqual(cases[0].contentBytes, Array("<gpx>\"x\"</gpx>\n".utf8))
        expectNil(ExportReply(json: ["ok": true, "format": "fit", "content": "not base64!", "encoding": "base64"]).contentBytes)
    }

    @Test func sensorAndActivityRoundTrip() throws {
        var s = SensorReply(kind: "bluetooth", address: "AA:BB:CC:DD:EE:FF", state: "connected")
        s.name = "HRM-Dual"; s.battery = 80; s.location = "chest"; s.services = ["heart_rate", "battery"]
        s.wheelCircumferenceMm = 2105; s.since = 1_800_000_000; s.problem = nil; s.badMeasurements = 2
        let sent = try JSON.parse(s.json().serialized())
        expectEqual(sent.objectValue?.keys, ["kind", "address", "state", "name", "battery", "location", "services",
                                             "wheelCircumferenceMm", "since", "problem", "badMeasurements"])
        expectEqual(SensorReply(json: sent), s)
        let item = try JSON.parse(ActivityType.cycling.activityReply().serialized())
        expectEqual(ActivityReply(json: item), ActivityReply(name: "cycling", displayName: ActivityType.cycling.displayName,
                                                            supportsGPS: true, effort: ActivityType.cycling.effortDisplay.rawValue))
        expectEqual(ActivityReply.list(["activities": [item, item]]).count, 2)
    }
}
