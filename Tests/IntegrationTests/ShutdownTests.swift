import Foundation
import Glibc
import Testing

/// Issue 15 (smaller): after SIGTERM the control socket file is gone, so workoutctl says the
/// daemon is not running (exit 69) instead of "connection refused".
@Suite(.serialized, .offPool) struct ShutdownTests {
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

    /// Issue 18: `systemctl --user restart workoutd` (SIGTERM) keeps the workout: the next start
    /// continues the same workout, active, with its distance; more fixes add to it; `stop` saves
    /// one workout with every fix.
    @Test func sigtermKeepsTheWorkoutAndTheNextStartContinuesIt() throws {
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0}"#)
        try d.start()
        let id = try #require((try d.request(#"{"command":"start","activity":"running"}"#)["workout"] as? [String: Any])?["id"] as? String)
        let first = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 20, speed: 3)
        usleep(3_000_000)
        first.stop()
        let counted = try d.waitForStatus(seconds: 3) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int) == first.sent }
        let distanceBefore = try #require((counted["workout"] as? [String: Any])?["distanceMeters"] as? Double)
        #expect(distanceBefore > 5)
        #expect(d.stop(signal: SIGTERM) == 0)
        let log = d.stderrText()
        #expect(log.contains("event=workout.kept_for_restart"), "\(log.suffix(800))")
        #expect(!FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"), "not ended by the restart")

        try d.start()
        let s = try d.waitForStatus(seconds: 5) { $0["state"] as? String == "active" }
        let w = try #require(s["workout"] as? [String: Any])
        #expect(s["state"] as? String == "active" && w["id"] as? String == id, "\(s)")
        #expect(w["distanceMeters"] as? Double == distanceBefore && w["pointCount"] as? Int == first.sent)
        let second = FixFeeder(socket: d.feedSocket, start: first.lastSentTime + 2, index0: first.sent + 40, rate: 20, speed: 3)
        usleep(2_000_000)
        second.stop()
        try d.waitForStatus(seconds: 3) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int) == first.sent + second.sent }
        let stopped = try d.request(#"{"command":"stop"}"#)
        let summary = try #require(stopped["workout"] as? [String: Any])
        #expect(summary["id"] as? String == id)
        #expect(summary["pointCount"] as? Int == first.sent + second.sent, "\(summary["pointCount"] ?? "-") of \(first.sent) + \(second.sent)")
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
