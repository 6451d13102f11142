import Testing
@testable import WorkoutCore

/// A saved workout's notification reads in the configured units.
@Suite struct DesktopNoticeTests {
    @Test func savedWorkoutDistanceFollowsTheUnits() {
        let fields: [(String, LogValue)] = [("activity", .string("running")), ("distance_m", .double(8046.72, decimals: 1)), ("elapsed_s", .double(2400, decimals: 0))]
        let metric = DesktopNotice.forEvent(name: "workout.saved", message: "Saved running workout", fields: fields, chosen: ["*"])
        #expect(metric?.body == "Running: 8.05 km in 0:40:00")
        let imperial = DesktopNotice.forEvent(name: "workout.saved", message: "Saved running workout", fields: fields, chosen: ["*"], units: .imperial)
        #expect(imperial?.body == "Running: 5.00 mi in 0:40:00")
    }
}
