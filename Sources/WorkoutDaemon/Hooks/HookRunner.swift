import Glibc
import Synchronization
import WorkoutSystem

/// Runs hook programs off the event loop. Each hook (its `run` argv) is a lane: one event at a
/// time, the rest waiting in order, so a hook that hangs holds only its own events, never
/// another hook's (issue 27 item 12: four long hooks held every other for their timeout). At
/// most `maxRunning` run at once (a safety limit well above a usual configuration); at most
/// `maxQueued` wait in all (beyond that a job is refused and the caller logs the drop). Each
/// program is started with posix_spawn in its own process group, gets the event on stdin, and
/// is killed (SIGKILL, whole group) at its timeout; `shutDown` ends the groups still alive, the
/// running hooks' and what finished hooks left behind, so none outlives the daemon. With a
/// `trampoline` (the workoutd binary, `HookTrampoline`) each hook is started through it, which
/// ends the hook's group also when the daemon is killed with SIGKILL (outside systemd nothing
/// else would). Outcomes go to `report`, on the hook's thread.
final class HookRunner: Sendable {
    struct Job: Sendable {
        var argv: [String]
        var input: [UInt8]
        var timeout: Double
        /// The log event that triggered it (for the outcome's log line).
        var event: String
        /// The lane: the same program and arguments run one event at a time.
        var lane: String { argv.joined(separator: "\u{0}") }
    }

    enum Outcome: Sendable, Equatable {
        case exited(status: Int32, milliseconds: Int)
        case signaled(Int32)
        case timedOut
        case spawnFailed(String)
    }

    /// One hook's events: waiting in order, and whether one of them runs now.
    private struct Lane {
        var waiting: [Job] = []
        var running = false
    }

    /// Whether jobs are still taken; after `shutDown` nothing new starts.
    private enum Phase {
        case accepting, stopped

        var accepts: Bool {
            switch self {
            case .accepting: true
            case .stopped: false
            }
        }
    }

    private struct State {
        var phase = Phase.accepting
        /// Lanes with a job running or waiting.
        var lanes: [String: Lane] = [:]
        /// Lanes with jobs waiting and none running, in the order they became so (they wait for
        /// one of the `maxRunning` slots).
        var ready: [String] = []
        var running = 0
        var queued = 0
        /// Process groups of the hooks running (their leader not yet reaped).
        var groups: Set<pid_t> = []
        /// Groups of finished hooks with processes left in them (a hook that started something in
        /// the background and exited): ended at `shutDown`.
        var leftovers: Set<pid_t> = []
    }

    let maxRunning: Int
    let maxQueued: Int
    private let environment: [String]
    /// The workoutd binary that runs `--hook-trampoline`; nil starts hooks directly (in-process
    /// tests, whose own binary is not workoutd).
    private let trampoline: String?
    /// The lifeline (`HookTrampoline`): its read end is each trampoline's descriptor 3; the
    /// write end is held open, close-on-exec, until the runner (the daemon) ends.
    private let lifeline: (read: Int32, write: Int32)
    private let report: @Sendable (Job, Outcome) -> Void
    private let state = Mutex(State())

    /// The daemon's environment a hook does not get: systemd's notification socket and watchdog
    /// (the unit's `NotifyAccess=main`: a hook's message would be the daemon's) and socket
    /// activation's variables.
    static let withheld: Set<String> = Set(SystemdNotifier.environmentNames + ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"])

    init(environment: [String: String], trampoline: String? = nil, maxRunning: Int = 32, maxQueued: Int = 256,
         report: @escaping @Sendable (Job, Outcome) -> Void) {
        self.environment = environment.filter { !HookRunner.withheld.contains($0.key) }.map { "\($0.key)=\($0.value)" }
        self.trampoline = trampoline
        lifeline = HookRunner.spawnLock.withLock { _ in
            var fds: [Int32] = [-1, -1]
            guard trampoline != nil, pipe(&fds) == 0 else { return (-1, -1) }
            // The read end well above 3, so that moving it to 3 in the child is a real dup2.
            let read = fcntl(fds[0], F_DUPFD_CLOEXEC, 10)
            close(fds[0])
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return (read, fds[1])
        }
        self.maxRunning = maxRunning
        self.maxQueued = maxQueued
        self.report = report
    }

    /// Queues a job; false when the queue is full or the runner has shut down (the job is
    /// dropped). Never blocks.
    func submit(_ job: Job) -> Bool {
        let key = job.lane
        let start: Bool? = state.withLock { s in
            guard case .accepting = s.phase else { return nil }
            var lane = s.lanes[key] ?? Lane()
            if !lane.running, lane.waiting.isEmpty, s.running < maxRunning {
                lane.running = true
                s.running += 1
                s.lanes[key] = lane
                return true
            }
            if s.queued >= maxQueued { return nil }
            lane.waiting.append(job)
            s.queued += 1
            if !lane.running, !s.ready.contains(key) { s.ready.append(key) }
            s.lanes[key] = lane
            return false
        }
        guard let start else { return false }
        // A thread of its own per running hook (at most `maxRunning`): they mostly wait, and
        // Dispatch's pool adds threads for blocked ones only slowly (a fifth hook beside four
        // waiting ones started 3.7 s late on 2 cores).
        if start { WorkerThread.start(niceness: 0) { self.work(job) } }
        return true
    }

    deinit {
        if lifeline.read >= 0 { close(lifeline.read) }
        if lifeline.write >= 0 { close(lifeline.write) }
    }

    /// The executable of this process when it is workoutd (the trampoline of its hooks): the
    /// path /proc/self/exe names, or that link itself once the file was replaced (an upgrade).
    static func ownExecutable() -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return "/proc/self/exe" }
        let path = String(decoding: buf[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasSuffix(" (deleted)") ? "/proc/self/exe" : path
    }

    /// Jobs running and waiting (for tests and status).
    var load: (running: Int, queued: Int) { state.withLock { ($0.running, $0.queued) } }

    /// The daemon stops: nothing new starts, waiting jobs are dropped, and every process group of
    /// ours still alive gets SIGTERM, then SIGKILL after `graceSeconds` (a hook that ignores
    /// SIGTERM, its children). Returns how many groups it signalled.
    @discardableResult
    func shutDown(graceSeconds: Double = 0.5) -> Int {
        // Under the spawn lock: a hook being spawned now is either in `groups` already (its
        // number noted before the lock is let go) or never spawned (`run` sees `.stopped`).
        // Noted after the lock, a hook that had just started (and had even written its pid
        // file) was missed and outlived the shutdown (seen in a test run on a loaded machine).
        let (running, leftovers) = HookRunner.spawnLock.withLock { _ in
            state.withLock { s -> (Set<pid_t>, Set<pid_t>) in
                s.phase = .stopped
                s.queued = 0
                s.ready = []
                for key in s.lanes.keys { s.lanes[key]?.waiting = [] }
                return (s.groups, s.leftovers)
            }
        }
        // A running hook's leader is not reaped yet, so its number still names its group. A
        // finished hook's group is ours while it has members and no process of that number
        // exists (the number cannot be taken while the group lives; a live /proc/N is a new
        // process that took it after the group ended).
        let targets = running.union(leftovers.filter { access("/proc/\($0)", F_OK) != 0 })
        let alive = targets.filter { kill(-$0, SIGTERM) == 0 }
        let deadline = Self.monotonic() + graceSeconds
        var left = alive
        while !left.isEmpty, Self.monotonic() < deadline {
            usleep(10_000)
            left = left.filter { kill(-$0, 0) == 0 && Self.hasLiveMember($0) }
        }
        for g in left { kill(-g, SIGKILL) }
        return alive.count
    }

    /// Whether group `g` has a member that is not a zombie (a killed hook's leader stays a
    /// zombie until its worker thread reaps it; signals to it succeed all the same).
    static func hasLiveMember(_ g: pid_t, except: pid_t = -1) -> Bool {
        guard let names = directoryEntries("/proc") else { return true }
        for name in names {
            guard let pid = Int32(name), pid != except, getpgid(pid) == g else { continue }
            guard let stat = try? readFile("/proc/\(pid)/stat", limit: 4096) else { continue }
            guard let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count else { continue }
            if stat[close + 2] != UInt8(ascii: "Z") { return true }
        }
        return false
    }

    private func work(_ first: Job) {
        var job: Job? = first
        while let j = job {
            report(j, run(j))
            job = state.withLock { s -> Job? in
                let key = j.lane
                s.running -= 1
                if var lane = s.lanes[key] {
                    lane.running = false
                    if lane.waiting.isEmpty { s.lanes[key] = nil } else {
                        s.lanes[key] = lane
                        if !s.ready.contains(key) { s.ready.append(key) }  // behind the lanes already waiting
                    }
                }
                guard case .accepting = s.phase, s.running < maxRunning, !s.ready.isEmpty else { return nil }
                let next = s.ready.removeFirst()
                guard var lane = s.lanes[next], !lane.waiting.isEmpty else { return nil }
                let n = lane.waiting.removeFirst()
                lane.running = true
                s.lanes[next] = lane
                s.queued -= 1
                s.running += 1
                return n
            }
        }
    }

    /// Notes a hook's process group while its leader runs, and after it was reaped whether the
    /// group still has processes (ended at `shutDown`).
    private func started(_ pid: pid_t) { state.withLock { _ = $0.groups.insert(pid) } }
    private func reaped(_ pid: pid_t) {
        let left = kill(-pid, 0) == 0
        state.withLock { s in
            s.groups.remove(pid)
            s.leftovers = s.leftovers.filter { kill(-$0, 0) == 0 }  // those that ended since
            if left { s.leftovers.insert(pid) }
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; not in the Swift
    /// Glibc module): the child closes every descriptor from the given one up. nil on an older
    /// glibc, where hooks inherit what the daemon inherited without close-on-exec.
    static let addCloseFrom = CLibrary.function(
        "posix_spawn_file_actions_addclosefrom_np", as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)

    /// Sets `attr` so the child starts with every signal's default action and an empty mask
    /// (the daemon ignores SIGPIPE, the trampoline SIGTERM; a hook must inherit neither), and
    /// returns the spawn flags that apply it.
    static func defaultSignals(_ attr: inout posix_spawnattr_t) -> Int16 {
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all); sigdelset(&all, SIGKILL); sigdelset(&all, SIGSTOP)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attr, &all)
        posix_spawnattr_setsigmask(&attr, &none)
        return Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
    }

    /// Spawns the program (through the trampoline when there is one), writes the input, waits
    /// with the timeout.
    func run(_ job: Job) -> Outcome {
        var fds: [Int32] = [-1, -1]
        var reportPipe: [Int32] = [-1, -1]
        defer { for fd in reportPipe where fd >= 0 { close(fd) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if trampoline == nil { posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setpgroup(&attr, 0)
        posix_spawnattr_setflags(&attr, Self.defaultSignals(&attr) | Int16(POSIX_SPAWN_SETPGROUP))
        let argv = trampoline.map { [$0, HookTrampoline.flag] + job.argv } ?? job.argv
        let cargs = argv.map { strdup($0) } + [nil]
        let cenv = (environment + ["WORKOUTD_EVENT=\(job.event)"]).map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) }; for p in cenv { free(p) } }
        var pid: pid_t = 0
        let t0 = Self.monotonic()
        // pipe2 is not imported: pipe + FD_CLOEXEC under a lock that every spawn here takes, so
        // no other hook's child inherits this pipe's write end (and keeps stdin from ending).
        let rc: Int32 = HookRunner.spawnLock.withLock { _ in
            guard state.withLock({ $0.phase.accepts }) else { return ECANCELED }
            guard pipe(&fds) == 0 else { return errno }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
            if trampoline != nil {
                guard pipe(&reportPipe) == 0 else { return errno }
                _ = fcntl(reportPipe[0], F_SETFD, FD_CLOEXEC)
                _ = fcntl(reportPipe[1], F_SETFD, FD_CLOEXEC)
                posix_spawn_file_actions_adddup2(&actions, reportPipe[1], 1)
                posix_spawn_file_actions_adddup2(&actions, lifeline.read, HookTrampoline.lifeline)
            }
            // Descriptors the daemon inherited without close-on-exec (a shell's pipe at fd 251)
            // are not the hook's: kept open by a hook's child, such a pipe never ends.
            _ = HookRunner.addCloseFrom?(&actions, trampoline == nil ? 3 : HookTrampoline.lifeline + 1)
            let rc = posix_spawnp(&pid, argv[0], &actions, &attr, cargs, cenv)
            if rc == 0 { started(pid) }  // before `shutDown` can look (it takes this lock)
            return rc
        }
        if rc == ECANCELED, fds[0] < 0 { return .spawnFailed("not started: the daemon is stopping") }
        if fds[0] < 0 || (trampoline != nil && reportPipe[0] < 0) {
            if fds[0] >= 0 { close(fds[0]); close(fds[1]) }
            return .spawnFailed("pipe: " + String(cString: strerror(rc)))
        }
        close(fds[0])
        if reportPipe[1] >= 0 { close(reportPipe[1]); reportPipe[1] = -1 }
        guard rc == 0 else {
            close(fds[1])
            return .spawnFailed("\(argv[0]): " + String(cString: strerror(rc)))
        }
        defer { reaped(pid) }
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
        if let code = trampolineSpawnError(reportPipe[0]) { return .spawnFailed("\(job.argv[0]): " + String(cString: strerror(code))) }
        // WIFEXITED / WEXITSTATUS / WTERMSIG by hand (macros are not imported).
        let sig = status & 0x7F
        if sig == 0 { return .exited(status: (status >> 8) & 0xFF, milliseconds: ms) }
        return .signaled(sig)
    }

    /// The errno the trampoline wrote when it could not start the hook (nothing when it did).
    private func trampolineSpawnError(_ fd: Int32) -> Int32? {
        guard trampoline != nil, fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)  // written before it exited, if at all
        var buf = [UInt8](repeating: 0, count: 16)
        let n = read(fd, &buf, buf.count)
        guard n > 0 else { return nil }
        return Int32(String(decoding: buf[..<n], as: UTF8.self))
    }

    static let spawnLock = Mutex(())

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
