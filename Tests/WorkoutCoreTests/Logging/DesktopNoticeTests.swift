import Testing
@testable import WorkoutCore

/// A saved workout's notification reads in the configured units, built from the summary itself
/// (issue 26 item 11: it was read back from the rendered log fields).
@Suite struct DesktopNoticeTests {
    @Test func savedWorkoutDistanceFollowsTheUnits() {
        var s = WorkoutSummary(id: WorkoutID(start: 1_795_000_000, suffix: 2), activity: .running, startedAt: 1_795_000_000)
        s.distanceMeters = 8046.72
        s.elapsedSeconds = 2400
        expectEqual(DesktopNotice.saved(s, units: .metric).body, "Running: 8.05 km in 0:40:00")
        expectEqual(DesktopNotice.saved(s, units: .imperial).body, "Running: 5.00 mi in 0:40:00")
    }

    @Test func aWorkoutWithoutDistanceShowsItsTime() {
        var s = WorkoutSummary(id: WorkoutID(start: 1_795_000_000, suffix: 3), activity: .yoga, startedAt: 1_795_000_000)
        s.elapsedSeconds = 1800
        expectEqual(DesktopNotice.saved(s, units: .metric).body, "Yoga: 0:30:00")
    }
}
