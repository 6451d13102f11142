import Foundation
import Glibc
import Testing
import WorkoutDaemon

/// What the workoutd process does when it ends: the suites here start the real binary
/// (`DaemonHarness`), because the signal, the exit status and the process's death are the
/// point. The rest of the daemon's tests embed it (`EmbeddedDaemon`).
///
/// Issue 15 (smaller): after SIGTERM the control socket file is gone, so workoutctl says the
/// daemon is not running (exit 69) instead of "connection refused". Issue 18: SIGTERM keeps the
/// workout in the journal and exits 0.
@Suite(.serialized) struct ShutdownTests {
    @Test func socketFileIsRemovedAfterSIGTERM() throws {
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        #expect(FileManager.default.fileExists(atPath: d.controlSocket))
        #expect(d.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: d.controlSocket), "control socket removed")
        #expect(!FileManager.default.fileExists(atPath: d.feedSocket), "feed socket removed")
        let r = try d.ctl(["status"])
        #expect(r.status == 69)
        #expect(r.stderr.contains("workoutd is not running") && !r.stderr.contains("refused"), "\(r.stderr)")
        // And a new daemon starts on the same path.
        try d.start()
        #expect(d.stop() == 0)
    }

    /// Issue 18: SIGTERM (a restart, an upgrade, a shutdown) keeps the workout in the journal
    /// for the next start instead of ending it, and the process exits 0
    /// (`ShutdownRestartTests` has the whole run).
    @Test func sigtermDuringAWorkoutKeepsItInTheJournalAndExitsZero() throws {
        let d = try DaemonHarness()
        try d.start()
        let id = (try d.request(#"{"command":"start","activity":"yoga"}"#)["workout"] as? [String: Any])?["id"] as? String ?? "?"
        #expect(d.stop(signal: SIGTERM) == 0)
        #expect(!FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
        let journal = (try? String(contentsOfFile: d.stateDir + "/current.journal", encoding: .utf8)) ?? ""
        #expect(journal.contains(#""r":"shutdown""#) && journal.contains(id), "\(journal)")
    }
}

/// Hooks when the daemon's process ends (issue 27 item 12): SIGTERM to workoutd, or SIGKILL,
/// leaves no hook process behind (process groups; the trampoline's lifeline pipe ends with the
/// process). The rest of the hooks' tests embed the daemon: `HookTests`.
@Suite(.serialized) struct HookProcessTests {
    /// Issue 27 item 12: outside systemd, what a hook started outlived the daemon. SIGTERM to
    /// the daemon ends a hook still running and the child a finished hook left behind.
    @Test func noHookProcessOutlivesTheDaemon() throws {
        var template = Array("/tmp/hk.XXXXXX".utf8CString)
        let out = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: out) }
        let d = try DaemonHarness(config: """
        {"feeds":[{"kind":"socket"}],
         "hooks":[{"on":"workout.started","run":["/bin/sh","-c","sleep 302 & echo $! > \(out)/left"]},
                  {"on":"workout.started","run":["/bin/sh","-c","sleep 303 & echo $! > \(out)/running; wait"],"timeoutSeconds":600}]}
        """)
        try d.start()
        #expect(try d.request(#"{"command":"start","activity":"yoga"}"#)["ok"] as? Bool == true)
        var pids: [Int32] = []
        #expect(pollUntil(seconds: 5) {
            pids = ["left", "running"].compactMap { (try? String(contentsOfFile: out + "/" + $0, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } }
            return pids.count == 2
        })
        #expect(HookTests.processes(withCommandLine: "sleep\u{0}302\u{0}").count == 1 && HookTests.processes(withCommandLine: "sleep\u{0}303\u{0}").count == 1)
        kill(d.pid, SIGTERM)  // not d.stop(): its wait for the end of the daemon's output lasts as long as a leftover
        let gone = pollUntil(seconds: 5) { HookTests.processes(withCommandLine: "sleep\u{0}302\u{0}").isEmpty && HookTests.processes(withCommandLine: "sleep\u{0}303\u{0}").isEmpty }
        if !gone { for p in pids { kill(p, SIGKILL) } }
        #expect(gone, "a hook's process outlived the daemon")
        #expect(d.stop() == 0)
    }

    /// Issue 27 item 12: outside systemd, a daemon killed with SIGKILL left its hooks running:
    /// a running hook and its child, and the child a finished hook left behind. Each hook now
    /// starts through `workoutd --hook-trampoline`, which ends its group when the daemon's
    /// lifeline pipe ends (and a guardian does so for what a finished hook left).
    @Test func noHookProcessOutlivesASIGKILLedDaemon() throws {
        var template = Array("/tmp/hk.XXXXXX".utf8CString)
        let out = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: out) }
        let d = try DaemonHarness(config: """
        {"feeds":[{"kind":"socket"}],
         "hooks":[{"on":"workout.started","run":["/bin/sh","-c","sleep 304 & echo $! > \(out)/left"]},
                  {"on":"workout.started","run":["/bin/sh","-c","sleep 305 & echo $! > \(out)/running; sleep 306"],"timeoutSeconds":600}]}
        """)
        try d.start()
        #expect(try d.request(#"{"command":"start","activity":"yoga"}"#)["ok"] as? Bool == true)
        let names = ["sleep\u{0}304\u{0}", "sleep\u{0}305\u{0}", "sleep\u{0}306\u{0}"]
        func alive() -> [String] { names.flatMap { HookTests.processes(withCommandLine: $0) } }
        #expect(pollUntil(seconds: 5) { alive().count == 3 }, "hooks started: \(alive())")
        let pids = alive().compactMap { Int32($0) }
        kill(d.pid, SIGKILL)
        let t0 = Date()
        let gone = pollUntil(seconds: 5) { alive().isEmpty }
        let seconds = Date().timeIntervalSince(t0)
        if !gone { for p in pids { kill(p, SIGKILL) } }
        #expect(gone, "hook processes outlived the SIGKILLed daemon: \(alive())")
        print("reliability: hooks after SIGKILL of the daemon: " + (gone ? "3 processes gone in \(String(format: "%.3f", seconds)) s" : "still running after 5 s"))
        #expect(seconds < 2, "gone after \(seconds) s")
        _ = d.stop()
    }

}

/// Issue 18: `systemctl --user restart workoutd` (SIGTERM) keeps the workout: the next start
/// continues the same workout, active, with its distance; more fixes add to it; `stop` saves one
/// workout with every fix. The daemon is embedded: its `stop()` is the graceful stop SIGTERM asks
/// for (the signal itself: `ShutdownTests`), and `start()` again is the restart, in the same
/// directories. It runs on a `ManualClock`: each second's 20 fixes are sent at once, dated on
/// that clock, taken in, and then the clock moves a second (no feeder waiting in real time).
@Suite struct ShutdownRestartTests {
    /// `seconds` x `rate` JSON fix lines from fix time `start` (on `d`'s clock), moving east at
    /// `speed` m/s from the track's fix `index0`: each second's fixes are written to the feed
    /// socket and counted by the workout (which held `before` points), then the clock moves a
    /// second. Returns the last fix time.
    static func feedFixes(_ d: EmbeddedDaemon, start: Double, index0: Int = 0, before: Int = 0, seconds: Int, rate: Int, speed: Double = 3) throws -> Double {
        let c = try UnixClient(path: d.feedSocket)
        defer { c.close() }
        for second in 0..<seconds {
            try c.send(fixLines(start: start, from: second * rate, count: rate, index0: index0, rate: rate, speed: speed))
            let counted = before + (second + 1) * rate
            try d.waitForStatus(seconds: 5) { (pointCount($0) ?? 0) >= counted }
            d.advance(1)
        }
        return start + Double(seconds * rate - 1) / Double(rate)
    }

    /// JSON fix lines `from..<from + count` of a track of `rate` Hz fixes from fix time `start`,
    /// moving east at `speed` m/s, its positions counted from the track's fix `index0`.
    static func fixLines(start: Double, from: Int = 0, count: Int, index0: Int = 0, rate: Int, speed: Double = 3) -> String {
        var lines = ""
        for k in from..<from + count {
            let lon = 11.5 + Double(index0 + k) * speed / Double(rate) / (111_320 * cos(48.1 * .pi / 180))
            lines += #"{"class":"FIX","time":"\#(FixFeeder.iso(start + Double(k) / Double(rate)))","lat":48.1,"lon":\#(String(format: "%.8f", lon)),"alt":500,"mode":3,"eph":3}"# + "\n"
        }
        return lines
    }

    static func pointCount(_ s: [String: Any]) -> Int? { (s["workout"] as? [String: Any])?["pointCount"] as? Int }

    @Test func sigtermKeepsTheWorkoutAndTheNextStartContinuesIt() throws {
        let clock = ManualClock()
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0}"#, clock: clock)
        try d.start()
        let id = try #require((try d.request(#"{"command":"start","activity":"running"}"#)["workout"] as? [String: Any])?["id"] as? String)
        let first = 60, second = 40  // 3 s and 2 s at 20 Hz
        let lastTime = try Self.feedFixes(d, start: clock.wall(), seconds: 3, rate: 20)
        let counted = try d.request(#"{"command":"status"}"#)
        #expect(Self.pointCount(counted) == first)
        let distanceBefore = try #require((counted["workout"] as? [String: Any])?["distanceMeters"] as? Double)
        #expect(distanceBefore > 5)
        #expect(d.stop() == 0)
        let log = d.stderrText()
        #expect(log.contains("event=workout.kept_for_restart"), "\(log.suffix(800))")
        #expect(!FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"), "not ended by the restart")

        try d.start()
        let s = try d.waitForStatus(seconds: 5) { $0["state"] as? String == "active" }
        let w = try #require(s["workout"] as? [String: Any])
        #expect(s["state"] as? String == "active" && w["id"] as? String == id, "\(s)")
        #expect(w["distanceMeters"] as? Double == distanceBefore && w["pointCount"] as? Int == first)
        d.advance(2)  // the restart's gap: the next fixes come 2 s after the last
        _ = try Self.feedFixes(d, start: lastTime + 2, index0: first + 40, before: first, seconds: 2, rate: 20)
        let stopped = try d.request(#"{"command":"stop"}"#)
        let summary = try #require(stopped["workout"] as? [String: Any])
        #expect(summary["id"] as? String == id)
        #expect(summary["pointCount"] as? Int == first + second, "\(summary["pointCount"] ?? "-") of \(first) + \(second)")
        #expect((summary["distanceMeters"] as? Double ?? 0) > distanceBefore + 3)
        try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        let listed = (try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]]) ?? []
        #expect(listed.count == 1 && listed.first?["id"] as? String == id)
        let shown = try d.request(#"{"command":"show","id":"\#(id)"}"#)
        let events = (shown["events"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(events.contains("recovered") && !events.contains("pause"), "\(shown)")
        #expect(d.stop() == 0)
    }
}
