import Testing
@testable import WorkoutCore

/// Issue 43: which CPUs the loop and the bulk threads get, for every count of allowed CPUs,
/// with a workout in progress or not.
@Suite struct CPUPartitionTests {
    @Test func noWorkoutSharesEveryAllowedCPU() {
        for allowed in [[0], [0, 1], [0, 1, 2, 3], [2, 5, 7]] {
            let p = CPUPartition(allowed: allowed, load: .noWorkout)
            expectEqual(p, .shared(allowed))
            expectEqual(p.loopCPUs, allowed)
            expectEqual(p.bulkCPUs, allowed)
        }
    }

    @Test func oneCPUIsSharedEvenWithAWorkout() {
        let p = CPUPartition(allowed: [3], load: .workoutInProgress)
        expectEqual(p, .shared([3]))
        expectEqual(p.loopCPUs, [3])
        expectEqual(p.bulkCPUs, [3])
    }

    @Test func twoCPUsWithAWorkoutGiveTheLoopOneAndBulkTheOther() {
        let p = CPUPartition(allowed: [0, 1], load: .workoutInProgress)
        expectEqual(p, .split(loop: 0, bulk: [1]))
        expectEqual(p.loopCPUs, [0])
        expectEqual(p.bulkCPUs, [1])
    }

    @Test func manyCPUsWithAWorkoutKeepBulkOffTheLoopsOnly() {
        let p = CPUPartition(allowed: [0, 1, 2, 3, 4, 5, 6, 7], load: .workoutInProgress)
        expectEqual(p.loopCPUs, [0])
        expectEqual(p.bulkCPUs, [1, 2, 3, 4, 5, 6, 7])
    }

    /// A container's or systemd's `CPUAffinity=` set: the loop takes the lowest CPU of it, never
    /// one outside it; the order and repeats of the input do not matter.
    @Test func restrictedSetsStayRestricted() {
        let p = CPUPartition(allowed: [6, 2, 4, 2], load: .workoutInProgress)
        expectEqual(p, .split(loop: 2, bulk: [4, 6]))
        expectEqual(CPUPartition(allowed: [6, 2, 4], load: .noWorkout), .shared([2, 4, 6]))
    }

    /// No CPU known (the affinity could not be read): nothing to split.
    @Test func noCPUsKnownIsSharedAndEmpty() {
        expectEqual(CPUPartition(allowed: [], load: .workoutInProgress), .shared([]))
        expectEqual(CPUPartition(allowed: [], load: .noWorkout).loopCPUs, [])
    }

    @Test func listsAsTheKernelDoes() {
        expectEqual(CPUPartition.list([]), "")
        expectEqual(CPUPartition.list([0]), "0")
        expectEqual(CPUPartition.list([0, 1]), "0-1")
        expectEqual(CPUPartition.list([1, 2, 3, 6]), "1-3,6")
        expectEqual(CPUPartition.list([0, 2, 4, 5]), "0,2,4-5")
    }
}
