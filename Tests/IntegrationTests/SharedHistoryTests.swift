import Foundation
import Glibc
import Testing
import TestRequirements

/// Issue 30: two machines (two daemons, each with its own `historyDir` and state) whose
/// history folders two real Syncthing instances share on loopback. Everything waits on
/// conditions (Syncthing passes a change on in about a second), never on fixed sleeps.
@Suite(.serialized, .offPool, .requires(.program(.syncthing)))
struct SharedHistoryTests {
    /// The listed workouts: ID -> activity.
    static func listed(_ d: some DaemonUnderTest) throws -> [String: String] {
        var out: [String: String] = [:]
        for w in try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? [] {
            if let id = w["id"] as? String { out[id] = w["activity"] as? String ?? "" }
        }
        return out
    }

    static func conflictCopies(_ d: some DaemonUnderTest) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: d.dir + "/h/workouts")) ?? []).filter { $0.contains(".sync-conflict-") }
    }

    /// A port taken between choosing it and Syncthing binding it (another test's outgoing
    /// connection can take it; CI once saw "syncthing a did not answer") does not fail the
    /// harness: Syncthing exits, and it starts again on new ports.
    @Test func syncthingStartsAgainWhenItsPortWasTaken() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wst.\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for f in ["/fp", "/fq"] { try FileManager.default.createDirectory(atPath: dir + f, withIntermediateDirectories: true) }
        let p = try SyncthingPeer(home: dir + "/p", folder: dir + "/fp", name: "p")
        let q = try SyncthingPeer(home: dir + "/q", folder: dir + "/fq", name: "q")
        try p.configure(peer: q, dial: false)
        let taken = p.guiPort
        let holder = try Self.bind(port: taken)
        defer { close(holder) }
        try p.start()  // the suite runs off the pool (`.offPool`): blocking here holds no pool thread
        defer { p.stop() }
        #expect(p.guiPort != taken)
        #expect(try p.rest("GET", "/rest/system/ping") == 200)
        #expect(p.log().contains("address already in use"))
    }

    /// A socket bound to 127.0.0.1:`port`, not listening, as a connection's own port is (no
    /// SO_REUSEADDR: nothing else may bind it; a connection to it is refused at once).
    static func bind(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = in_port_t(UInt16(port).bigEndian)
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else { close(fd); throw HarnessError.connect(errno) }
        return fd
    }

    @Test func twoMachinesShareOneHistory() throws {
        let t0 = Date()
        let a = try EmbeddedDaemon(), b = try EmbeddedDaemon()
        // A streak counts any workout (the one recorded here lasts a moment).
        for d in [a, b] { try d.writeConfig(#"{"historyDir":"\#(d.dir)/h","feeds":[{"kind":"socket"}],"streaks":{"minimumSeconds":0}}"#) }
        let pair = try SyncthingPair(folderA: a.dir + "/h", folderB: b.dir + "/h", dir: a.dir)
        defer { pair.stop(); a.stop(); b.stop() }
        try a.start()
        try b.start()
        print("syncthing and daemons up after \(String(format: "%.1f", Date().timeIntervalSince(t0))) s")

        // Recorded on A (a treadmill run: no GPS needed) while B imports a file.
        let started = try a.request(#"{"command":"start","activity":"treadmill_running"}"#)
        let recorded = try #require((started["workout"] as? [String: Any])?["id"] as? String)
        #expect(try a.request(#"{"command":"stop"}"#)["ok"] as? Bool == true)
        let gpx = b.dir + "/run.gpx"
        try DisplayUnitsTests.gpx(start: "2026-03-01T07:00:00Z", seconds: 120, speed: 3).write(toFile: gpx, atomically: true, encoding: .utf8)
        let imp = try b.ctl(["--json", "import", gpx])
        #expect(imp.status == 0, "\(imp.stdout) \(imp.stderr)")
        let imported = try #require(try Self.listed(b).keys.first { $0 != recorded })
        #expect(recorded != imported)

        // Listed on both within 60 s.
        let both = try pollUntil(seconds: 60) { try Set(Self.listed(a).keys) == [recorded, imported] && Set(Self.listed(b).keys) == [recorded, imported] }
        #expect(both, "A: \((try? Self.listed(a)) ?? [:]) B: \((try? Self.listed(b)) ?? [:])")
        print("recorded on A and imported on B, listed on both after \(String(format: "%.1f", Date().timeIntervalSince(t0))) s")
        // B's own workout is from March: today is done on B only by the workout recorded on A.
        let streakB = try #require(try b.request(#"{"command":"streak"}"#)["streak"] as? [String: Any])
        let dailyB = try #require(streakB["daily"] as? [String: Any])
        #expect(dailyB["todayDone"] as? Bool == true && dailyB["current"] as? Int == 1, "a workout saved on A counts for today's streak on B: \(dailyB)")

        // An edit on B shows on A.
        #expect(try b.ctl(["edit", recorded, "--activity", "walking"]).status == 0)
        #expect(try pollUntil(seconds: 60) { try Self.listed(a)[recorded] == "walking" }, "A: \((try? Self.listed(a)) ?? [:])")

        // A delete on A disappears from B (and is not brought back by A's own trash).
        #expect(try a.ctl(["delete", imported]).status == 0)
        #expect(try pollUntil(seconds: 60) { try Self.listed(b)[imported] == nil }, "B: \((try? Self.listed(b)) ?? [:])")
        #expect(try Self.listed(a)[imported] == nil)

        // Simultaneous edits: B's folder paused, one edit on each machine (B's later), resumed.
        try pair.b.pauseFolder(true)
        #expect(try a.ctl(["edit", recorded, "--activity", "cycling"]).status == 0)
        let editedOnA = Date().timeIntervalSince1970  // A's edit is stamped before this (to the ms)
        pollUntil(seconds: 1) { Date().timeIntervalSince1970 > editedOnA + 0.002 }
        #expect(try b.ctl(["edit", recorded, "--activity", "hiking"]).status == 0)
        try pair.b.pauseFolder(false)
        let settled = try pollUntil(seconds: 60) {
            try Self.listed(a) == [recorded: "hiking"] && Self.listed(b) == [recorded: "hiking"]
                && !Self.conflictCopies(a).isEmpty && !Self.conflictCopies(b).isEmpty
        }
        #expect(settled, "A: \((try? Self.listed(a)) ?? [:]) \(Self.conflictCopies(a)) B: \((try? Self.listed(b)) ?? [:]) \(Self.conflictCopies(b))")
        // The other version is kept aside (on disk, unlisted) and the conflict logged.
        let copy = try #require(Self.conflictCopies(a).first)
        #expect(copy.hasPrefix(recorded + ".sync-conflict-"))
        let kept = try String(contentsOfFile: a.dir + "/h/workouts/" + copy, encoding: .utf8)
        #expect(kept.contains("\"cycling\""), "the older edit is the copy")
        print("after the conflict: \(String(format: "%.1f", Date().timeIntervalSince(t0))) s")

        // The same file imported on both machines before either saw the other's (B's folder
        // paused): two IDs, one workout listed on both after sync, the same one.
        try pair.b.pauseFolder(true)
        let same = DisplayUnitsTests.gpx(start: "2026-03-05T07:00:00Z", seconds: 120, speed: 3)
        for d in [a, b] {
            try same.write(toFile: d.dir + "/same.gpx", atomically: true, encoding: .utf8)
            #expect(try d.ctl(["import", d.dir + "/same.gpx"]).status == 0)
        }
        let onA = try #require(try Self.listed(a).keys.first { $0 != recorded })
        let onB = try #require(try Self.listed(b).keys.first { $0 != recorded })
        #expect(onA != onB, "distinct IDs on two machines")
        try pair.b.pauseFolder(false)
        let once = try pollUntil(seconds: 60) {
            try Self.listed(a).count == 2 && Set(Self.listed(a).keys) == Set(Self.listed(b).keys)
                && FileManager.default.fileExists(atPath: a.dir + "/h/workouts/" + onB + ".json")
                && FileManager.default.fileExists(atPath: b.dir + "/h/workouts/" + onA + ".json")
        }
        #expect(once, "A: \((try? Self.listed(a)) ?? [:]) B: \((try? Self.listed(b)) ?? [:])")
        #expect(try Self.listed(a)[min(onA, onB)] != nil, "the smaller ID is listed, on both alike")
        print("the same import on both machines, listed once: \(String(format: "%.1f", Date().timeIntervalSince(t0))) s")
        a.stop(); b.stop()
        let logs = a.stderrText() + b.stderrText()
        #expect(logs.contains("event=history.conflict"), "logged")
        #expect(logs.contains("event=history.duplicate_hidden"), "the hidden copy logged")
        print("two machines: \(String(format: "%.1f", Date().timeIntervalSince(t0))) s in all")
    }
}
