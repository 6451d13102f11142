import Foundation
import Glibc

/// Runs the real `workoutd` binary in a private short temp directory (sun_path is 108 bytes)
/// and talks to it over its real control socket. For the suites where the process is the point:
/// signals, exit statuses, kills and restarts, other users, the process's memory, the clock shim.
/// Everything else embeds the daemon (`EmbeddedDaemon`).
final class DaemonHarness: DaemonUnderTest, @unchecked Sendable {
    static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// `../shared` beside the project: real captures and tools (tests needing it say
    /// `.requires(.sharedData)`: skipped with the reason on a bare clone, run in CI).
    static let sharedRoot = projectRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// The project's build of `name`; `WORKOUTD_BINARY_DIR` points at another build (e.g. the
    /// previous release, to show that a regression test fails there).
    static func binary(_ name: String) -> String {
        if let dir = ProcessInfo.processInfo.environment["WORKOUTD_BINARY_DIR"] { return dir + "/" + name }
        for dir in [".build/debug", ".build/release"] {
            let p = projectRoot.appendingPathComponent(dir).appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return projectRoot.appendingPathComponent(".build/debug/\(name)").path
    }

    let dir: String
    var process: Process?
    /// The daemon's stderr, read as it is written (a pipe nobody reads fills at 64 KiB and then
    /// the daemon's log writes wait: a test waiting on the daemon would never end).
    var stderrDrain: PipeDrain?
    /// The daemon's stderr pipe; `readsStderr = false` leaves it unread (a test of a full pipe).
    var stderrPipe = Pipe()
    var readsStderr = true
    var environment: [String: String]

    init(config: String? = nil, extraEnv: [String: String] = [:]) throws {
        (dir, environment) = try Self.makeDirectory(prefix: "wd", extraEnv: extraEnv)
        if let config { try writeConfig(config) }
    }

    /// Starts the daemon (through `prefix`, e.g. a command that execs it as another user) and
    /// waits until its control socket answers.
    func start(prefix: [String] = [], timeout: Double = 20) throws {
        let p = Process()
        let command = prefix + [DaemonHarness.binary("workoutd")]
        p.executableURL = URL(fileURLWithPath: command[0])
        p.arguments = Array(command.dropFirst())
        p.environment = environment
        let pipe = Pipe()  // a pipe serves one process: Foundation closes its write end after launch
        stderrPipe = pipe
        p.standardError = pipe
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        process = p
        stderrDrain = readsStderr ? PipeDrain(pipe) : nil
        // 20 s by default: a busy CI machine, a big history
        if pollUntil(seconds: timeout, { (try? request(#"{"command":"status"}"#)) != nil }) { return }
        throw HarnessError.notReady(stderrText())
    }

    /// What the daemon wrote to stderr since the last call: all of it once the daemon has ended.
    func stderrText() -> String {
        guard let drain = stderrDrain else { return "" }
        return drain.take(untilEnd: !(process?.isRunning ?? false))
    }

    var isRunning: Bool { process?.isRunning ?? false }

    /// SIGTERM and wait; returns the exit status.
    @discardableResult
    func stop(signal sig: Int32 = SIGTERM) -> Int32 {
        guard let p = process, p.isRunning else { return process?.terminationStatus ?? -1 }
        kill(p.processIdentifier, sig)
        p.waitUntilExit()
        return p.terminationStatus
    }

    func kill9() {
        guard let p = process, p.isRunning else { return }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
    }

    deinit {
        if let p = process, p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
        try? FileManager.default.removeItem(atPath: dir)
    }

    static func parse(_ line: String) throws -> [String: Any] {
        guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { throw HarnessError.notAnObject(line) }
        return o
    }

}

/// Writes all of `bytes` to the socket `fd`, again after EINTR; never raises SIGPIPE.
func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
    var off = 0
    while off < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + off, bytes.count - off, Int32(MSG_NOSIGNAL)) }
        if n < 0 { if errno == EINTR { continue }; throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        off += n
    }
}

/// Suspends until `fd` has bytes to read or its peer closed, at most `seconds`; whether it has. An
/// `async` test awaits a long reply with it (a daemon working for a minute), then reads it.
func awaitReadable(_ fd: Int32, seconds: Double) async -> Bool {
    await waitUntil(seconds: seconds, every: 0.01) {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 1
    }
}

enum HarnessError: Error { case notReady(String), closed, notAnObject(String), connect(Int32) }

/// A blocking Unix-socket client with a read timeout.
final class UnixClient {
    let fd: Int32
    var buffer: [UInt8] = []
    /// `buffer[..<scanned]` holds no newline: each read scans only the bytes it added (a
    /// 4 MiB reply read in small chunks was scanned from its start each time: 40 s of CPU).
    var scanned = 0

    init(path: String, timeoutSeconds: Int = 30) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 { let e = errno; Glibc.close(fd); throw HarnessError.connect(e) }
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ s: String) throws { try send(Array(s.utf8)) }

    func send(_ bytes: [UInt8]) throws { try sendAll(fd, bytes) }

    /// The next line, or nil when the peer closed.
    func readLine() throws -> String? {
        while true {
            if let nl = buffer[scanned...].firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                scanned = 0
                return line
            }
            scanned = buffer.count
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { return nil }
            if n < 0 { if errno == EINTR { continue }; throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    func close() { Glibc.close(fd) }
}

extension DaemonUnderTest {
    /// A GPX run of `points` 1 Hz points from `start` (UTC seconds), heading north, written as
    /// `NAME.gpx` and imported with `workoutctl import`; returns its ID. `winding`: the track
    /// weaves east and west and its altitude climbs in 60 m ramps (charts with something on them).
    func importRun(name: String, start: Double, points: Int, winding: Bool) throws -> String {
        let gpx = dir + "/\(name).gpx"
        var text = #"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><type>running</type><trkseg>"#
        for k in 0..<points {
            let t = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: start + Double(k)))
            let lon = winding ? "\(8.54 + sin(Double(k) / 50) * 0.0003)" : "8.54"
            let ele = winding ? "\(420 + Double(k % 60))" : "420"
            text += #"<trkpt lat="\#(47.37 + Double(k) * 0.00003)" lon="\#(lon)"><ele>\#(ele)</ele><time>\#(t)</time></trkpt>"#
        }
        text += "</trkseg></trk></gpx>"
        try text.write(toFile: gpx, atomically: true, encoding: .utf8)
        let r = try ctl(["--json", "import", gpx])
        let reply = try DaemonHarness.parse(r.stdout.replacingOccurrences(of: "\n", with: ""))
        guard let id = ((reply["results"] as? [[String: Any]])?.first?["id"]) as? String else { throw HarnessError.notAnObject(r.stdout) }
        return id
    }
}
