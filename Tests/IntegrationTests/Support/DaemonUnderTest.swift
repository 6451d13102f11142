import Foundation
import Glibc

/// A daemon a test talks to over its real control socket, in a private short temp directory
/// (sun_path is 108 bytes): the real process (`DaemonHarness`) or the daemon embedded in the
/// test's process (`EmbeddedDaemon`). What a test does with either is written once, here.
protocol DaemonUnderTest: AnyObject {
    /// The temp directory holding the daemon's XDG directories.
    var dir: String { get }
    /// The environment the daemon and `workoutctl` see (the XDG directories point into `dir`).
    var environment: [String: String] { get }
    /// What the daemon wrote to stderr (its log lines) since the last call.
    func stderrText() -> String
    /// Whether the daemon is up: started, and neither stopped nor ended.
    var isRunning: Bool { get }
}

extension DaemonUnderTest {
    var controlSocket: String { dir + "/r/workoutd/control.sock" }
    var feedSocket: String { dir + "/r/workoutd/feed.sock" }
    var dataDir: String { dir + "/d/workoutd" }
    var stateDir: String { dir + "/s/workoutd" }
    var configFile: String { dir + "/c/workoutd/config.json" }

    /// A private short temp directory and the environment that points the daemon into it.
    static func makeDirectory(prefix: String, extraEnv: [String: String]) throws -> (dir: String, environment: [String: String]) {
        var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
        guard let p = mkdtemp(&template) else { throw POSIXError(.EIO) }
        let dir = String(cString: p)
        try FileManager.default.createDirectory(atPath: dir + "/r", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = dir + "/r"
        environment["XDG_DATA_HOME"] = dir + "/d"
        environment["XDG_STATE_HOME"] = dir + "/s"
        environment["XDG_CONFIG_HOME"] = dir + "/c"
        environment["NOTIFY_SOCKET"] = nil
        environment["LISTEN_FDS"] = nil
        environment["JOURNAL_STREAM"] = nil
        for (k, v) in extraEnv { environment[k] = v }
        return (dir, environment)
    }

    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: dir + "/c/workoutd", withIntermediateDirectories: true)
        try text.write(toFile: configFile, atomically: true, encoding: .utf8)
    }

    /// One request on a new connection; the reply is waited for `timeoutSeconds` at most.
    func request(_ line: String, timeoutSeconds: Int = 30) throws -> [String: Any] {
        let c = try UnixClient(path: controlSocket, timeoutSeconds: timeoutSeconds)
        defer { c.close() }
        try c.send(line + "\n")
        guard let reply = try c.readLine() else { throw HarnessError.closed }
        return try DaemonHarness.parse(reply)
    }

    /// `request` for `async` tests: suspends until the reply begins (a `show` the daemon works on
    /// for a minute), then reads it.
    func requestSuspending(_ line: String, timeoutSeconds: Int = 30) async throws -> [String: Any] {
        let c = try UnixClient(path: controlSocket, timeoutSeconds: timeoutSeconds)
        defer { c.close() }
        try c.send(line + "\n")
        _ = await awaitReadable(c.fd, seconds: Double(timeoutSeconds))
        guard let reply = try c.readLine() else { throw HarnessError.closed }
        return try DaemonHarness.parse(reply)
    }

    /// Polls `status` until `condition` holds or `seconds` pass; returns the last status.
    @discardableResult
    func waitForStatus(seconds: Double, _ condition: ([String: Any]) -> Bool) throws -> [String: Any] {
        var last: [String: Any] = [:]
        try pollUntil(seconds: seconds) { last = try request(#"{"command":"status"}"#); return condition(last) }
        return last
    }

    /// `waitForStatus` for `async` tests: it suspends between looks (no pool thread held while
    /// the daemon works).
    @discardableResult
    func awaitStatus(seconds: Double, _ condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var last: [String: Any] = [:]
        try await waitUntil(seconds: seconds) { last = try request(#"{"command":"status"}"#); return condition(last) }
        return last
    }

    /// The lines of the daemon's log file (`log.file`) once `condition` holds for them, or as they
    /// are after `seconds`: a thread of the daemon's own writes them, a moment after the reply
    /// to the request that logged them (the loop never waits for a log write).
    func logFileLines(waitingUpTo seconds: Double = 5, until condition: ([Substring]) -> Bool) -> [Substring] {
        var lines: [Substring] = []
        pollUntil(seconds: seconds) {
            lines = ((try? String(contentsOfFile: stateDir + "/workoutd.log", encoding: .utf8)) ?? "").split(separator: "\n")
            return condition(lines)
        }
        return lines
    }

    /// `logFileLines` for `async` tests: it suspends between looks.
    func awaitLogFileLines(waitingUpTo seconds: Double = 5, until condition: ([Substring]) -> Bool) async -> [Substring] {
        var lines: [Substring] = []
        await waitUntil(seconds: seconds) {
            lines = ((try? String(contentsOfFile: stateDir + "/workoutd.log", encoding: .utf8)) ?? "").split(separator: "\n")
            return condition(lines)
        }
        return lines
    }

    /// Runs workoutctl against this daemon.
    func ctl(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let r = try Reliability.run([DaemonHarness.binary("workoutctl")] + args, environment: environment)
        return (r.status, r.out, r.err)
    }

    /// `ctl` for `async` tests: suspends while workoutctl runs (a `simulate` for seconds).
    func ctlSuspending(_ args: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let r = try await Reliability.runSuspending([DaemonHarness.binary("workoutctl")] + args, environment: environment)
        return (r.status, r.out, r.err)
    }
}
