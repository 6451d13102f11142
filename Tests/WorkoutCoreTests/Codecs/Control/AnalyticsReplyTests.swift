import Testing
@testable import WorkoutCore

/// `fitness`, `power-curve` and `records` replies: what the daemon writes reads back equal with
/// the same types workoutctl renders from.
@Suite struct AnalyticsReplyTests {
    static func sent(_ members: [(String, JSON)]) throws -> JSON {
        try JSON.parse(JSON.object(JSONObject(members)).serialized())
    }

    @Test func fitnessRoundTripKeepsTheSentForm() throws {
        let loads: [StreakDay: Double] = [StreakDay(iso: "2026-05-01")!: 87.4, StreakDay(iso: "2026-05-03")!: 120.06]
        let days = FitnessModel.days(loads: loads, from: StreakDay(iso: "2026-04-30")!, to: StreakDay(iso: "2026-05-20")!)
        let reply = FitnessReply(days: days, today: StreakDay(iso: "2026-05-20"))
        let back = FitnessReply(json: try Self.sent(reply.members))
        expectEqual(back.today, reply.today)
        expectEqual(back.days.map(\.date), days.map(\.date))
        // The form read back is the one sent: rounded from the exact difference.
        expectEqual(back.days.map(\.form), days.map { rounded($0.form, 1) })
        expectEqual(back.days.map(\.load), days.map { rounded($0.load, 1) })
        expectEqual(FitnessReply(json: ["days": [["date": "not a day"]]]).days, [], "a day that does not read is left out")
    }

    @Test func powerCurveRoundTrip() throws {
        let id = WorkoutID(rawValue: "2026-05-01T07-00-00Z")!
        let curve = [5, 120, 300, 600, 1200].map { RangePowerPoint(seconds: $0, watts: 250 + 20_000 / Double($0), id: id, startedAt: 1_777_618_800) }
        var reply = PowerCurveReply(curve: curve)
        reply.workouts = 3; reply.measured = 1; reply.unreadable = [id]
        #expect(reply.criticalPower != nil && reply.estimatedFTP != nil, "the model fits these points")
        let sent = try Self.sent(reply.members)
        expectEqual(sent.objectValue?.keys, ["curve", "criticalPower", "wPrime", "eFTP", "workouts", "measured", "unreadable"])
        var back = PowerCurveReply(json: sent)
        expectEqual(back.curve.map(\.seconds), curve.map(\.seconds))
        back.curve = reply.curve  // watts are rounded on the wire
        expectEqual(back, reply)
        let none = PowerCurveReply(json: try Self.sent(PowerCurveReply(curve: []).members))
        #expect(none.criticalPower == nil && none.wPrime == nil && none.estimatedFTP == nil)
    }

    @Test func recordsRoundTrip() throws {
        let id = WorkoutID(rawValue: "2026-05-01T07-00-00Z")!
        let reply = RecordsReply(records: [
            TrainingRecord(activity: .running, best: .distance(meters: 5000, seconds: 1234.5), id: id, startedAt: 1_777_618_800),
            TrainingRecord(activity: .cycling, best: .power(seconds: 300, watts: 312.4), id: id, startedAt: 1_777_618_800),
        ])
        let sent = try Self.sent(reply.members)
        expectEqual(sent["records"]?.arrayValue?[0].objectValue?.keys, ["activity", "kind", "distanceMeters", "seconds", "id", "startedAt"])
        expectEqual(sent["records"]?.arrayValue?[1].objectValue?.keys, ["activity", "kind", "seconds", "watts", "id", "startedAt"])
        expectEqual(RecordsReply(json: sent), reply)
        expectEqual(RecordsReply(json: ["records": [["activity": "running", "kind": "jumping"]]]).records, [], "an odd record is left out")
    }
}
