import Glibc

/// Starts the detached threads bulk work runs on (`BulkWorker`, the import's `StageThread`s), at
/// `BulkWorker.niceness`: Linux nice values are per thread, so only that thread is lowered.
enum WorkerThread {
    private final class Body {
        let run: @Sendable () -> Void
        let niceness: Int32
        init(_ run: @escaping @Sendable () -> Void, niceness: Int32) { self.run = run; self.niceness = niceness }
    }

    /// Runs `body` on a new detached thread (it never returns for the workers), at `niceness`
    /// (the web thread's is lower than bulk work's).
    static func start(niceness: Int32 = BulkWorker.niceness, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body, niceness: niceness))
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { arg in
            let body = Unmanaged<Body>.fromOpaque(arg!).takeRetainedValue()
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, body.niceness)  // this thread only; refused under a seccomp filter: fine
            body.run()
            return nil
        }, box.toOpaque())
        if rc == 0 { pthread_detach(thread) } else { box.release() }
    }
}
