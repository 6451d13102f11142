import Foundation
import Glibc

/// `../shared/tools/gpsd-replay`: the real gpsd on loopback, fed a real capture.
final class GpsdReplay {
    let port: Int
    let feedPort: Int
    let state: String
    let log: String

    init(capture: String, port: Int, rate: Double) throws {
        self.port = port
        self.feedPort = port + 7000
        self.state = "/tmp/gr.\(port).\(getpid())"
        self.log = DaemonHarness.sharedRoot.appendingPathComponent("data/nmea/\(capture)").path
        try start(rate: rate)
    }

    func start(rate: Double) throws {
        // system(3), not Foundation's Process: Process.waitUntilExit hangs here when the script
        // leaves gpsd and the feeder running in the background.
        let script = DaemonHarness.sharedRoot.appendingPathComponent("tools/gpsd-replay").path
        let rc = system("'\(script)' start '\(log)' --port \(port) --feed-port \(feedPort) --rate \(rate) --state '\(state)' >/dev/null 2>&1 </dev/null")
        guard rc == 0 else { throw HarnessError.notReady("gpsd-replay start exited \(rc)") }
    }

    /// Kills gpsd (SIGKILL, as a crash) and the feeder by the PIDs gpsd-replay recorded.
    func stop() {
        for name in ["gpsd", "feeder"] { killRecorded(name) }
        try? FileManager.default.removeItem(atPath: state)
    }

    /// Kills only gpsd; the feeder keeps serving the capture to the next gpsd.
    func killGpsd() { killRecorded("gpsd") }

    /// Starts a new gpsd on the same ports, as a restarted service would.
    func restartGpsd() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/sbin/gpsd")
        p.arguments = ["-N", "-b", "-S", "\(port)", "-F", state + "/control2.sock", "tcp://127.0.0.1:\(feedPort)"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        try "\(p.processIdentifier)".write(toFile: state + "/gpsd.pid", atomically: true, encoding: .utf8)
        pollUntil(seconds: 5, every: 0.1) { (try? TCPProbe(port: port)).map { $0.close() } != nil }
    }

    private func killRecorded(_ name: String) {
        guard let text = try? String(contentsOfFile: state + "/\(name).pid", encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1 else { return }
        kill(pid, SIGKILL)
        pollUntil(seconds: 1) { Self.isGone(pid) }
    }

    /// Whether `pid` has ended: no such process, or a zombie. gpsd-replay leaves gpsd and the
    /// feeder to the init process, which reaps them when it likes (a container's may never): a
    /// killed one stayed a zombie, and every kill waited out its whole second.
    static func isGone(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return true }
        return stat[end...].dropFirst().drop { $0 == " " }.first == "Z"  // "pid (comm) state ..."
    }

    deinit { stop() }
}

/// A TCP connect to 127.0.0.1:port, to see whether something listens.
struct TCPProbe {
    let fd: Int32
    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = in_port_t(UInt16(port).bigEndian)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if rc != 0 { Glibc.close(fd); throw HarnessError.connect(errno) }
    }
    func close() { Glibc.close(fd) }
}
