import Foundation
import Glibc
import Testing

/// The control socket of the real daemon, over real Unix sockets in temp directories.
@Suite(.serialized) struct ControlSocketTests {
    @Test func sessionStartPauseResumeStopSaves() throws {
        let d = try DaemonHarness()
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
        var state = ""
        for _ in 0..<100 where state != "idle" { state = try d.request(#"{"command":"status"}"#)["state"] as? String ?? ""; usleep(20_000) }
        #expect(state == "idle")
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

    @Test func socketDirectoryAndFileArePrivate() throws {
        let d = try DaemonHarness()
        try d.start()
        var st = stat()
        #expect(lstat((d.controlSocket as NSString).deletingLastPathComponent, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o700)
        #expect(lstat(d.controlSocket, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600)
        d.stop()
    }

    @Test func malformedRequestsGetErrorsAndOthersKeepBeingServed() throws {
        let d = try DaemonHarness()
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
        let d = try DaemonHarness()
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
        #expect(d.process?.isRunning == true)
        d.stop()
    }

    @Test func hundredClientsAtOnce() async throws {
        let d = try DaemonHarness()
        try d.start()
        let path = d.controlSocket
        let ok = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    let c = try UnixClient(path: path)
                    defer { c.close() }
                    var n = 0
                    for _ in 0..<10 {
                        try c.send(#"{"command":"status"}"# + "\n")
                        if let line = try c.readLine(), line.contains(#""ok":true"#) { n += 1 }
                    }
                    return n
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(ok == 1000)
        d.stop()
    }

    @Test func sigtermDuringAWorkoutSavesItAndExitsZero() throws {
        let d = try DaemonHarness()
        try d.start()
        let id = (try d.request(#"{"command":"start","activity":"yoga"}"#)["workout"] as? [String: Any])?["id"] as? String ?? "?"
        #expect(d.stop(signal: SIGTERM) == 0)
        #expect(FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
    }

    @Test func watchReceivesEvents() throws {
        let d = try DaemonHarness()
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
