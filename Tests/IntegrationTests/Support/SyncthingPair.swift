import Foundation
import Glibc
import Testing

/// Two real Syncthing instances (Debian's `syncthing`) on loopback, each sharing one folder with
/// the other: no discovery, no relays, no NAT, no usage reports; `b` listens and `a` dials it
/// (two instances dialling each other at once can stall for 20 s), started in that order so
/// the first dial succeeds (Syncthing retries a failed dial only after 5 s or more). The
/// folder watcher reports changes after 1 s (`fsWatcherDelayS`). A key left out of the folder's
/// config.xml is zero, not Syncthing's default: `maxConflicts` 0 deletes conflict copies, so it
/// is written out.
final class SyncthingPair {
    static let binary = "/usr/bin/syncthing"
    let a: SyncthingPeer
    let b: SyncthingPeer

    /// Shares `folderA` (on `a`) with `folderB` (on `b`); homes under `dir`.
    init(folderA: String, folderB: String, dir: String) throws {
        guard FileManager.default.isExecutableFile(atPath: SyncthingPair.binary) else {
            throw HarnessError.notReady("syncthing is not installed (apt-get install syncthing)")
        }
        a = try SyncthingPeer(home: dir + "/sta", folder: folderA, name: "a")
        b = try SyncthingPeer(home: dir + "/stb", folder: folderB, name: "b")
        try b.configure(peer: a, dial: false)
        try b.start()
        // After b has started: its listening port is final then (see `start`).
        try a.configure(peer: b, dial: true)
        try a.start()
    }

    func stop() {
        a.stop()
        b.stop()
    }

    deinit { stop() }
}

/// One Syncthing instance: its home (keys, config, database) and the folder it shares.
final class SyncthingPeer {
    let home: String
    let folder: String
    let name: String
    let deviceID: String
    private(set) var listenPort: Int
    private(set) var guiPort: Int
    let apiKey: String
    private var process: Process?
    /// What the configuration names of the other instance, and whether this one dials it.
    struct Peer {
        let deviceID: String
        let name: String
        let listenPort: Int
    }

    /// The last `configure`'s peer, to write the configuration again with new ports.
    private var configured: (peer: Peer, dial: Bool)?

    init(home: String, folder: String, name: String) throws {
        self.home = home
        self.folder = folder
        self.name = name
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let generate = try Reliability.run([SyncthingPair.binary, "generate", "--home=" + home, "--no-default-folder"], environment: SyncthingPeer.environment)
        guard generate.status == 0 else { throw HarnessError.notReady("syncthing generate: \(generate.err)\(generate.out)") }
        let id = try Reliability.run([SyncthingPair.binary, "serve", "--home=" + home, "--device-id"], environment: SyncthingPeer.environment)
        deviceID = id.out.trimmingCharacters(in: .whitespacesAndNewlines)
        guard deviceID.count > 50 else { throw HarnessError.notReady("syncthing --device-id: \(id.out) \(id.err)") }
        listenPort = SyncthingPeer.freePort()
        guiPort = SyncthingPeer.freePort()
        apiKey = "workoutd-test-" + name
        // The folder marker Syncthing requires in a folder that already exists.
        try FileManager.default.createDirectory(atPath: folder + "/.stfolder", withIntermediateDirectories: true)
    }

    /// No default folder, no CPU benchmark at start (it takes seconds on a loaded machine).
    static var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["STNODEFAULTFOLDER"] = "1"
        env["STHASHING"] = "standard"
        env["STMONITORED"] = "yes"  // one process, not a monitor and a child
        env["STNOUPGRADE"] = "1"
        return env
    }

    func configure(peer: SyncthingPeer, dial: Bool) throws {
        try configure(peer: Peer(deviceID: peer.deviceID, name: peer.name, listenPort: peer.listenPort), dial: dial)
    }

    func configure(peer: Peer, dial: Bool) throws {
        configured = (peer, dial)
        let xml = """
        <configuration version="36">
          <folder id="workoutd" label="workoutd" path="\(folder)" type="sendreceive" rescanIntervalS="3600" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
            <device id="\(deviceID)"></device>
            <device id="\(peer.deviceID)"></device>
            <maxConflicts>10</maxConflicts>
          </folder>
          <device id="\(deviceID)" name="\(name)"><address>dynamic</address></device>
          <device id="\(peer.deviceID)" name="\(peer.name)"><address>\(dial ? "tcp://127.0.0.1:\(peer.listenPort)" : "dynamic")</address></device>
          <gui enabled="true" tls="false"><address>127.0.0.1:\(guiPort)</address><apikey>\(apiKey)</apikey></gui>
          <options>
            <listenAddress>tcp://127.0.0.1:\(listenPort)</listenAddress>
            <globalAnnounceEnabled>false</globalAnnounceEnabled>
            <localAnnounceEnabled>false</localAnnounceEnabled>
            <relaysEnabled>false</relaysEnabled>
            <natEnabled>false</natEnabled>
            <urAccepted>-1</urAccepted>
            <crashReportingEnabled>false</crashReportingEnabled>
            <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
            <startBrowser>false</startBrowser>
            <reconnectionIntervalS>1</reconnectionIntervalS>
          </options>
        </configuration>
        """
        try xml.write(toFile: home + "/config.xml", atomically: true, encoding: .utf8)
    }

    /// Starts it and waits until its REST API answers. The ports were free when chosen, but
    /// another test's connection can take one before Syncthing binds it (an outgoing connection
    /// gets a port from the same range); Syncthing then exits at once ("address already in
    /// use"), and it is started again on two new ports, up to three times. Its output (where
    /// it logs when it runs unmonitored) is kept in `syncthing.out`.
    func start() throws {
        for attempt in 1...3 {
            let out = home + "/syncthing.out"
            if !FileManager.default.fileExists(atPath: out) { _ = FileManager.default.createFile(atPath: out, contents: nil) }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: SyncthingPair.binary)
            p.arguments = ["serve", "--home=" + home, "--no-browser", "--no-restart", "--no-upgrade", "--logfile=" + home + "/syncthing.log"]
            p.environment = SyncthingPeer.environment
            let handle = FileHandle(forWritingAtPath: out)  // appended to: each attempt's output is kept
            _ = try? handle?.seekToEnd()
            p.standardOutput = handle ?? FileHandle.nullDevice
            p.standardError = handle ?? FileHandle.nullDevice
            try p.run()
            try? handle?.close()
            process = p
            if pollUntil(seconds: 30, every: 0.05, { !p.isRunning || (try? rest("GET", "/rest/system/ping")) == 200 }), p.isRunning { return }
            guard !p.isRunning, attempt < 3, log().contains("address already in use"), let (peer, dial) = configured else { break }
            listenPort = SyncthingPeer.freePort()
            guiPort = SyncthingPeer.freePort()
            try configure(peer: peer, dial: dial)
        }
        let ended = process.map { $0.isRunning ? "still running" : "exited with status \($0.terminationStatus)" } ?? "not started"
        throw HarnessError.notReady("syncthing \(name) did not answer on 127.0.0.1:\(guiPort) (\(ended)): \(log())")
    }

    func stop() {
        guard let p = process, p.isRunning else { return }
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()
    }

    /// What it logged: its output (unmonitored, it logs there) and its log file, if it wrote one.
    func log() -> String {
        [home + "/syncthing.out", home + "/syncthing.log"].compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    /// Pauses the shared folder here (no scan, no exchange: changes on both sides wait) or
    /// resumes it (scanned and exchanged at once, on the open connection).
    func pauseFolder(_ paused: Bool) throws {
        try expectOK(rest("PATCH", "/rest/config/folders/workoutd", body: paused ? #"{"paused":true}"# : #"{"paused":false}"#))
    }

    private func expectOK(_ status: Int) throws {
        guard status == 200 else { throw HarnessError.notReady("syncthing \(name) answered HTTP \(status)") }
    }

    /// One request to the REST API (HTTP/1.0 over a loopback socket); returns the status code.
    func rest(_ method: String, _ path: String, body: String = "") throws -> Int {
        let probe = try TCPProbe(port: guiPort)
        defer { probe.close() }
        var tv = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(probe.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\nX-API-Key: \(apiKey)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        _ = request.withUnsafeBytes { send(probe.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buf = [UInt8](repeating: 0, count: 256)
        let n = recv(probe.fd, &buf, buf.count, 0)
        guard n > 12 else { throw HarnessError.closed }
        let line = String(decoding: buf[0..<n], as: UTF8.self)
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// A TCP port free on loopback now.
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        a.sin_port = 0
        _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: a.sin_port))
    }
}
