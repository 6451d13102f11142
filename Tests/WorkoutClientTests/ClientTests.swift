import Foundation
import Testing
import WorkoutCore
@testable import WorkoutClient

@Suite struct ClientTests {
    static let statusReply = #"{"ok":true,"state":"idle","workout":null,"gps":{"source":null,"fix":"none","lastFixAgeSeconds":null,"satellites":null,"problem":null},"action":"Start running","saveError":null}"#

    func client(_ capture: Capture, _ daemon: FakeDaemon?) -> Client {
        var c = Client(console: capture.console, paths: SocketPaths(directory: daemon?.dir ?? "/tmp/wc-none"), renderer: Renderer(clock: .utc))
        c.requestTimeout = 2
        c.catchesSignals = false
        return c
    }

    @Test func statusOverARealSocket() throws {
        let d = FakeDaemon()
        d.start(.reply([Self.statusReply]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["status"], cwd: "/") == .ok)
        #expect(d.lines == [#"{"command":"status"}"#])
        #expect(cap.stdout.contains("State:     idle"))
        #expect(cap.stdout.contains("Toggle:    Start running"))
        #expect(cap.stderr.isEmpty)
    }

    @Test func jsonPrintsTheReplyWithoutOK() throws {
        let d = FakeDaemon()
        d.start(.reply([Self.statusReply]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["--json", "--socket", d.path, "status"], cwd: "/") == .ok)
        let j = try JSON.parse(cap.stdout)
        #expect(j["ok"] == nil)
        #expect(j["state"]?.stringValue == "idle")
        #expect(j["workout"]?.isNull == true)
        #expect(j["gps"]?["fix"]?.stringValue == "none")
    }

    @Test func refusalExits1WithTheReasonOnStderr() {
        let d = FakeDaemon()
        d.start(.reply([#"{"ok":false,"error":{"code":"not_active","message":"no workout to stop"}}"#]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["stop"], cwd: "/") == .failed)
        #expect(cap.stderr == "workoutctl: no workout to stop\n")
        #expect(cap.stdout.isEmpty)
    }

    @Test func noSocketFileExits69WithHowToStart() {
        let cap = Capture()
        #expect(client(cap, nil).run(arguments: ["status"], cwd: "/") == .unavailable)
        #expect(cap.stderr.contains("/tmp/wc-none/control.sock"))
        #expect(cap.stderr.contains("`workoutd`"))
        #expect(cap.stderr.contains("systemctl --user start workoutd.socket"))
    }

    @Test func socketWithoutListenerExits69() {
        // A socket file nobody listens on (a daemon that crashed): ECONNREFUSED.
        let dir = FakeDaemon()
        let stale = dir.dir + "/stale.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in stale.utf8.enumerated() { raw[i] = b } }
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(fd)
        defer { unlink(stale) }
        let cap = Capture()
        #expect(client(cap, dir).run(arguments: ["--socket", stale, "pause"], cwd: "/") == .unavailable)
        #expect(cap.stderr.contains("Connection refused"))
    }

    @Test func hangUpWithoutReplyExits69() {
        let d = FakeDaemon()
        d.start(.hangUp)
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["lap"], cwd: "/") == .unavailable)
        #expect(cap.stderr.contains("closed the connection"))
    }

    @Test func silentDaemonTimesOutWith69() {
        let d = FakeDaemon()
        d.start(.silent)
        let cap = Capture()
        var c = client(cap, d)
        c.requestTimeout = 0.2
        #expect(c.run(arguments: ["status"], cwd: "/") == .unavailable)
        #expect(cap.stderr.contains("did not answer"))
    }

    /// `reload` names what changed and, on a line of its own, what waits for the next start.
    @Test func reloadNamesTheKeysThatNeedARestart() {
        let d = FakeDaemon()
        d.start(.reply([#"{"ok":true,"changed":["historyDir","units"],"needsRestart":["historyDir"]}"#]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["reload"], cwd: "/") == .ok)
        #expect(cap.stdout == "Configuration reloaded; changed: historyDir, units.\nTakes effect at the next start: historyDir.\n", "\(cap.stdout)")
        let quiet = FakeDaemon()
        quiet.start(.reply([#"{"ok":true,"changed":[],"needsRestart":[]}"#]))
        let cap2 = Capture()
        #expect(client(cap2, quiet).run(arguments: ["reload"], cwd: "/") == .ok)
        #expect(cap2.stdout == "Configuration reloaded; nothing changed.\n", "\(cap2.stdout)")
    }

    @Test func garbageReplyExits1() {
        let d = FakeDaemon()
        d.start(.reply(["hello"]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["status"], cwd: "/") == .failed)
        #expect(cap.stderr.contains("not JSON"))
    }

    @Test func importWithAnErrorExits1() throws {
        let d = FakeDaemon()
        for name in ["a.gpx", "b.gpx"] { _ = FileManager.default.createFile(atPath: d.dir + "/" + name, contents: Data("<gpx/>".utf8)) }
        defer { for name in ["a.gpx", "b.gpx"] { unlink(d.dir + "/" + name) } }
        let a = d.dir + "/a.gpx", b = d.dir + "/b.gpx"
        d.start(.reply([#"{"event":"import","file":"\#(a)","id":"20261121T093000Z-3f9a","result":"imported"}"# + "\n"
                        + #"{"event":"import","file":"\#(b)","id":null,"result":"error","error":"truncated"}"# + "\n"
                        + #"{"ok":true,"imported":1,"duplicates":0,"errors":1,"cancelled":false}"#]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["import", "a.gpx", "b.gpx"], cwd: d.dir) == .failed)
        let req = try JSON.parse(d.lines.first ?? "")
        #expect(req["descriptors"] == [["file": .string(a)], ["file": .string(b)]], "one descriptor per file, no paths to open")
        #expect(cap.stdout.contains("imported   \(a) -> 20261121T093000Z-3f9a"))
        #expect(cap.stdout.contains("error      \(b): truncated"))
        #expect(cap.stdout.contains("1 imported, 0 duplicates, 1 error."))
    }

    @Test func importRefusesWhatIsNotARegularFileBeforeSending() throws {
        let d = FakeDaemon()
        let fifo = d.dir + "/pipe.gpx"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        d.start(.silent)
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["import", fifo, "/dev/zero"], cwd: "/") == .failed)
        #expect(cap.stdout.contains("error      \(fifo): a FIFO (named pipe), not a regular file: refused"))
        #expect(cap.stdout.contains("error      /dev/zero: a character device, not a regular file: refused"))
        #expect(d.lines.isEmpty, "nothing was sent")
    }

    /// The daemon writes into the passed descriptor (integration tests: ExportTests); here the
    /// temporary file is renamed into place once the reply says so.
    @Test func exportWritesTheFileAtomically() throws {
        let d = FakeDaemon()
        d.start(.reply([#"{"ok":true,"format":"gpx","bytes":0}"#]))
        let cap = Capture()
        let out = d.dir + "/run.gpx"
        defer { unlink(out) }
        #expect(client(cap, d).run(arguments: ["export", "20261121T093000Z-3f9a", "--format", "gpx", "--output", "run.gpx"], cwd: d.dir) == .ok)
        #expect(FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: d.dir).filter { $0.contains("tmp") }.isEmpty)
        #expect(try JSON.parse(d.lines[0]) == ["command": "export", "id": "20261121T093000Z-3f9a", "format": "gpx", "descriptor": true])
    }

    @Test func exportRefusedLeavesNoFile() throws {
        let d = FakeDaemon()
        d.start(.reply([#"{"ok":false,"error":{"code":"not_found","message":"no saved workout"}}"#]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["export", "20261121T093000Z-3f9a", "--format", "gpx", "--output", "gone.gpx"], cwd: d.dir) == .failed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: d.dir).filter { $0.contains("gone") }.isEmpty)
    }

    @Test func exportToStdoutWithJSONCarriesTheContent() {
        let d = FakeDaemon()
        d.start(.reply([#"{"ok":true,"format":"json","content":"{}\n"}"#]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["--json", "export", "20261121T093000Z-3f9a", "--format", "json"], cwd: "/") == .ok)
        #expect(cap.stdout.contains(#""content" : "{}\n""#) || cap.stdout.contains(#""content": "{}\n""#), "\(cap.stdout)")
    }

    @Test func exportToAnUnwritablePlaceExits1() {
        let d = FakeDaemon()
        d.start(.reply([#"{"ok":true,"format":"gpx","content":"x"}"#]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["export", "20261121T093000Z-3f9a", "--format", "gpx", "--output", "/nonexistent-dir/x.gpx"], cwd: "/") == .failed)
        #expect(cap.stderr.contains("cannot create"))
    }

    @Test func deleteTellsHowToUndo() {
        let d = FakeDaemon()
        d.start(.reply([#"{"ok":true,"id":"20261121T093000Z-3f9a"}"#]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["delete", "20261121T093000Z-3f9a"], cwd: "/") == .ok)
        #expect(cap.stdout.contains("workoutctl undelete 20261121T093000Z-3f9a"))
    }

    @Test func watchPipedPrintsOneLinePerUpdateAndEndsWhenTheDaemonCloses() {
        let d = FakeDaemon()
        let ev = #"{"event":"status","state":"active","workout":null,"gps":{"fix":"3D","source":"x"},"action":"Stop running","saveError":null}"#
        d.start(.reply([String(Self.statusReply.dropLast()) + #","subscribed":true}"#, ev, ev]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["watch"], cwd: "/") == .ok)
        #expect(d.lines == [#"{"command":"watch"}"#])
        let lines = cap.stdout.split(separator: "\n")
        #expect(lines == ["idle  GPS none", "active  GPS 3D", "active  GPS 3D"])
        #expect(!cap.stdout.contains("\u{1B}"))
    }

    @Test func watchOnATerminalRedrawsInPlace() {
        let d = FakeDaemon()
        d.start(.reply([Self.statusReply, #"{"event":"status","state":"paused","workout":null,"gps":null,"action":"Resume","saveError":null}"#]))
        let cap = Capture(isTerminal: true)
        #expect(client(cap, d).run(arguments: ["watch"], cwd: "/") == .ok)
        // First block: 3 lines (state, GPS, toggle); the redraw moves up 3 lines and clears.
        #expect(cap.stdout.contains("\u{1B}[3F\u{1B}[J" + "State:     paused"))
    }

    @Test func watchJSONPrintsOneObjectPerLine() throws {
        let d = FakeDaemon()
        d.start(.reply([Self.statusReply, #"{"event":"status","state":"active"}"#]))
        let cap = Capture()
        #expect(client(cap, d).run(arguments: ["--json", "watch"], cwd: "/") == .ok)
        let lines = cap.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(try JSON.parse(lines[0])["ok"] == nil)
        #expect(try JSON.parse(lines[1])["state"]?.stringValue == "active")
    }

    @Test func simulateAJSONLinesFileAsFastAsPossible() throws {
        let feed = FakeDaemon(name: "feed.sock")
        feed.start(.readAll)
        let file = feed.dir + "/fixes.jsonl"
        try """
        {"class":"FIX","time":"2026-11-21T09:30:00Z","lat":52.5,"lon":13.4}
        {"class":"FIX","time":"2026-11-21T09:30:01Z","lat":52.50001,"lon":13.4}

        """.write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let cap = Capture()
        #expect(client(cap, feed).run(arguments: ["simulate", file, "--speed", "0", "--feed-socket", feed.path], cwd: "/") == .ok)
        feed.waitUntilFinished()
        #expect(feed.lines.count == 3)
        #expect(feed.lines.first == #"{"class":"SIMULATION","speed":0}"#)
        #expect(feed.lines[2].contains("09:30:01Z"))
        #expect(cap.stdout.contains("Sent 2 lines."))
    }

    @Test func simulateTheBuiltInRoute() throws {
        let feed = FakeDaemon(name: "feed.sock")
        feed.start(.readAll)
        let cap = Capture()
        // No control socket there: the activity comes from --activity; the feed is beside --socket.
        #expect(client(cap, nil).run(arguments: ["--socket", feed.dir + "/control.sock", "simulate", "--speed", "0", "--activity", "cycling"], cwd: "/") == .ok)
        feed.waitUntilFinished()
        #expect(feed.lines.count == 1 + BuiltInRoute.lapSeconds)
        let fix = try JSON.parse(feed.lines[1])
        #expect(fix["class"]?.stringValue == "FIX")
        #expect(fix["speed"]?.doubleValue.map { $0 > 5 && $0 < 9 } == true)
    }

    @Test func simulateWithoutFeedSocketExits69() {
        let cap = Capture()
        #expect(client(cap, nil).run(arguments: ["simulate", "--speed", "0", "--activity", "running"], cwd: "/") == .unavailable)
        #expect(cap.stderr.contains("feed.sock"))
    }

    @Test func simulateAMissingFileExits1() {
        let cap = Capture()
        #expect(client(cap, nil).run(arguments: ["simulate", "/nonexistent.nmea"], cwd: "/") == .failed)
        #expect(cap.stderr.contains("No such file"))
    }

    @Test func versionAndHelpNeedNoDaemon() {
        let cap = Capture()
        #expect(client(cap, nil).run(arguments: ["--version"], cwd: "/") == .ok)
        #expect(client(cap, nil).run(arguments: ["list", "--help"], cwd: "/") == .ok)
        #expect(cap.stdout.contains("workoutctl 0.1.0"))
        #expect(cap.stdout.contains("Usage: workoutctl [--socket PATH] [--json] list"))
    }

    @Test func socketPaths() {
        #expect(SocketPaths(environment: { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1000" : nil }, uid: 1000).control == "/run/user/1000/workoutd/control.sock")
        #expect(SocketPaths(environment: { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1000/" : nil }, uid: 1000).feed == "/run/user/1000/workoutd/feed.sock")
        #expect(SocketPaths(environment: { _ in nil }, uid: 1000).control == "/tmp/workoutd-1000/control.sock")
        #expect(SocketPaths(environment: { _ in "relative" }, uid: 7).control == "/tmp/workoutd-7/control.sock")
    }

    @Test func exitCodesOfTheContract() {
        #expect(ExitCode.ok.rawValue == 0)
        #expect(ExitCode.failed.rawValue == 1)
        #expect(ExitCode.usage.rawValue == 2)
        #expect(ExitCode.unavailable.rawValue == 69)
    }
}
