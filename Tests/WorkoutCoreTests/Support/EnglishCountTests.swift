import Testing
@testable import WorkoutCore

/// Issue 44: the daemon said "ready with 1 saved workouts" and "Idle; 1 workouts saved".
@Suite struct EnglishCountTests {
    @Test func oneIsSingularEveryOtherCountPlural() {
        expectEqual(EnglishCount.of(1, "saved workout"), "1 saved workout")
        expectEqual(EnglishCount.of(0, "saved workout"), "0 saved workouts")
        expectEqual(EnglishCount.of(2, "file"), "2 files")
        expectEqual(EnglishCount.of(3, "match", plural: "matches"), "3 matches")
    }

    @Test func idleHeadlineCountsInEnglish() {
        let idle = WorkoutLifecycle()
        expectEqual(idle.headline(now: 0, savedWorkouts: 1, gpsFix: "none"), "Idle; 1 workout saved")
        expectEqual(idle.headline(now: 0, savedWorkouts: 5, gpsFix: "none"), "Idle; 5 workouts saved")
    }
}
