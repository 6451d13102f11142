import Testing
import WorkoutCore
@testable import WorkoutClient

@Suite struct UnitsTests {
    @Test func durations() {
        #expect(Units.duration(0) == "0:00:00")
        #expect(Units.duration(59.9) == "0:00:59")
        #expect(Units.duration(61) == "0:01:01")
        #expect(Units.duration(3600) == "1:00:00")
        #expect(Units.duration(36_000 + 754) == "10:12:34")
        #expect(Units.duration(100 * 3600 + 5) == "100:00:05")
        #expect(Units.duration(-5) == "0:00:00")
        #expect(Units.duration(.nan) == "0:00:00")
        #expect(Units.duration(.infinity) == "0:00:00")
        #expect(Units.shortDuration(305) == "5:05")
        #expect(Units.shortDuration(3725) == "1:02:05")
    }

    @Test func distances() {
        #expect(UnitFormatter.metric.distance(0) == "0.00 km")
        #expect(UnitFormatter.metric.distance(5) == "0.01 km")
        #expect(UnitFormatter.metric.distance(4) == "0.00 km")
        #expect(UnitFormatter.metric.distance(2134.6) == "2.13 km")
        #expect(UnitFormatter.metric.distance(42_195) == "42.20 km")
        #expect(UnitFormatter.metric.distance(123_456_789) == "123456.79 km")
        #expect(UnitFormatter.metric.distance(-3) == "0.00 km")
        #expect(UnitFormatter.metric.distance(.nan) == "0.00 km")
    }

    @Test func pace() {
        #expect(UnitFormatter.metric.pace(speed: 1000.0 / 338) == "5:38 /km")
        #expect(UnitFormatter.metric.pace(speed: 1000.0 / 359.6) == "6:00 /km")  // rounds, never "5:60"
        #expect(UnitFormatter.metric.pace(speed: 1000.0 / 180) == "3:00 /km")
        #expect(UnitFormatter.metric.pace(speed: 0.2) == "1:23:20 /km")  // very slow: an hour or more per km
        #expect(UnitFormatter.metric.pace(speed: 0) == "-:-- /km")
        #expect(UnitFormatter.metric.pace(speed: 0.05) == "-:-- /km")
        #expect(UnitFormatter.metric.pace(speed: nil) == "-:-- /km")
        #expect(UnitFormatter.metric.pace(speed: .nan) == "-:-- /km")
        #expect(UnitFormatter.metric.pace(speed: -1) == "-:-- /km")
    }

    @Test func speed() {
        #expect(UnitFormatter.metric.speed(6.75) == "24.3 km/h")
        #expect(UnitFormatter.metric.speed(0) == "0.0 km/h")
        #expect(UnitFormatter.metric.speed(nil) == "-- km/h")
        #expect(UnitFormatter.metric.speed(-2) == "0.0 km/h")
    }

    @Test func effortFollowsTheActivity() {
        #expect(UnitFormatter.metric.effort(1000.0 / 300, for: .running) == "5:00 /km")
        #expect(UnitFormatter.metric.effort(1000.0 / 300, for: .walking) == "5:00 /km")
        #expect(UnitFormatter.metric.effort(10, for: .cycling) == "36.0 km/h")
        #expect(UnitFormatter.metric.effort(10, for: .yoga) == nil)
        #expect(UnitFormatter.effortLabel(for: .running) == "Pace")
        #expect(UnitFormatter.effortLabel(for: .cycling) == "Speed")
        #expect(UnitFormatter.effortLabel(for: .strength) == nil)
        // Every activity gets a consistent answer.
        for a in ActivityType.allCases { #expect((UnitFormatter.metric.effort(3, for: a) == nil) == (UnitFormatter.effortLabel(for: a) == nil)) }
    }

    @Test func localClock() {
        let t = ISO8601.parse("2026-11-21T09:30:05Z")!
        #expect(LocalClock.utc.dateTime(t) == "2026-11-21 09:30")
        #expect(LocalClock.utc.timeOfDay(t) == "09:30:05")
        let berlin = LocalClock { _ in 3600 }
        #expect(berlin.dateTime(t) == "2026-11-21 10:30")
        let lateUTC = ISO8601.parse("2026-11-21T23:30:00Z")!
        #expect(berlin.dateTime(lateUTC) == "2026-11-22 00:30")
    }
}
