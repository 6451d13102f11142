import Testing
@testable import WorkoutCore

@Suite struct IntervalTrackerTests {
    func snap(_ t: Double, _ d: Double) -> RecorderSnapshot {
        RecorderSnapshot(time: t, elapsed: t, moving: t, distance: d, gain: 0)
    }

    @Test func splitsAndAutoLapsAreCutAtTheInterpolatedInstant() {
        var iv = IntervalTracker(startedAt: 0, splitUnit: 1000, autoLapDistance: 500, caloriesPerHour: 3600)
        var out: [RecorderEvent] = []
        iv.advance(to: snap(100, 400), into: &out)
        #expect(out.isEmpty)
        iv.advance(to: snap(200, 1200), into: &out)  // crosses 500 and 1000
        expectEqual(iv.laps.map(\.endTime), [112.5, 175])
        expectEqual(iv.splits.map(\.endTime), [175])
        expectEqual(iv.splits.first?.calories, 175)  // 3600 kcal/h x 175 s
        expectEqual(out.count, 3)
    }

    @Test func manualLapAndFinish() {
        var iv = IntervalTracker(startedAt: 0, splitUnit: 1000, autoLapDistance: nil, caloriesPerHour: nil)
        var out: [RecorderEvent] = []
        iv.add(heartRate: 120)
        iv.add(heartRate: 140)
        iv.add(speed: 4)
        iv.advance(to: snap(60, 300), into: &out)
        let lap = iv.lap(at: snap(60, 300))
        expectEqual(lap.trigger, .manual)
        #expect(lap.averageHeartRate == 130 && lap.maxHeartRate == 140 && lap.maxSpeed == 4 && lap.calories == 0)
        iv.finish(at: snap(90, 450))
        expectEqual(iv.laps.map(\.trigger), [.manual, .end])
        expectEqual(iv.laps.last?.distanceMeters, 150)
        expectEqual(iv.splits.map(\.trigger), [.end])
        expectEqual(iv.splits.first?.averageHeartRate, 130)
    }

    @Test func finishWithNothingStillHasOneLap() {
        var iv = IntervalTracker(startedAt: 0, splitUnit: 1000, autoLapDistance: nil, caloriesPerHour: nil)
        iv.finish(at: snap(0, 0))
        expectEqual(iv.laps.count, 1)
        #expect(iv.splits.isEmpty)
    }
}
