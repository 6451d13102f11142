import Testing
@testable import WorkoutCore

/// An import result is typed once: what the daemon writes, workoutctl reads back the same.
@Suite struct ImportResultReplyTests {
    @Test func encodeThenDecodeIsEqual() throws {
        let results = [
            ImportResultReply(file: "/a.fit", kind: .imported, id: WorkoutID(rawValue: "20261121T093000Z-3f9a"), activity: .cycling, error: nil,
                              warnings: ["no heart rate"]),
            ImportResultReply(file: "/b.gpx", kind: .duplicate, id: WorkoutID(rawValue: "20261121T093000Z-3f9a"), activity: nil, error: nil),
            ImportResultReply(file: "/c.txt", kind: .error, id: nil, activity: nil, error: "not GPX, TCX or NMEA"),
        ]
        for r in results {
            for event in [false, true] {
                expectEqual(ImportResultReply(json: try JSON.parse(Array(r.json(event: event).serialized().utf8))), r)
            }
        }
        #expect(results[0].json(event: true).serialized().hasPrefix(#"{"event":"import","file":"/a.fit","id":"#))
    }

    @Test func anOddItemReadsAsAnError() {
        let r = ImportResultReply(json: ["result": "exploded"])
        #expect(r.kind == .error && r.file == "?" && r.id == nil)
    }
}
