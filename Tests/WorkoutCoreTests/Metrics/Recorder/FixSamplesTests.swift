import Testing
@testable import WorkoutCore

@Suite struct FixSamplesTests {
    @Test func heartRatePowerAndCadenceAreCountedAsTheFixesCarryThem() {
        var s = FixSamples(ftp: 250)
        s.add(heartRate: 120)
        s.add(heartRate: 140)
        s.add(countedPower: 200, countedCadence: 90, at: 0)
        s.add(countedPower: nil, countedCadence: nil, at: 1)
        s.add(countedPower: 0, countedCadence: 80, at: 2)
        expectEqual(s.heartRate.average, 130)
        expectEqual(s.heartRate.maximum, 140)
        expectEqual(s.power.count, 2, "zeros count, a missing value does not")
        expectEqual(s.power.average, 100)
        expectEqual(s.cadence.average, 85)
    }

    @Test func heldPowerEndsAtAPause() {
        var paused = FixSamples(ftp: 250), unpaused = FixSamples(ftp: 250)
        for t in 0..<10 {
            paused.add(countedPower: 200, countedCadence: nil, at: Double(t))
            unpaused.add(countedPower: 200, countedCadence: nil, at: Double(t))
        }
        paused.end(at: 10)
        paused.add(countedPower: 200, countedCadence: nil, at: 100)
        unpaused.add(countedPower: 200, countedCadence: nil, at: 100)
        let work = paused.held.finished(at: 100).work
        #expect(abs(work - 2000) < 1, "10 s at 200 W, nothing held across the pause: \(work)")
        #expect(unpaused.held.finished(at: 100).work > work, "without the pause the last value is held on")
    }
}
