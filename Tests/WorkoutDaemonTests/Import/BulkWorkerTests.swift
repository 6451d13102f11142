import Dispatch
import Synchronization
import Testing
@testable import WorkoutDaemon

/// The bulk worker at a shutdown (issue 26 item 7): the job running finishes, the ones waiting
/// are dropped, and its thread really ends.
@Suite struct BulkWorkerTests {
    @Test func shutDownFinishesTheRunningJobDropsTheRestAndEndsTheThread() {
        let worker = BulkWorker()
        let gate = DispatchSemaphore(value: 0)
        let running = DispatchSemaphore(value: 0)
        let ran = Mutex<[Int]>([])
        worker.async { running.signal(); gate.wait(); ran.withLock { $0.append(1) } }
        worker.async { ran.withLock { $0.append(2) } }
        running.wait()
        #expect(!worker.hasEnded)
        // The first job holds the thread: the end is asked for while it runs...
        #expect(worker.shutDown(seconds: 0) == false, "still in its job")
        // ...and comes once it finishes.
        gate.signal()
        #expect(worker.shutDown(seconds: 30) && worker.hasEnded)
        #expect(ran.withLock { $0 } == [1], "the job waiting behind it is dropped")
        worker.async { ran.withLock { $0.append(3) } }
        #expect(ran.withLock { $0 } == [1], "no job runs after the end")
    }
}
