import Foundation
import Glibc
import Testing

/// A save that fails (full disk, injected through WORKOUTD_TEST_FAIL_SAVES) keeps the workout,
/// shows the error, retries, and completes once the cause is gone.
@Suite(.serialized) struct SaveFailureTests {
    @Test func fullDiskKeepsTheWorkoutAndSavesAfterSpaceIsFreed() throws {
        var template = Array("/tmp/wf.XXXXXX".utf8CString)
        let flagDir = String(cString: mkdtemp(&template)!)
        defer { try? FileManager.default.removeItem(atPath: flagDir) }
        let flag = flagDir + "/disk-full"
        FileManager.default.createFile(atPath: flag, contents: nil)
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}]}"#, extraEnv: ["WORKOUTD_TEST_FAIL_SAVES": flag])
        try d.start()
        let id = (try d.request(#"{"command":"start","activity":"walking"}"#)["workout"] as? [String: Any])?["id"] as? String ?? "?"
        let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 20)
        usleep(600_000)
        feeder.stop()
        _ = try d.request(#"{"command":"stop"}"#)
        let failing = try d.waitForStatus(seconds: 5) { ($0["saveError"] as? String) != nil }
        #expect(failing["state"] as? String == "saving")
        #expect((failing["saveError"] as? String)?.contains("No space left on device") == true, "\(failing["saveError"] ?? "none")")
        #expect(FileManager.default.fileExists(atPath: d.stateDir + "/current.journal"), "the workout stays in the journal")
        #expect(!FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
        let refused = try d.request(#"{"command":"start","activity":"running"}"#)
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "saving")
        // Space is freed: the next retry (backoff 1, 2, 4 s) succeeds.
        try FileManager.default.removeItem(atPath: flag)
        let done = try d.waitForStatus(seconds: 10) { $0["state"] as? String == "idle" }
        #expect(done["state"] as? String == "idle")
        #expect(FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
        #expect(!FileManager.default.fileExists(atPath: d.stateDir + "/current.journal"), "journal removed once the save is durable")
        d.stop()
        let log = d.stderrText()
        #expect(log.contains("event=workout.save_failed"))
        #expect(log.contains("event=workout.saved"))
    }
}
