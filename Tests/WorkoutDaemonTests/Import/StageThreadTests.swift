import Dispatch
import Synchronization
import Testing
@testable import WorkoutDaemon

/// The import pipeline's stage thread: jobs run in order, off the caller's thread, and a full
/// stage makes the submitter wait (what bounds an import's memory).
@Suite struct StageThreadTests {
    @Test func jobsRunInOrderAndDrainWaitsForThem() {
        let stage = StageThread(depth: 2)
        let seen = Mutex<[Int]>([])
        for k in 0..<50 { stage.submit { seen.withLock { $0.append(k) } } }
        stage.drain()
        #expect(seen.withLock { $0 } == Array(0..<50))
    }

    @Test func aFullStageMakesTheSubmitterWait() {
        let stage = StageThread(depth: 1)
        let gate = DispatchSemaphore(value: 0)
        let submitted = Atomic<Int>(0)
        stage.submit { gate.wait() }  // holds the stage's one slot
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            stage.submit {}
            submitted.store(1, ordering: .sequentiallyConsistent)
            done.signal()
        }
        // While the first job runs, the second submit cannot return.
        #expect(done.wait(timeout: .now() + .milliseconds(300)) == .timedOut)
        #expect(submitted.load(ordering: .sequentiallyConsistent) == 0)
        gate.signal()
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        stage.drain()
    }

    /// A job submitted once the stage is shutting down is refused, not queued behind the end
    /// where it would never run: the import's write stage waits for each measured file, and
    /// would wait forever for one its measurer never ran (a stop during an import).
    @Test func aJobAfterTheShutdownIsRefused() {
        let stage = StageThread(depth: 1)
        #expect(stage.shutDown(seconds: 30))
        let ran = Atomic<Bool>(false)
        #expect(!stage.submit { ran.store(true, ordering: .sequentiallyConsistent) })
        #expect(!stage.submit {}, "a refused job gives its one slot back (else this submit would wait)")
        let didRun = ran.load(ordering: .sequentiallyConsistent)
        #expect(!didRun)
    }

    @Test func shutDownRunsWhatTheStageHoldsThenEndsTheThread() {
        let stages = ImportStages()
        let seen = Mutex<[Int]>([])
        for k in 0..<5 { stages.commit.submit { seen.withLock { $0.append(k) } } }
        #expect(stages.shutDown(seconds: 30))
        #expect(stages.measure.allSatisfy(\.hasEnded) && stages.write.hasEnded && stages.commit.hasEnded)
        #expect(seen.withLock { $0 } == Array(0..<5), "what was submitted before the end ran")
    }
}
