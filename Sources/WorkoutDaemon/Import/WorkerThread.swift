import Glibc

/// Starts the detached threads bulk work runs on (`BulkWorker`, the import's `StageThread`s), at
/// `BulkWorker.niceness`: Linux nice values are per thread, so only that thread is lowered.
enum WorkerThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread (it never returns for the workers).
    static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { arg in
            let body = Unmanaged<Body>.fromOpaque(arg!).takeRetainedValue()
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, BulkWorker.niceness)  // this thread only; refused under a seccomp filter: fine
            body.run()
            return nil
        }, box.toOpaque())
        if rc == 0 { pthread_detach(thread) } else { box.release() }
    }
}
