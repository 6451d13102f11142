import Testing
@testable import WorkoutCore

@Suite struct SensorRatesTests {
    @Test func cscGivesSpeedDistanceAndCadence() {
        var r = SensorRates(wheelCircumference: 2.105)
        func csc(_ w: UInt32, _ we: UInt16, _ c: UInt32, _ ce: UInt16) -> CSCMeasurement {
            CSCMeasurement(wheel: RevolutionData(revolutions: w, eventTime: we, ticksPerSecond: 1024),
                           crank: RevolutionData(revolutions: c, eventTime: ce, ticksPerSecond: 1024))
        }
        expectEqual(r.speedCadence(csc(100, 0, 7, 0), at: 0), SensorReading(distance: 0))
        // 4 wheel revolutions in 1 s: 8.42 m, 8.42 m/s; 1.5 crank revolutions ~ 1 in 683 ticks
        let s = r.speedCadence(csc(104, 1024, 8, 683), at: 1)
        expectEqual(s.distance, 4 * 2.105)
        expectEqual(s.speed.map { ($0 - 8.42).magnitude < 1e-9 }, true)
        expectEqual(s.cadence.map { ($0 - 89.95).magnitude < 0.01 }, true)
        // no new wheel event for 3 s: 0 m/s
        expectEqual(r.speedCadence(csc(104, 1024, 8, 683), at: 4).speed, 0)
    }

    @Test func powerMeterGivesPowerAndCrankCadenceNegativePowerIsZero() {
        var r = SensorRates()
        var m = CyclingPowerMeasurement(watts: 250)
        m.crank = RevolutionData(revolutions: 1, eventTime: 0, ticksPerSecond: 1024)
        expectEqual(r.power(m, at: 0), SensorReading(power: 250))
        m.watts = -5
        m.crank = RevolutionData(revolutions: 2, eventTime: 683, ticksPerSecond: 1024)
        let s = r.power(m, at: 0.7)
        #expect(s.power == 0 && s.cadence.map { Int($0.rounded()) } == 90)
    }

    @Test func footpodDistanceFromTheTotalAcrossItsWrapElseFromSpeed() {
        var r = SensorRates()
        let a = r.running(RSCMeasurement(speed256: 853, cadence: 170, totalDistanceDecimetres: .max - 9), at: 0)
        #expect(a.distance == 0 && a.cadence == 85 && a.speed == 853.0 / 256)  // 170 steps/min: 85 strides/min
        expectEqual(r.running(RSCMeasurement(speed256: 853, cadence: 170, totalDistanceDecimetres: 23), at: 1).distance, 3.3)
        // a reset (the total jumped back): nothing added
        expectEqual(r.running(RSCMeasurement(speed256: 853, cadence: 170, totalDistanceDecimetres: 5), at: 2).distance, 0)
        var s = SensorRates()
        expectEqual(s.running(RSCMeasurement(speed256: 768, cadence: 160), at: 10).distance, 0)
        expectEqual(s.running(RSCMeasurement(speed256: 512, cadence: 160), at: 12).distance, 6)  // 3 m/s x 2 s
        expectEqual(s.running(RSCMeasurement(speed256: 512, cadence: 160), at: 30).distance, 10)  // at most 5 s of it
    }
}
