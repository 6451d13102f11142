import Testing
@testable import WorkoutCore

@Suite struct UnitFormatterTests {
    let m = UnitFormatter.metric
    let i = UnitFormatter.imperial

    @Test func distances() {
        #expect(m.distance(2134.6) == "2.13 km")
        #expect(i.distance(2134.6) == "1.33 mi")
        #expect(i.distance(1609.344) == "1.00 mi")
        #expect(i.distance(42_195) == "26.22 mi")
        #expect(i.distance(-3) == "0.00 mi")
        #expect(i.distance(.nan) == "0.00 mi")
        #expect(i.distance(.infinity) == "0.00 mi")
    }

    @Test func pacesAndSpeeds() {
        #expect(m.pace(speed: 2.9586) == "5:38 /km")
        #expect(i.pace(speed: 2.9586) == "9:04 /mi")     // 1609.344 / 2.9586 = 543.95 s
        #expect(i.pace(speed: 3.125) == "8:35 /mi")
        #expect(i.pace(speed: 0) == "-:-- /mi")
        #expect(i.pace(speed: nil) == "-:-- /mi")
        #expect(i.pace(speed: .nan) == "-:-- /mi")
        #expect(i.pace(speed: 0.4) == "1:07:03 /mi")     // 4023 s per mile
        #expect(m.speed(6.7056) == "24.1 km/h")
        #expect(i.speed(6.7056) == "15.0 mph")
        #expect(i.speed(4.1) == "9.2 mph")
        #expect(i.speed(nil) == "-- mph")
        #expect(i.speed(-1) == "0.0 mph")
    }

    @Test func elevationAndTemperature() {
        #expect(m.elevation(12.4) == "12 m")
        #expect(i.elevation(12.4) == "41 ft")            // 40.68 ft
        #expect(i.elevation(-30.48) == "-100 ft")
        #expect(i.elevation(.nan) == "0 ft")
        #expect(m.temperature(celsius: 21) == "21 °C")
        #expect(i.temperature(celsius: 21) == "70 °F")   // 69.8
        #expect(i.temperature(celsius: -40) == "-40 °F")
    }

    @Test func effortFollowsTheActivity() {
        #expect(i.effort(3.125, for: .running) == "8:35 /mi")
        #expect(i.effort(6.7056, for: .cycling) == "15.0 mph")
        #expect(i.effort(1, for: .yoga) == nil)
        #expect(UnitFormatter.effortLabel(for: .running) == "Pace")
        #expect(UnitFormatter.effortLabel(for: .cycling) == "Speed")
    }

    @Test func bestEffortNames() {
        #expect(UnitFormatter.bestEffortName(400) == "400 m")
        #expect(UnitFormatter.bestEffortName(1000) == "1 km")
        #expect(UnitFormatter.bestEffortName(1609.344) == "1 mile")
        #expect(UnitFormatter.bestEffortName(5000) == "5 km")
        #expect(UnitFormatter.bestEffortName(21097.5) == "half marathon")
        #expect(UnitFormatter.bestEffortName(42195) == "marathon")
        #expect(UnitFormatter.bestEffortName(.nan) == "0 m")
    }

    @Test func habitDistancesLeftFollowTheUnits() {
        let h = Habit(name: "miles", target: .distance(meters: 10_000), per: .week)
        #expect(HabitText.left(h, 3218.688) == "3.2 km")
        #expect(HabitText.left(h, 3218.688, units: .imperial) == "2.0 mi")
    }
}
