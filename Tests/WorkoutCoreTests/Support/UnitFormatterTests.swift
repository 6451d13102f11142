import Testing
@testable import WorkoutCore

@Suite struct UnitFormatterTests {
    let m = UnitFormatter.metric
    let i = UnitFormatter.imperial

    @Test func distances() {
        expectEqual(m.distance(2134.6), "2.13 km")
        expectEqual(i.distance(2134.6), "1.33 mi")
        expectEqual(i.distance(1609.344), "1.00 mi")
        expectEqual(i.distance(42_195), "26.22 mi")
        expectEqual(i.distance(-3), "0.00 mi")
        expectEqual(i.distance(.nan), "0.00 mi")
        expectEqual(i.distance(.infinity), "0.00 mi")
    }

    @Test func pacesAndSpeeds() {
        expectEqual(m.pace(speed: 2.9586), "5:38 /km")
        expectEqual(i.pace(speed: 2.9586), "9:04 /mi")     // 1609.344 / 2.9586 = 543.95 s
        expectEqual(i.pace(speed: 3.125), "8:35 /mi")
        expectEqual(i.pace(speed: 0), "-:-- /mi")
        expectEqual(i.pace(speed: nil), "-:-- /mi")
        expectEqual(i.pace(speed: .nan), "-:-- /mi")
        expectEqual(i.pace(speed: 0.4), "1:07:03 /mi")     // 4023 s per mile
        expectEqual(m.speed(6.7056), "24.1 km/h")
        expectEqual(i.speed(6.7056), "15.0 mph")
        expectEqual(i.speed(4.1), "9.2 mph")
        expectEqual(i.speed(nil), "-- mph")
        expectEqual(i.speed(-1), "0.0 mph")
    }

    @Test func elevationAndTemperature() {
        expectEqual(m.elevation(12.4), "12 m")
        expectEqual(i.elevation(12.4), "41 ft")            // 40.68 ft
        expectEqual(i.elevation(-30.48), "-100 ft")
        expectEqual(i.elevation(.nan), "0 ft")
        expectEqual(m.temperature(celsius: 21), "21 °C")
        expectEqual(i.temperature(celsius: 21), "70 °F")   // 69.8
        expectEqual(i.temperature(celsius: -40), "-40 °F")
    }

    @Test func effortFollowsTheActivity() {
        expectEqual(i.effort(3.125, for: .running), "8:35 /mi")
        expectEqual(i.effort(6.7056, for: .cycling), "15.0 mph")
        expectNil(i.effort(1, for: .yoga))
        expectEqual(UnitFormatter.effortLabel(for: .running), "Pace")
        expectEqual(UnitFormatter.effortLabel(for: .cycling), "Speed")
    }

    @Test func bestEffortNames() {
        expectEqual(UnitFormatter.bestEffortName(400), "400 m")
        expectEqual(UnitFormatter.bestEffortName(1000), "1 km")
        expectEqual(UnitFormatter.bestEffortName(1609.344), "1 mile")
        expectEqual(UnitFormatter.bestEffortName(5000), "5 km")
        expectEqual(UnitFormatter.bestEffortName(21097.5), "half marathon")
        expectEqual(UnitFormatter.bestEffortName(42195), "marathon")
        expectEqual(UnitFormatter.bestEffortName(.nan), "0 m")
    }

    @Test func habitDistancesLeftFollowTheUnits() {
        let h = Habit(name: "miles", target: .distance(meters: 10_000), per: .week)
        expectEqual(HabitText.left(h, 3218.688), "3.2 km")
        expectEqual(HabitText.left(h, 3218.688, units: .imperial), "2.0 mi")
    }
}
