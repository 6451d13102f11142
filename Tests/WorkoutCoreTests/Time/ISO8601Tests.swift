import Testing
@testable import WorkoutCore

@Suite struct ISO8601Tests {
    @Test func formatsAndParses() {
        expectEqual(ISO8601.format(0), "1970-01-01T00:00:00Z")
        expectEqual(ISO8601.format(1_700_000_000.25, fractionDigits: 3), "2023-11-14T22:13:20.250Z")
        expectEqual(ISO8601.parse("2023-11-14T22:13:20.250Z"), 1_700_000_000.25)
        expectEqual(ISO8601.parse("2023-11-14T23:13:20+01:00"), 1_700_000_000)
        expectNil(ISO8601.parse("2023-02-30T00:00:00Z"))
        expectNil(ISO8601.parse("yesterday"))
    }

    @Test func civilDaysRoundTripOverFourCenturies() {
        for days in stride(from: -200_000, through: 200_000, by: 97) {
            let c = CivilTime.civilFromDays(days)
            expectEqual(CivilTime.daysFromCivil(year: c.year, month: c.month, day: c.day), days)
        }
        expectEqual(CivilTime.weekday(ofDay: 0), 4)
    }

    /// Issue 26, item 9: the seconds were clamped to 59 before the date was validated, so
    /// :60-:99 all parsed (as :59); a leap second (:60) is still read, as :59.
    @Test func secondsAreValidatedBeforeALeapSecondIsClamped() {
        for bad in ["2023-11-14T22:13:61Z", "2023-11-14T22:13:99Z", "2023-11-14T22:13:75.5Z", "2023-11-14T22:60:00Z", "2023-11-14T24:00:00Z"] {
            expectNil(ISO8601.parse(bad), "\(bad)")
        }
        expectEqual(ISO8601.parse("2016-12-31T23:59:60Z"), ISO8601.parse("2016-12-31T23:59:59Z"))
        expectEqual(ISO8601.parse("2016-12-31T23:59:60.5Z"), ISO8601.parse("2016-12-31T23:59:59.5Z"))
    }

    /// Issue 26, item 9: offsets were not range-checked (+99:99 moved a time by four days) and a
    /// colon with no minutes after it was accepted.
    @Test func offsetsAreRangeChecked() {
        let utc = 1_700_000_000.0
        expectEqual(ISO8601.parse("2023-11-15T03:43:20+05:30"), utc)
        expectEqual(ISO8601.parse("2023-11-15T03:43:20+0530"), utc)
        expectEqual(ISO8601.parse("2023-11-14T17:13:20-05"), utc)
        expectEqual(ISO8601.parse("2023-11-14T22:13:20+00:00"), utc)
        expectEqual(ISO8601.parse("2023-11-15T22:12:20+23:59"), utc)
        for bad in ["2023-11-14T22:13:20+24:00", "2023-11-14T22:13:20+99:99", "2023-11-14T22:13:20+05:60",
                    "2023-11-14T22:13:20+05:", "2023-11-14T22:13:20+5", "2023-11-14T22:13:20+05:3", "2023-11-14T22:13:20-0560"] {
            expectNil(ISO8601.parse(bad), "\(bad)")
        }
    }
}
