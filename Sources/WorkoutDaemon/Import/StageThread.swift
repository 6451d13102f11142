import Dispatch
import Glibc
import Synchronization
import WorkoutSystem

/// A stage of the import pipeline (`ImportStages`): a thread of its own that runs the jobs
/// submitted to it in order. Bounded: `submit` waits while `depth` jobs are queued or running,
/// so what waits for the stage is bounded too. Runs at the bulk worker's niceness (19): a live
/// workout's loop gets the CPU first.
final class StageThread: Sendable {
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let slots: DispatchSemaphore

    init(depth: Int) {
        slots = DispatchSemaphore(value: depth)
        WorkerThread.start { self.serve() }
    }

    /// Runs `job` on the stage's thread after the jobs before it; waits first while the stage is full.
    func submit(_ job: @escaping @Sendable () -> Void) {
        slots.wait()
        jobs.withLock { $0.append(job) }
        wake.signal()
    }

    /// Returns once every job submitted before it has run.
    func drain() {
        let done = DispatchSemaphore(value: 0)
        submit { done.signal() }
        done.wait()
    }

    private func serve() {
        while true {
            wake.wait()
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job()
            slots.signal()
        }
    }
}
