import Foundation
import Glibc
import Synchronization
import Testing
import WorkoutCore

/// The control socket of the daemon (embedded: the same `Daemon` workoutd runs), over real Unix
/// sockets in temp directories. What SIGTERM does to the process: `ShutdownTests`.
@Suite struct ControlSocketTests {
    @Test func sessionStartPauseResumeStopSaves() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        let started = try d.request(#"{"command":"start","activity":"running"}"#)
        #expect(started["ok"] as? Bool == true)
        #expect(started["state"] as? String == "active")
        let id = (started["workout"] as? [String: Any])?["id"] as? String
        let second = try d.request(#"{"command":"start","activity":"walking"}"#)
        #expect(second["ok"] as? Bool == false)
        let err = second["error"] as? [String: Any]
        #expect(err?["code"] as? String == "workout_in_progress")
        #expect((err?["message"] as? String)?.contains(id ?? "?") == true)
        #expect(try d.request(#"{"command":"pause"}"#)["state"] as? String == "paused")
        #expect(try d.request(#"{"command":"resume"}"#)["state"] as? String == "active")
        let stopped = try d.request(#"{"command":"stop"}"#)
        let summary = try #require(stopped["workout"] as? [String: Any])
        for key in ["id", "activity", "startedAt", "endedAt", "elapsedSeconds", "movingSeconds", "distanceMeters", "elevationGainMeters", "pointCount"] {
            #expect(summary[key] != nil, "summary lacks \(key)")
        }
        // The save is asynchronous: wait for idle, then the file holds every key of the contract.
        #expect(try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }["state"] as? String == "idle")
        let file = d.dataDir + "/workouts/\(id ?? "").json"
        let saved = try DaemonHarness.parse(String(contentsOfFile: file, encoding: .utf8))
        let savedSummary = try #require(saved["summary"] as? [String: Any])
        for key in ["id", "activity", "startedAt", "endedAt", "elapsedSeconds", "movingSeconds", "distanceMeters", "elevationGainMeters", "pointCount"] {
            #expect(savedSummary[key] != nil, "saved file lacks \(key)")
        }
        #expect((savedSummary["endedAt"] as? String)?.hasSuffix("Z") == true)
        #expect(!FileManager.default.fileExists(atPath: d.stateDir + "/current.journal"), "journal removed after a durable save")
        #expect(d.stop() == 0)
    }

    /// Status lines are written straight to bytes with cached splits: each must be exactly the
    /// canonical serialisation of its own content (what the JSON tree used to give), for the
    /// reply to `status`, to `watch`, the `watch` events, and the reply to `stop`, while splits
    /// close, a lap is taken, the workout pauses, and once it is saved.
    @Test func statusLinesAreCanonicalWhileSplitsClose() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0}"#)
        try d.start()
        let watcher = try UnixClient(path: d.controlSocket)
        defer { watcher.close() }
        try watcher.send(#"{"command":"watch"}"# + "\n")
        let statusKeys = ["state", "workout", "gps", "sensors", "action", "saveError", "sleepInhibitor", "dateSource", "units", "pause", "plan"]
        func canonical(_ line: String?, _ what: String) throws -> JSON {
            let line = try #require(line, "\(what): no line")
            let parsed = try JSON.parse(line)
            #expect(parsed.serialized() == line, "\(what)")
            // And the keys in the order the JSON tree had them.
            let keys = parsed.objectValue?.keys ?? []
            switch (keys.first, parsed["ok"]?.boolValue) {
            case ("event", _): #expect(keys == ["event"] + statusKeys)
            case ("ok", true) where what == "watch reply": #expect(keys == ["ok"] + statusKeys + ["subscribed"])
            case ("ok", true) where what == "stop": #expect(keys == ["ok"] + statusKeys + ["personalBests"])
            case ("ok", true): #expect(keys == ["ok"] + statusKeys, "\(what)")
            default: Issue.record("\(what): unexpected reply \(line)")
            }
            return parsed
        }
        func status(_ command: String = "status", _ more: String = "") throws -> JSON {
            let c = try UnixClient(path: d.controlSocket)
            defer { c.close() }
            try c.send(#"{"command":"\#(command)"\#(more)}"# + "\n")
            return try canonical(try c.readLine(), command)
        }
        #expect(try canonical(try watcher.readLine(), "watch reply")["subscribed"]?.boolValue == true)
        #expect(try status("start", #","activity":"running""#)["state"]?.stringValue == "active")
        let feed = try UnixClient(path: d.feedSocket)
        defer { feed.close() }
        let t0 = (Date().timeIntervalSince1970).rounded(.up) + 1
        var splitsSeen: [Int] = []
        for batch in 0..<4 {
            var lines = ""
            for k in 0..<800 {
                let i = batch * 800 + k
                let lon = 11.5 + Double(i) * 3.5 / (111_320 * cos(48.1 * .pi / 180))
                lines += #"{"class":"FIX","time":"\#(FixFeeder.iso(t0 + Double(i)))","lat":48.1,"lon":\#(String(format: "%.8f", lon)),"alt":\#(500 + i % 40),"mode":3,"eph":3}"# + "\n"
            }
            try feed.send(lines)
            try d.waitForStatus(seconds: 5) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0) >= (batch + 1) * 800 }
            let s = try status()
            splitsSeen.append(s["workout"]?["splits"]?.arrayValue?.count ?? -1)
            if batch == 1 { #expect(try status("lap")["workout"]?["laps"]?.arrayValue?.count == 1) }
            if batch == 2 {
                #expect(try status("pause")["state"]?.stringValue == "paused")
                #expect(try status("resume")["state"]?.stringValue == "active")
            }
        }
        #expect(splitsSeen.count == 4 && splitsSeen[0] >= 2 && splitsSeen[3] > splitsSeen[0], "splits closing: \(splitsSeen)")
        let stopped = try status("stop")
        #expect(stopped["workout"]?["endedAt"]?.stringValue != nil)
        #expect(try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }["state"] as? String == "idle")
        #expect(try status()["state"]?.stringValue == "idle")
        // Every event the watcher received meanwhile is canonical too.
        var events = 0
        var tv = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(watcher.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        while let line = try? watcher.readLine() {
            #expect(try canonical(line, "event")["event"]?.stringValue == "status")
            events += 1
        }
        #expect(events > 5)
        #expect(d.stop() == 0)
    }

    @Test func socketDirectoryAndFileArePrivate() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        var st = stat()
        #expect(lstat((d.controlSocket as NSString).deletingLastPathComponent, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o700)
        #expect(lstat(d.controlSocket, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600)
        d.stop()
    }

    @Test func malformedRequestsGetErrorsAndOthersKeepBeingServed() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        let cases: [(String, String)] = [
            ("not json", "bad_request"),
            (#"{"command":"fly"}"#, "unknown_command"),
            (#"{"activity":"running"}"#, "bad_request"),
            (#"{"command":"start"}"#, "bad_request"),
            (#"{"command":"start","activity":7}"#, "bad_request"),
            (#"{"command":"start","activity":"flying"}"#, "unknown_activity"),
            (#"{"command":"show","id":"../../etc/passwd"}"#, "bad_id"),
            ("[1,2,3]", "bad_request"),
        ]
        for (line, code) in cases {
            let r = try d.request(line)
            #expect(r["ok"] as? Bool == false, "\(line)")
            #expect((r["error"] as? [String: Any])?["code"] as? String == code, "\(line)")
        }
        // Invalid UTF-8 inside a string.
        let c = try UnixClient(path: d.controlSocket)
        try c.send([0x7B, 0x22, 0x63, 0x6F, 0x6D, 0x6D, 0x61, 0x6E, 0x64, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D, 0x0A])
        let bad = try DaemonHarness.parse(try #require(try c.readLine()))
        #expect((bad["error"] as? [String: Any])?["code"] as? String == "bad_request")
        c.close()
        // A 10 MB line: an error reply then a clean close, and the daemon keeps serving.
        let big = try UnixClient(path: d.controlSocket)
        let chunk = [UInt8](repeating: 0x61, count: 1 << 20)
        var sent = 0
        do { for _ in 0..<10 { try big.send(chunk); sent += 1 } } catch { /* the daemon may close before we finish */ }
        // The daemon answers, shuts its side and drains our input: an error reply, then EOF.
        let reply = try #require(try big.readLine())
        #expect(reply.contains("longer than"))
        #expect(try big.readLine() == nil, "closed after the overlong line")
        big.close()
        #expect(try d.request(#"{"command":"status"}"#)["ok"] as? Bool == true)
        d.stop()
    }

    @Test func clientVanishingMidRequestChangesNothing() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        for _ in 0..<20 {
            let c = try UnixClient(path: d.controlSocket)
            try c.send(#"{"command":"sta"#)  // no newline: half a request, then gone
            c.close()
        }
        // A client that sends a request and closes before reading the reply (SIGPIPE on the daemon's side).
        for _ in 0..<20 {
            let c = try UnixClient(path: d.controlSocket)
            try c.send(#"{"command":"activities"}"# + "\n")
            c.close()
        }
        #expect(try d.request(#"{"command":"status"}"#)["state"] as? String == "idle")
        #expect(d.isRunning)
        d.stop()
    }

    /// The clients really run at once, each on a thread of its own (a task group on the
    /// cooperative pool would run two at a time on CI's 2 cores), so the limit is raised above
    /// the default 64, which would refuse the 65th with `busy`.
    @Test func hundredClientsAtOnce() throws {
        let d = try EmbeddedDaemon(config: #"{"limits":{"maxClients":128}}"#)
        try d.start()
        let path = d.controlSocket
        let ok = Mutex(0)
        let group = DispatchGroup()
        for _ in 0..<100 {
            group.enter()
            Thread {
                defer { group.leave() }
                guard let c = try? UnixClient(path: path) else { return }
                defer { c.close() }
                var n = 0
                for _ in 0..<10 {
                    guard (try? c.send(#"{"command":"status"}"# + "\n")) != nil else { break }
                    if let line = try? c.readLine(), line.contains(#""ok":true"#) { n += 1 }
                }
                ok.withLock { $0 += n }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(ok.withLock { $0 } == 1000)
        d.stop()
    }

    @Test func watchReceivesEvents() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        let w = try UnixClient(path: d.controlSocket)
        try w.send(#"{"command":"watch"}"# + "\n")
        let first = try DaemonHarness.parse(try #require(try w.readLine()))
        #expect(first["subscribed"] as? Bool == true)
        _ = try d.request(#"{"command":"start","activity":"strength"}"#)
        let event = try DaemonHarness.parse(try #require(try w.readLine()))
        #expect(event["event"] as? String == "status")
        #expect(event["state"] as? String == "active")
        w.close()
        d.stop()
    }
}
