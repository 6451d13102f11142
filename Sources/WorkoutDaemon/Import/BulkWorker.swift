import Dispatch
import Glibc
import Synchronization
import WorkoutCore
import WorkoutSystem

/// Where bulk work runs: imports, exports and edits, one job at a time on one thread of its
/// own, never on the event loop (which only posts the job and, later, the replies). Not the
/// saver's queue, so a long import never delays saving the workout just stopped. The thread
/// runs at nice 19 (Linux nice values are per thread): when the machine is busy the event loop
/// (status, fixes, journal flushes, the watchdog) gets the CPU first and the import waits.
final class BulkWorker: Sendable {
    /// The jobs waiting, or the end asked for (`shutDown`): the job running finishes, those
    /// waiting are dropped (their clients are gone at a shutdown) and the thread returns.
    private enum Queue {
        case accepting([@Sendable () -> Void])
        case stopping
    }
    private let queue = Mutex(Queue.accepting([]))
    private let wake = DispatchSemaphore(value: 0)
    private let thread = WorkerThread.Handle()
    /// The niceness of the worker thread (0 = the daemon's own).
    static let niceness: Int32 = 19
    /// Runs on the worker once it has had no job for `idleSeconds` (then again only after the
    /// next job): drops what the jobs kept for the next one (`HistoryStore.forgetRecent`).
    private let idle: @Sendable () -> Void
    private let idleSeconds: Int

    /// `niceness`: the thread's (bulk work: `BulkWorker.niceness`; 0 for answers a person waits
    /// for, such as `list` and `show`, which must not starve behind a busy machine).
    init(idleSeconds: Int = 30, niceness: Int32 = BulkWorker.niceness, idle: @escaping @Sendable () -> Void = {}) {
        self.idle = idle
        self.idleSeconds = idleSeconds
        WorkerThread.start(thread, niceness: niceness) { self.serve() }
    }

    /// Runs `job` on the worker thread after the jobs before it (dropped after `shutDown`).
    func async(_ job: @escaping @Sendable () -> Void) {
        let accepted = queue.withLock { q -> Bool in
            guard case .accepting(var jobs) = q else { return false }
            q = .stopping  // placeholder while the array is appended to in place
            jobs.append(job)
            q = .accepting(jobs)
            return true
        }
        if accepted { wake.signal() }
    }

    /// The shutdown: the job running finishes, the waiting ones are dropped, the thread ends.
    /// Returns whether it ended within `seconds` (a job stuck on a reader may outlast it).
    func shutDown(seconds: Double) -> Bool {
        queue.withLock { $0 = .stopping }
        wake.signal()
        return thread.waitForEnd(seconds: seconds)
    }

    /// Whether the worker's thread has returned.
    var hasEnded: Bool { thread.hasEnded }

    /// The next job; nil when there is none yet; `.stop` once the end was asked for.
    private enum Next { case job(@Sendable () -> Void), none, stop }

    private func next() -> Next {
        queue.withLock { q in
            guard case .accepting(var jobs) = q else { return .stop }
            guard !jobs.isEmpty else { return .none }
            q = .stopping  // placeholder while the array is mutated in place
            let job = jobs.removeFirst()
            q = .accepting(jobs)
            return .job(job)
        }
    }

    private var isIdle: Bool {
        queue.withLock { q in
            switch q {
            case .accepting(let jobs): return jobs.isEmpty
            case .stopping: return true
            }
        }
    }

    private func serve() {
        var idled = true
        while true {
            if idled { wake.wait() } else if wake.wait(timeout: .now() + .seconds(idleSeconds)) == .timedOut {
                idle()
                MemoryPolicy.returnFreedMemory()  // what `idle` dropped
                idled = true
                continue
            }
            switch next() {
            case .stop:
                return
            case .none:
                continue
            case .job(let job):
                MemoryPolicy.beginBulkWork()
                job()
                idled = false
                // Freed memory was kept for the next file (MemoryPolicy); with nothing queued, the
                // default thresholds again, and what is free given back.
                if isIdle { MemoryPolicy.endBulkWork() }
            }
        }
    }

    /// Whether `fd` is a pipe, FIFO or socket: an export into it waits on its reader
    /// (`ExportWriter`, on the loop), never on this worker.
    static func isPipeOrSocket(_ fd: Int32) -> Bool {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return false }
        return st.st_mode & S_IFMT == S_IFIFO || st.st_mode & S_IFMT == S_IFSOCK
    }

    /// Writes all of `bytes` to a regular file the client passed (pipes and sockets go to
    /// `ExportWriter`); anything else is refused in words.
    static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) throws {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ImportReader.Refusal(description: "fstat: " + String(cString: strerror(errno))) }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw ImportReader.Refusal(description: "the output is \(ImportReader.kind(st.st_mode) ?? "not writable"), not a file or pipe")
        }
        var off = 0
        while off < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + off, bytes.count - off)
            if n < 0 {
                if errno == EINTR { continue }
                throw ImportReader.Refusal(description: "writing the output: " + String(cString: strerror(errno)))
            }
            off += n
        }
    }
}
