import Foundation
import Glibc
import Testing
import TestRequirements

/// Helpers for the reliability suite (Tests/IntegrationTests/Reliability): other users, /proc
/// figures, mounts, timing, and the figures the suite reports.
enum Reliability {
    static var inCI: Bool { environment("CI") == "true" }
    static func environment(_ key: String) -> String? { ProcessInfo.processInfo.environment[key] }
    static var isRoot: Bool { getuid() == 0 }

    /// Fails (rather than silently passing) when a root-only test runs without root under CI.
    static func requireRoot() -> Bool {
        if isRoot { return true }
        Issue.recordIfCI("this test needs root (CI runs as root)")
        return false
    }

    // MARK: - Figures

    /// Prints a measured figure and appends it to `$WORKOUTD_RELIABILITY_FIGURES` (default
    /// /tmp/workoutd-reliability-figures.txt), which .ci/reliability.sh prints and
    /// docs/reliability.md quotes.
    static func report(_ name: String, _ value: String) {
        let line = "reliability: \(name) = \(value)"
        print(line)
        let path = ProcessInfo.processInfo.environment["WORKOUTD_RELIABILITY_FIGURES"] ?? "/tmp/workoutd-reliability-figures.txt"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard fd >= 0 else { return }
        _ = (line + "\n").withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }

    /// The q-quantile (0...1) of `samples`, nearest-rank.
    static func quantile(_ samples: [Double], _ q: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let s = samples.sorted()
        let rank = Int((q * Double(s.count)).rounded(.up)) - 1
        return s[min(max(rank, 0), s.count - 1)]
    }

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    // MARK: - /proc

    static func fdCount(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    static func fdTargets(_ pid: Int32) -> [String] {
        let dir = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + $0) }.sorted()
    }

    /// Resident set size in KiB (VmRSS), or -1.
    static func rssKiB(_ pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return -1 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
        }
        return -1
    }

    // MARK: - Processes

    /// Runs a command (no background children) and returns its status and output.
    @discardableResult
    static func run(_ args: [String], environment: [String: String]? = nil) throws -> (status: Int32, out: String, err: String) {
        let (p, out, err) = process(args, environment: environment)
        try p.run()
        let o = PipeDrain(out), e = PipeDrain(err)  // both at once: either may fill while we read the other
        p.waitUntilExit()
        return (p.terminationStatus, o.take(untilEnd: true), e.take(untilEnd: true))
    }

    /// `run` for `async` tests: the test suspends until the command has ended (a browser for
    /// seconds), holding no thread of Swift's pool.
    static func runSuspending(_ args: [String], environment: [String: String]? = nil) async throws -> (status: Int32, out: String, err: String) {
        let (p, out, err) = process(args, environment: environment)
        let (ended, end) = AsyncStream.makeStream(of: Int32.self)
        p.terminationHandler = { end.yield($0.terminationStatus); end.finish() }
        try p.run()
        let o = PipeDrain(out), e = PipeDrain(err)  // both at once: either may fill while we wait
        var status: Int32 = -1
        for await s in ended { status = s }
        return (status, o.take(untilEnd: true), e.take(untilEnd: true))
    }

    /// The command `args` with pipes for its output and errors, not started. `python3` is run
    /// by its interpreter directly, not through a pyenv shim (`Python.direct`).
    private static func process(_ args: [String], environment: [String: String]?) -> (Process, out: Pipe, err: Pipe) {
        let args = Python.direct(args)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: args[0])
        p.arguments = Array(args.dropFirst())
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        return (p, out, err)
    }

    /// `setpriv` arguments that run the rest as `uid`:`uid` with no groups; `dacOverride` keeps
    /// CAP_DAC_OVERRIDE (ambient), so the process can reach a socket behind a 0700 directory:
    /// then only the daemon's own peer-credential check stands in its way.
    static func asUser(_ uid: Int, dacOverride: Bool = false) -> [String] {
        var a = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
        if dacOverride { a += ["--inh-caps=+dac_override", "--ambient-caps=+dac_override"] }
        return a
    }

    /// A one-shot client in Python (a separate process, so it can run as another user): connects,
    /// sends `line`, prints `reply <line>` or `connect-error <errno>` or `no-reply`, then `eof` when
    /// the daemon closed the connection afterwards or `open`.
    static let pythonClient = #"""
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
try:
    s.connect(sys.argv[1])
except OSError as e:
    print("connect-error", e.errno); sys.exit(0)
try:
    s.sendall(sys.argv[2].encode() + b"\n")
except OSError as e:
    print("send-error", e.errno)
data = b""
try:
    while not data.endswith(b"\n"):
        c = s.recv(65536)
        if not c: break
        data += c
except OSError as e:
    print("recv-error", e.errno)
print("reply " + data.decode().strip() if data else "no-reply")
try:
    s.settimeout(2)
    print("eof" if s.recv(1) == b"" else "open")
except socket.timeout:
    print("open")
except OSError as e:
    print("eof-error", e.errno)
"""#

    /// Runs `pythonClient` as `uid` (nil: as ourselves) against `socket`.
    static func clientAs(_ uid: Int?, dacOverride: Bool = false, socket: String, line: String) throws -> String {
        let py = ["/usr/bin/python3", "-c", pythonClient, socket, line]
        let args = uid.map { asUser($0, dacOverride: dacOverride) + py } ?? py
        return try run(args).out
    }

    // MARK: - Mounts (root)

    /// Mounts a tmpfs of `size` (e.g. "4m") on `path` (created), owned by `uid`.
    static func mountTmpfs(_ path: String, size: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let r = try run(["/usr/bin/mount", "-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path])
        guard r.status == 0 else { throw HarnessError.notReady("mount tmpfs on \(path): \(r.err)") }
    }

    static func remount(_ path: String, readOnly: Bool) throws {
        let r = try run(["/usr/bin/mount", "-o", "remount,\(readOnly ? "ro" : "rw")", path])
        guard r.status == 0 else { throw HarnessError.notReady("remount \(path): \(r.err)") }
    }

    static func unmount(_ path: String) {
        _ = try? run(["/usr/bin/umount", "-l", path])
    }

    static var canMount: Bool {
        guard isRoot else { return false }
        var t = Array("/tmp/wm.XXXXXX".utf8CString)
        guard let p = mkdtemp(&t) else { return false }
        let dir = String(cString: p)
        defer { rmdir(dir) }
        guard (try? mountTmpfs(dir, size: "64k")) != nil else { return false }
        unmount(dir)
        return true
    }
}

extension Issue {
    /// Records a failure when running under CI=true; otherwise says why the test did nothing
    /// ("SKIPPED: why" on stdout and as a known issue, so it does not count as a plain pass).
    static func recordIfCI(_ why: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if Reliability.inCI {
            Issue.record("required in CI: \(why)", sourceLocation: sourceLocation)
        } else {
            // Not a silent pass: a known issue, which swift test's summary line counts.
            print("SKIPPED: \(why)")
            withKnownIssue("SKIPPED: \(why)", sourceLocation: sourceLocation) {
                Issue.record("SKIPPED: \(why)", sourceLocation: sourceLocation)
            }
        }
    }
}

extension DaemonHarness {
    /// Starts the daemon through `prefix` (e.g. `Reliability.asUser(65534)`, which execs, so the
    /// process is the daemon itself), after handing the temp directory to `owner`.
    func start(prefix: [String], owner: uid_t) throws {
        _ = try Reliability.run(["/bin/chown", "-R", "\(owner):\(owner)", dir])
        try start(prefix: prefix)
    }

    var pid: Int32 { process?.processIdentifier ?? -1 }

    /// Runs workoutd to completion (for start-up refusals) and returns its status and stderr.
    func runToExit(timeout: Double = 10) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: DaemonHarness.binary("workoutd"))
        p.environment = environment
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let drain = PipeDrain(err)
        pollUntil(seconds: timeout) { !p.isRunning }
        if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit(); return (-1, "still running after \(timeout) s") }
        return (p.terminationStatus, drain.take(untilEnd: true))
    }
}
