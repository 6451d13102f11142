import Testing
@testable import WorkoutCore

@Suite struct ISO8601Tests {
    @Test func formatsAndParses() {
        #expect(ISO8601.format(0) == "1970-01-01T00:00:00Z")
        #expect(ISO8601.format(1_700_000_000.25, fractionDigits: 3) == "2023-11-14T22:13:20.250Z")
        #expect(ISO8601.parse("2023-11-14T22:13:20.250Z") == 1_700_000_000.25)
        #expect(ISO8601.parse("2023-11-14T23:13:20+01:00") == 1_700_000_000)
        #expect(ISO8601.parse("2023-02-30T00:00:00Z") == nil)
        #expect(ISO8601.parse("yesterday") == nil)
    }

    @Test func civilDaysRoundTripOverFourCenturies() {
        for days in stride(from: -200_000, through: 200_000, by: 97) {
            let c = CivilTime.civilFromDays(days)
            #expect(CivilTime.daysFromCivil(year: c.year, month: c.month, day: c.day) == days)
        }
        #expect(CivilTime.weekday(ofDay: 0) == 4)
    }
}
