import Dispatch
import Glibc
import Synchronization

/// Runs hook programs off the event loop: at most `maxRunning` at once, the rest queued (at
/// most `maxQueued`; beyond that a job is refused and the caller logs the drop). Each program is
/// started with posix_spawn in its own process group, gets the event on stdin, and is killed
/// (SIGKILL, whole group) at its timeout. Outcomes go to `report`, on a worker thread.
final class HookRunner: Sendable {
    struct Job: Sendable {
        var argv: [String]
        var input: [UInt8]
        var timeout: Double
        /// The log event that triggered it (for the outcome's log line).
        var event: String
    }

    enum Outcome: Sendable, Equatable {
        case exited(status: Int32, milliseconds: Int)
        case signaled(Int32)
        case timedOut
        case spawnFailed(String)
    }

    let maxRunning: Int
    let maxQueued: Int
    private let environment: [String]
    private let report: @Sendable (Job, Outcome) -> Void
    private let state = Mutex<(queue: [Job], head: Int, running: Int)>(([], 0, 0))
    private let workers = DispatchQueue(label: "workoutd.hooks", attributes: .concurrent)

    init(environment: [String: String], maxRunning: Int = 4, maxQueued: Int = 256, report: @escaping @Sendable (Job, Outcome) -> Void) {
        self.environment = environment.map { "\($0.key)=\($0.value)" }
        self.maxRunning = maxRunning
        self.maxQueued = maxQueued
        self.report = report
    }

    /// Queues a job; false when the queue is full (the job is dropped). Never blocks.
    func submit(_ job: Job) -> Bool {
        let start: Bool? = state.withLock { s in
            if s.running < maxRunning { s.running += 1; return true }
            if s.queue.count - s.head >= maxQueued { return nil }
            s.queue.append(job)
            return false
        }
        guard let start else { return false }
        if start { workers.async { self.work(job) } }
        return true
    }

    /// Jobs running and waiting (for tests and status).
    var load: (running: Int, queued: Int) { state.withLock { ($0.running, $0.queue.count - $0.head) } }

    private func work(_ first: Job) {
        var job: Job? = first
        while let j = job {
            report(j, run(j))
            job = state.withLock { s -> Job? in
                guard s.head < s.queue.count else { s.running -= 1; s.queue = []; s.head = 0; return nil }
                let next = s.queue[s.head]
                s.head += 1
                if s.head > 64 && s.head * 2 > s.queue.count { s.queue.removeFirst(s.head); s.head = 0 }
                return next
            }
        }
    }

    /// Spawns the program, writes the input, waits with the timeout.
    func run(_ job: Job) -> Outcome {
        var fds: [Int32] = [-1, -1]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all); sigdelset(&all, SIGKILL); sigdelset(&all, SIGSTOP)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attr, &all)  // the daemon ignores SIGPIPE; the hook must not inherit that
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let cargs = job.argv.map { strdup($0) } + [nil]
        let cenv = (environment + ["WORKOUTD_EVENT=\(job.event)"]).map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) }; for p in cenv { free(p) } }
        var pid: pid_t = 0
        let t0 = Self.monotonic()
        // pipe2 is not imported: pipe + FD_CLOEXEC under a lock that every spawn here takes, so
        // no other hook's child inherits this pipe's write end (and keeps stdin from ending).
        let rc: Int32 = HookRunner.spawnLock.withLock { _ in
            guard pipe(&fds) == 0 else { return errno }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
            return posix_spawnp(&pid, job.argv[0], &actions, &attr, cargs, cenv)
        }
        if fds[0] < 0 { return .spawnFailed("pipe: " + String(cString: strerror(rc))) }
        close(fds[0])
        guard rc == 0 else {
            close(fds[1])
            return .spawnFailed("\(job.argv[0]): " + String(cString: strerror(rc)))
        }
        // The event is small; write what the pipe takes without blocking, then close (EOF).
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        var off = 0
        while off < job.input.count {
            let n = job.input.withUnsafeBytes { write(fds[1], $0.baseAddress! + off, $0.count - off) }
            if n > 0 { off += n } else if n < 0 && errno == EINTR { continue } else { break }
        }
        close(fds[1])
        let deadline = t0 + job.timeout
        var sleepMicros: UInt32 = 1000
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { return .spawnFailed("waitpid: " + String(cString: strerror(errno))) }
            if Self.monotonic() >= deadline {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return .timedOut
            }
            usleep(sleepMicros)
            sleepMicros = min(sleepMicros * 2, 50_000)
        }
        let ms = Int((Self.monotonic() - t0) * 1000)
        // WIFEXITED / WEXITSTATUS / WTERMSIG by hand (macros are not imported).
        let sig = status & 0x7F
        if sig == 0 { return .exited(status: (status >> 8) & 0xFF, milliseconds: ms) }
        return .signaled(sig)
    }

    static let spawnLock = Mutex(())

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
