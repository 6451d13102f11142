import Testing
@testable import WorkoutCore

@Suite struct DistanceTallyTests {
    @Test func theTrackCountsUntilAnOdometerReadsThenIsKeptBeside() {
        var d = DistanceTally()
        d.addTrack(100)
        expectEqual(d.total, 100)
        expectEqual(d.read(OdometerReading(time: 1, meters: 40), source: .device, counting: true), 40)
        d.addTrack(50)
        expectEqual(d.track, 150)
        expectEqual(d.total, 140, "the odometer's from its first reading on")
        expectEqual(d.odometer?.source, .device)
    }

    @Test func aPausedReadingMovesTheBaseOnly() {
        var d = DistanceTally()
        _ = d.read(OdometerReading(time: 1, meters: 100), source: .device, counting: true)
        expectEqual(d.read(OdometerReading(time: 2, meters: 300), source: .device, counting: false), 0)
        expectEqual(d.read(OdometerReading(time: 3, meters: 350), source: .device, counting: true), 50)
        expectEqual(d.total, 150)
        expectEqual(d.odometer?.readings.count, 3)
    }

    @Test func aSensorAddsOnlyWithoutAnOdometer() {
        var d = DistanceTally()
        expectEqual(d.addSensor(5), true)
        expectEqual(d.addSensor(0), false)
        expectEqual(d.addSensor(nil), false)
        d.reserveOdometer(10, source: .device)
        expectEqual(d.addSensor(5), false)
        expectEqual(d.total, 5)
    }
}
