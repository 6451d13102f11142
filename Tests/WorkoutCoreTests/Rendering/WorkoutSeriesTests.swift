import Testing
@testable import WorkoutCore

@Suite struct WorkoutSeriesTests {
    @Test func pausesSplitRunsAndPausedPointsAreLeftOut() {
        let t0 = 1_800_000_000.0
        let points = (0..<100).map { k in TrackPoint(fix: Fix(time: t0 + Double(k), latitude: 47 + Double(k) * 1e-4, longitude: 8), segment: k >= 80 ? 1 : 0) }
        let events = [WorkoutEvent(kind: .pause, time: t0 + 30.5), WorkoutEvent(kind: .resume, time: t0 + 40.5)]
        var s = WorkoutSummary(id: testID, activity: .running, startedAt: t0, endedAt: t0 + 99, distanceMeters: 1000)
        s.laps = []
        let series = WorkoutSeries(workout: Workout(summary: s, points: points, events: events))
        expectEqual(series.count, 90)  // 31...40 were recorded while paused
        expectEqual(series.runs, [0..<31, 31..<70, 70..<90])  // the pause, then the new segment
        expectEqual(series.pauseIndices, [30, 69])
        expectLess(abs(series.distance.last! - 1000), 1e-6)  // scaled to the workout's distance
        expectEqual(series.distance[31], series.distance[30])  // no distance across the pause
    }

    @Test func aLongGapIsAGap() {
        let t0 = 1_800_000_000.0
        let times = (0..<50).map { Double($0) } + (0..<50).map { 500 + Double($0) }
        let points = times.map { TrackPoint(fix: Fix(time: t0 + $0, latitude: 47, longitude: 8 + $0 * 1e-5)) }
        let series = WorkoutSeries(workout: Workout(summary: WorkoutSummary(id: testID, activity: .running, startedAt: t0), points: points))
        expectEqual(series.runs.count, 2)
    }

    @Test func tooManyPausesKeepTheLongestGaps() {
        let t0 = 1_800_000_000.0
        var events: [WorkoutEvent] = []
        for k in 0..<400 { events.append(WorkoutEvent(kind: .motionPaused, time: t0 + Double(k) * 10 + 4.5)); events.append(WorkoutEvent(kind: .motionResumed, time: t0 + Double(k) * 10 + 5.2)) }
        let points = (0..<4000).map { TrackPoint(fix: Fix(time: t0 + Double($0), latitude: 47, longitude: 8 + Double($0) * 1e-5)) }
        let series = WorkoutSeries(workout: Workout(summary: WorkoutSummary(id: testID, activity: .running, startedAt: t0), points: points, events: events))
        expectEqual(series.runs.count, WorkoutSeries.maxRuns)
        expectEqual(series.runs.map(\.count).reduce(0, +), series.count)
    }

    @Test func smoothedSpeed() {
        let t0 = 1_800_000_000.0
        let points = (0..<200).map { TrackPoint(fix: Fix(time: t0 + Double($0), latitude: 47 + Double($0) * 3e-5, longitude: 8)) }
        let series = WorkoutSeries(workout: Workout(summary: WorkoutSummary(id: testID, activity: .running, startedAt: t0, distanceMeters: 0), points: points))
        let mid = series.speed[100]
        expectLess(abs(mid - 3e-5 * 6_371_008.8 * Double.pi / 180), 0.01)
    }
}
