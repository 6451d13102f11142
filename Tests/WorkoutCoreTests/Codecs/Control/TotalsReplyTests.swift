import Testing
@testable import WorkoutCore

/// The `totals` reply is typed once: what the daemon writes (`PeriodTotals.json()`), workoutctl
/// reads back the same.
@Suite struct TotalsReplyTests {
    @Test func encodeThenDecodeIsEqual() throws {
        var run = WorkoutSummary(id: WorkoutID(rawValue: "20261117T070000Z-0001")!, activity: .running, startedAt: 1_795_417_200)
        run.distanceMeters = 10_000.125; run.movingSeconds = 3_000.5; run.elevationGainMeters = 42.25; run.gear = "Shoes"
        let totals = PeriodTotals(summaries: [run], per: .week, activity: .running, now: 1_795_500_000, calendar: HabitCalendar(zone: .utc))
        #expect(totals.current.count == 1 && totals.gear.count == 1)
        let text = totals.json().serialized()
        expectEqual(PeriodTotals(json: try JSON.parse(Array(text.utf8))), totals)
    }

    @Test func aReplyWithoutItsPeriodsIsNil() {
        expectNil(PeriodTotals(json: ["per": "week"]))
        expectNil(PeriodTotals(json: ["per": "fortnight", "current": ["start": "2026-11-16", "end": "2026-11-22"],
                                      "previous": ["start": "2026-11-09", "end": "2026-11-15"]]))
    }
}
