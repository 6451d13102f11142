import Dispatch
import Glibc
import Synchronization

/// Starts the detached threads work off the loop runs on (`BulkWorker`, the import's
/// `StageThread`s), at a niceness of their own (bulk work at `BulkWorker.niceness`): Linux nice
/// values are per thread, so only that thread is lowered. The bulk ones also register with
/// `CPUAffinity`, which keeps them off the loop's CPU while a workout is in progress.
enum WorkerThread {
    /// A started thread, to learn when its body has returned (the shutdown waits for it).
    final class Handle: Sendable {
        init() {}

        private let endedSignal = DispatchSemaphore(value: 0)
        private let endedFlag = Atomic<Bool>(false)

        /// Whether the thread's body has returned.
        var hasEnded: Bool { endedFlag.load(ordering: .acquiring) }

        /// Waits at most `seconds` for the body to return; whether it did.
        func waitForEnd(seconds: Double) -> Bool {
            if hasEnded { return true }
            guard endedSignal.wait(timeout: .now() + .milliseconds(Int(seconds * 1000))) == .success else { return false }
            endedSignal.signal()  // for the next waiter
            return true
        }

        fileprivate func ended() {
            endedFlag.store(true, ordering: .releasing)
            endedSignal.signal()
        }
    }

    private final class Body {
        let run: @Sendable () -> Void
        let handle: Handle
        let niceness: Int32
        init(_ run: @escaping @Sendable () -> Void, _ handle: Handle, _ niceness: Int32) { self.run = run; self.handle = handle; self.niceness = niceness }
    }

    /// Runs `body` on a new detached thread; `handle` says when it returned.
    @discardableResult
    static func start(_ handle: Handle = Handle(), niceness: Int32 = BulkWorker.niceness, _ body: @escaping @Sendable () -> Void) -> Handle {
        let box = Unmanaged.passRetained(Body(body, handle, niceness))
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { arg in
            let body = Unmanaged<Body>.fromOpaque(arg!).takeRetainedValue()
            if body.niceness != 0 {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, body.niceness)  // this thread only; refused under a seccomp filter: fine
            }
            // Bulk threads are kept off the loop's CPU while a workout is in progress (CPUAffinity).
            let bulk = body.niceness == BulkWorker.niceness ? CPUAffinity.shared.bulkThreadStarted() : nil
            if bulk == nil { CPUAffinity.shared.otherThreadStarted() }
            body.run()
            if let bulk { CPUAffinity.shared.bulkThreadEnded(bulk) }
            body.handle.ended()
            return nil
        }, box.toOpaque())
        if rc == 0 { pthread_detach(thread) } else { box.release(); handle.ended() }
        return handle
    }
}
