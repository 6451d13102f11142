import Foundation
import TestRequirements
import Glibc
import WorkoutCore
@testable import WorkoutDaemon

/// The whole daemon in the test's process, on a `ManualClock`: real control and feed sockets in
/// a short temp dir, real journal and store, and a loop the test drives. Time passes only when
/// the test says (`advance`), so an hour of a workout runs in milliseconds and asserts are exact.
final class InProcessDaemon {
    let dir: String
    let clock: ManualClock
    let daemon: Daemon
    let paths: Paths
    let configPath: String
    private var feed: Int32 = -1
    /// Every event the daemon logged since `start` (at any level), as the log file would show it.
    private(set) var logged: [LogfmtLine] = []

    /// `poller`: epoll_wait(2) by default; a test may wrap it to count what wakes the loop.
    /// `configure`: the daemon's other ports (`DaemonPorts`: the store's faults, web limits).
    /// `prepare`: runs on the fresh directories before the daemon starts (a journal left by a
    /// crash, copied in with `copyState(from:)`).
    init(config: String, clock: ManualClock, poller: EventLoop.Poller? = nil, configure: (inout DaemonPorts) -> Void = { _ in }, prepare: (Paths) throws -> Void = { _ in }) throws {
        var template = Array("/tmp/ip.XXXXXX".utf8CString)
        guard let p = mkdtemp(&template) else { throw POSIXError(.EIO) }
        dir = String(cString: p)
        let env = ["XDG_RUNTIME_DIR": dir + "/r", "XDG_DATA_HOME": dir + "/d", "XDG_STATE_HOME": dir + "/s",
                   "XDG_CONFIG_HOME": dir + "/c", "HOME": dir]
        try FileManager.default.createDirectory(atPath: dir + "/r", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: dir + "/c/workoutd", withIntermediateDirectories: true)
        configPath = dir + "/c/workoutd/config.json"
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        let loaded = try ConfigLoader.load(path: configPath).get()
        self.clock = clock
        paths = Paths(environment: env)
        try prepare(paths)
        var ports = DaemonPorts(clock: clock, poller: poller ?? EventLoop.wait)
        ports.webDefaultPort = 0
        configure(&ports)
        daemon = try Daemon(config: loaded, configPath: configPath, paths: paths, environment: env, ports: ports)
        try daemon.start(handlingSignals: false)
        let logger = daemon.context.logger
        let tap = logger.tap
        logger.tap = { [unowned self] event, wallTime in
            tap?(event, wallTime)
            if let line = LogfmtParser.parse(Logfmt.render(event, style: .plain, timestamp: wallTime)) { self.logged.append(line) }
        }
    }

    /// The logged events named `name`, oldest first.
    func events(_ name: String) -> [LogfmtLine] { logged.filter { $0["event"] == name } }

    /// Replaces the configuration file (for `reload`).
    func writeConfig(_ text: String) throws { try text.write(toFile: configPath, atomically: true, encoding: .utf8) }

    /// What a crash leaves behind: copies `other`'s state directory (the journal as it is on disk
    /// now, sockets left out) into `paths`' state directory. Use in `prepare`.
    static func copyState(from other: InProcessDaemon, to paths: Paths) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: paths.stateDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard let files = fm.enumerator(atPath: other.paths.stateDir) else { return }
        for case let name as String in files {
            let from = other.paths.stateDir + "/" + name, to = paths.stateDir + "/" + name
            var st = stat()
            guard lstat(from, &st) == 0 else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFDIR: try fm.createDirectory(atPath: to, withIntermediateDirectories: true)
            case S_IFREG: try fm.copyItem(atPath: from, toPath: to)
            default: continue
            }
        }
    }

    deinit {
        if feed >= 0 { close(feed) }
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// Moves the clock (every timer due on the way runs at its own time).
    func advance(_ seconds: Double) throws { try daemon.loop.advanceTime(by: seconds) }

    /// One request line, one reply: the loop is turned (without moving the clock) until the reply
    /// is there. Work on other threads (a save) is waited for with `until`.
    func request(_ line: String) throws -> JSON {
        let fd = try Self.connect(paths.controlSocket)
        defer { close(fd) }
        try Self.send(fd, line + "\n")
        return try reply(on: fd)
    }

    /// The next reply line on the client socket `fd`: the loop is turned until it is there, at
    /// most `turns` turns.
    func reply(on fd: Int32, turns: Int = 2000) throws -> JSON {
        var got: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let replied = try until(tries: turns) {
            let n = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if n > 0 { got += chunk[0..<n] }
            return got.contains(10)
        }
        guard replied, let nl = got.firstIndex(of: 10) else { throw POSIXError(.ETIMEDOUT) }
        return try JSON.parse(Array(got[..<nl]))
    }

    func status() throws -> JSON { try request(#"{"command":"status"}"#) }

    /// Turns the loop until `condition` holds (for work on other threads), at most `tries` turns
    /// 0.5 ms apart.
    @discardableResult
    func until(tries: Int = 4000, _ condition: () throws -> Bool) throws -> Bool {
        var held = false, turns = 0
        try pollUntil(seconds: 3600, every: 0.0005) {
            held = try condition()
            if held || turns == tries { return true }
            try daemon.loop.runReady()
            turns += 1
            return false
        }
        return held
    }

    /// Writes a JSON fix line to the feed socket, dated by the daemon's wall clock now (or
    /// `time`), `east` metres east of the start (with `power` in W when given), and lets the
    /// loop read it.
    func fix(east: Double, time: Double? = nil, power: Int? = nil) throws {
        if feed < 0 { feed = try Self.connect(paths.feedSocket) }
        let t = time ?? clock.wall()
        let lon = 11.5 + east / (111_320 * cos(48.1 * .pi / 180))
        let watts = power.map { #","power":\#($0)"# } ?? ""
        try Self.send(feed, #"{"class":"FIX","time":"\#(ISO8601.format(t, fractionDigits: 3))","lat":48.1,"lon":\#(lon),"alt":500,"mode":3,"eph":3\#(watts)}"# + "\n")
        try daemon.loop.runReady()
        try daemon.loop.runReady()
    }

    /// Writes an HR line (a strap's reading: `bpm`, dated now) to the feed socket and lets the
    /// loop read it.
    func heartRate(_ bpm: Int) throws {
        if feed < 0 { feed = try Self.connect(paths.feedSocket) }
        try Self.send(feed, #"{"class":"HR","time":"\#(ISO8601.format(clock.wall(), fractionDigits: 3))","bpm":\#(bpm)}"# + "\n")
        try daemon.loop.runReady()
        try daemon.loop.runReady()
    }

    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else { let e = errno; close(fd); throw POSIXError(POSIXErrorCode(rawValue: e) ?? .EIO) }
        return fd
    }

    static func send(_ fd: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + off, bytes.count - off, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            off += n
        }
    }
}
