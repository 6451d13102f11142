import Dispatch
import Glibc
import Synchronization
import WorkoutSystem

/// A stage of the import pipeline (`ImportStages`): a thread of its own that runs the jobs
/// submitted to it in order. Bounded: `submit` waits while `depth` jobs are queued or running,
/// so what waits for the stage is bounded too. Runs at the bulk worker's niceness (19): a live
/// workout's loop gets the CPU first.
final class StageThread: Sendable {
    /// A job, or the end (`shutDown`): the jobs before it run, then the thread returns.
    private enum Item { case job(@Sendable () -> Void), end }
    /// The jobs waiting; `ending` once the end is queued (a job submitted after it is refused).
    private struct Queue {
        var items: [Item] = []
        var ending = false
    }
    private let jobs = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let slots: DispatchSemaphore
    private let thread = WorkerThread.Handle()

    init(depth: Int) {
        slots = DispatchSemaphore(value: depth)
        WorkerThread.start(thread) { self.serve() }
    }

    /// The shutdown: the jobs submitted before it run, then the thread ends. Returns whether it
    /// ended within `seconds`.
    func shutDown(seconds: Double) -> Bool {
        jobs.withLock { $0.items.append(.end); $0.ending = true }
        wake.signal()
        return thread.waitForEnd(seconds: seconds)
    }

    /// Whether the stage's thread has returned.
    var hasEnded: Bool { thread.hasEnded }

    /// Runs `job` on the stage's thread after the jobs before it; waits first while the stage
    /// is full. Returns false, the job not run, once the stage is shutting down (a caller that
    /// waits for the job's result must not wait then).
    @discardableResult
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        slots.wait()
        let accepted = jobs.withLock { q -> Bool in
            guard !q.ending else { return false }
            q.items.append(.job(job))
            return true
        }
        guard accepted else { slots.signal(); return false }
        wake.signal()
        return true
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
            switch jobs.withLock({ $0.items.isEmpty ? nil : $0.items.removeFirst() }) {
            case nil: continue
            case .end?: return
            case .job(let job)?:
                job()
                slots.signal()
            }
        }
    }
}
