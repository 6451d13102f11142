import Testing
@testable import WorkoutCore

@Suite struct TooFastWatchTests {
    @Test func aRunOfTooFastFixesAsksForTheCheckAndAPlausibleOneStartsAgain() {
        var w = TooFastWatch.counting(run: 0)
        for _ in 1..<SpeedWarning.tooFastRun { expectEqual(w.tooFast(), false) }
        expectEqual(w.tooFast(), true)
        expectEqual(w.tooFast(), true, "the check failed: asked again at the next")
        w.plausible()
        expectEqual(w.tooFast(), false)
        expectNil(w.warning)
    }

    @Test func theWarningIsSaidOnce() {
        var w = TooFastWatch.counting(run: 0)
        let warning = SpeedWarning(medianSpeed: 12, activity: .walking, time: 5)
        w.warn(warning)
        expectEqual(w.warning, warning)
        for _ in 0..<(2 * SpeedWarning.tooFastRun) { expectEqual(w.tooFast(), false) }
        w.plausible()
        expectEqual(w.warning, warning)
    }
}
