import Foundation
import Glibc
import Synchronization
import WorkoutCore
@testable import WorkoutDaemon

/// The whole daemon embedded in the test's process: the same `Daemon` workoutd runs, built with
/// ports the test chooses (`DaemonPorts`: a `ManualClock`, a disk that fails, short web limits),
/// its loop on a thread of its own, talked to over its real control and feed sockets in a
/// private temp directory, like `DaemonHarness`'s process. No process to start, no signals:
/// `stop()` asks for the graceful stop SIGTERM asks for and returns the exit status `run` would.
/// On a `ManualClock`, time passes only when the test says (`advance`): timers run at their own
/// times, between the loop's wake-ups.
final class EmbeddedDaemon: DaemonUnderTest, @unchecked Sendable {
    let dir: String
    var environment: [String: String]
    /// The daemon's edges; change them before `start()`.
    var ports: DaemonPorts
    /// Set by `start()`. Touch it only on the loop (`onLoop`).
    private(set) var daemon: Daemon?
    private let stderrPipe = Pipe()
    private let stderrDrain: PipeDrain
    private var finished = DispatchSemaphore(value: 0)
    private struct State { var exitStatus: Int32?; var advances: [(seconds: Double, done: DispatchSemaphore)] = [] }
    private let state = Mutex(State())

    /// `clock`: a `ManualClock` the test drives, or nil for the system's clocks.
    init(config: String? = nil, extraEnv: [String: String] = [:], clock: ManualClock? = nil) throws {
        (dir, environment) = try Self.makeDirectory(prefix: "ed", extraEnv: extraEnv)
        ports = DaemonPorts(clock: clock ?? SystemClock(), hookTrampoline: DaemonHarness.binary("workoutd"),
                            logFD: stderrPipe.fileHandleForWriting.fileDescriptor)
        ports.webDefaultPort = 0  // many test daemons at once: any free port, never the user's 8765
        stderrDrain = PipeDrain(stderrPipe)
        if let config { try writeConfig(config) }
    }

    /// What a crash leaves behind, for the daemon that starts next: a daemon in a new directory
    /// holding a copy of `other`'s config, data and state as they are on disk now (sockets left
    /// out), with `other`'s ports. `other` may be held mid-save (`StoreFaults.beforeRename`).
    convenience init(copyingStateOf other: EmbeddedDaemon) throws {
        try self.init(clock: other.clock)
        ports.storeFaults = other.ports.storeFaults
        let fm = FileManager.default
        for sub in ["c", "d", "s"] {
            let from = other.dir + "/" + sub, to = dir + "/" + sub
            guard let names = fm.enumerator(atPath: from) else { continue }
            try fm.createDirectory(atPath: to, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for case let name as String in names {
                var st = stat()
                guard lstat(from + "/" + name, &st) == 0 else { continue }
                switch st.st_mode & S_IFMT {
                case S_IFDIR: try fm.createDirectory(atPath: to + "/" + name, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                case S_IFREG: try fm.copyItem(atPath: from + "/" + name, toPath: to + "/" + name)
                default: continue
                }
            }
        }
    }

    /// The clock the test drives, when it gave one.
    var clock: ManualClock? { ports.clock as? ManualClock }

    /// Builds the daemon from the config file (none: the defaults), binds its sockets, restores
    /// any journal, starts its services, and runs its loop on a thread of its own. Throws what
    /// workoutd would exit with. After a stop it starts again in the same directories, as a
    /// restarted workoutd would.
    func start() throws {
        precondition(!isRunning, "started twice")
        daemon = nil
        finished = DispatchSemaphore(value: 0)
        state.withLock { $0.exitStatus = nil }
        let config = try ConfigLoader.load(path: configFile).get()
        let d = try Daemon(config: config, configPath: configFile, paths: Paths(environment: environment), environment: environment, ports: ports)
        try d.start(handlingSignals: false)
        daemon = d
        let finished = self.finished
        let thread = Thread { [self] in
            let status = d.serve(betweenTurns: { () throws(SystemError) in try self.runAdvances(d.loop) })
            state.withLock { $0.exitStatus = status }
            finished.signal()
        }
        thread.name = "embedded workoutd"
        thread.stackSize = 8 << 20  // a process's main thread has 8 MiB
        thread.start()
    }

    var isRunning: Bool { daemon != nil && exitStatus == nil }

    /// The loop's exit status once it has ended (a stop, or `poll` failed).
    var exitStatus: Int32? { state.withLock { $0.exitStatus } }

    /// The graceful stop SIGTERM asks for; waits for the loop to end (at most `seconds`) and
    /// returns the exit status `workoutd` would exit with, nil when it did not end in time.
    @discardableResult
    func stop(seconds: Double = 30) -> Int32? {
        guard let d = daemon else { return nil }
        if exitStatus == nil { d.loop.post { d.beginShutdown(reason: "SIGTERM") } }
        return waitForExit(seconds: seconds)
    }

    /// Waits until the loop has ended by itself (`poll` failed), at most `seconds`.
    func waitForExit(seconds: Double) -> Int32? {
        if let s = exitStatus { return s }
        guard finished.wait(timeout: .now() + seconds) == .success else { return nil }
        finished.signal()  // a later call returns at once
        return exitStatus
    }

    /// Runs `body` on the loop's thread and returns what it returns (the daemon's state is the
    /// loop's alone).
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (Daemon) -> T) -> T {
        guard let d = daemon else { preconditionFailure("not started") }
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        d.loop.post { result.withLock { $0 = body(d) }; done.signal() }
        done.wait()
        return result.withLock { $0! }
    }

    /// Moves the `ManualClock` by `seconds`: every timer due on the way runs at its own time, on
    /// the loop's thread, between two wake-ups. Returns when it has.
    func advance(_ seconds: Double) {
        guard let d = daemon else { preconditionFailure("not started") }
        precondition(clock != nil, "advance needs a ManualClock")
        let done = DispatchSemaphore(value: 0)
        state.withLock { $0.advances.append((seconds, done)) }
        d.loop.post {}  // wakes the loop
        done.wait()
    }

    private func runAdvances(_ loop: EventLoop) throws(SystemError) {
        let due = state.withLock { s in defer { s.advances.removeAll() }; return s.advances }
        for a in due {
            defer { a.done.signal() }
            try loop.advanceTime(by: a.seconds)
        }
    }

    /// What the daemon wrote to stderr since the last call (its log lines, as the journal shows
    /// them): all of it once the daemon has stopped.
    func stderrText() -> String {
        // After a stop its last lines are in the pipe (the logger drains at the stop): wait
        // until the drain has read them all (at most 10 s on a loaded machine), then take.
        if !isRunning {
            let fd = stderrPipe.fileHandleForReading.fileDescriptor
            pollUntil(seconds: 10, every: 0.01) {
                var pending: Int32 = 0
                return ioctl(fd, UInt(FIONREAD), &pending) != 0 || pending == 0
            }
        }
        return stderrDrain.take(untilEnd: false)
    }

    deinit {
        if daemon != nil, exitStatus == nil { _ = stop() }
        daemon = nil  // its sockets and loop are closed before the directory goes
        try? stderrPipe.fileHandleForWriting.close()
        try? FileManager.default.removeItem(atPath: dir)
    }
}
