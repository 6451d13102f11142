import Testing
@testable import WorkoutCore

@Suite struct StreakReportTests {
    static func w(_ s: String, minutes: Double = 30) -> StreakWorkout {
        StreakWorkout(startedAt: ISO8601.parse(s)!, durationSeconds: minutes * 60)
    }
    let calc = StreakCalculator(zone: .utc)

    @Test func startExtendAndNewBest() {
        let now = ISO8601.parse("2026-11-20T20:00:00Z")!
        // First ever workout: started, no "new best" (nothing to beat).
        var r = StreakReport(saving: Self.w("2026-11-20T07:00:00Z"), into: [], now: now, calculator: calc)
        #expect(r.daily == .started && r.weekly == .started && !r.dailyNewBest && !r.weeklyNewBest)
        expectEqual(r.events.map(\.name), ["streak.started", "streak.started"])
        // Yesterday done, today saved: extended and past the best of 1.
        let h = [Self.w("2026-11-19T07:00:00Z")]
        r = StreakReport(saving: Self.w("2026-11-20T07:00:00Z"), into: h, now: now, calculator: calc)
        #expect(r.daily == .extended && r.dailyNewBest && r.weekly == .unchanged)
        expectEqual(r.events, [.extended(.daily(r.after.currentDaily!), previous: 1), .newBest(.daily(r.after.bestDaily!), previous: 1)])
        // A second workout on the same day changes nothing.
        r = StreakReport(saving: Self.w("2026-11-20T18:00:00Z"), into: h + [Self.w("2026-11-20T07:00:00Z")], now: now, calculator: calc)
        #expect(r.daily == .unchanged && !r.dailyNewBest && r.events.isEmpty)
        // Too short: nothing, and says so.
        r = StreakReport(saving: Self.w("2026-11-20T07:00:00Z", minutes: 5), into: h, now: now, calculator: calc)
        #expect(!r.qualifies && r.events.isEmpty)
    }

    @Test func importedWorkoutFillingAGapExtends() {
        let now = ISO8601.parse("2026-11-20T20:00:00Z")!
        let h = ["16", "17", "19", "20"].map { Self.w("2026-11-\($0)T07:00:00Z") }
        let r = StreakReport(saving: Self.w("2026-11-18T07:00:00Z"), into: h, now: now, calculator: calc)
        expectEqual(r.daily, .extended)
        expectEqual(r.after.currentDaily?.days, 5)
        expectEqual(r.day.iso, "2026-11-18")
    }

    @Test func weeklyExtendedAndBest() {
        let now = ISO8601.parse("2026-11-20T20:00:00Z")!
        let h = [Self.w("2026-11-10T07:00:00Z")]
        let r = StreakReport(saving: Self.w("2026-11-17T07:00:00Z"), into: h, now: now, calculator: calc)
        #expect(r.weekly == .extended && r.weeklyNewBest)
        expectEqual(r.after.currentWeekly?.weeks, 2)
    }
}
