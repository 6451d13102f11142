import Testing
@testable import WorkoutCore

/// The `streak` reply is typed once: what the daemon writes, workoutctl reads back the same.
@Suite struct StreakReplyTests {
    static let reply = StreakReply(
        daily: .init(current: 5, best: 12, currentStart: "2026-11-17", currentEnd: "2026-11-21", bestStart: "2026-10-01",
                     bestEnd: "2026-10-12", todayDone: true, restDaysUsed: 1),
        weekly: .init(current: 1, best: 3, currentStart: "2026-11-16", bestStart: "2026-09-01", bestEnd: nil, workoutsThisWeek: 2, target: 1),
        today: "2026-11-21", timeZone: "Europe/Berlin",
        habits: [.init(name: "run 20 km", per: "week", activities: ["running"], kind: "distance", target: 20_000, progress: 12_500.5,
                       left: 7_499.5, leftText: "7.5 km left", done: false, dueToday: true, daysToGo: 2, periodStart: "2026-11-16",
                       periodEnd: "2026-11-22", current: 3, best: 4, currentStart: "2026-10-26", currentEnd: "2026-11-15",
                       bestStart: nil, bestEnd: nil, skipsUsed: 0, skipAvailable: true, atRisk: false)])

    @Test func encodeThenDecodeIsEqual() throws {
        let text = Self.reply.json().serialized()
        expectEqual(StreakReply(json: try JSON.parse(Array(text.utf8))), Self.reply)
        let empty = StreakReply(daily: nil, weekly: nil, today: nil, timeZone: nil, habits: [])
        expectEqual(StreakReply(json: empty.json()), empty)
    }

    @Test func keysStayInTheDaemonsOrder() {
        let text = Self.reply.json().serialized()
        #expect(text.hasPrefix(#"{"daily":{"current":5,"best":12,"currentStart":"2026-11-17","currentEnd":"2026-11-21","bestStart""#), "\(text)")
        #expect(text.contains(#""skipsUsed":0,"skipAvailable":true,"atRisk":false}]}"#), "\(text)")
    }

    @Test func anOlderReplyStillReads() {
        let r = StreakReply(json: ["daily": ["current": 0, "best": 0], "habits": [["name": "yoga"]]])
        #expect(r.daily?.todayDone == nil && r.weekly == nil && r.habits.first?.dueToday == nil && r.habits.first?.leftText == nil)
    }
}
