import Foundation
import Glibc
import Testing
@testable import WorkoutDaemon
import Synchronization

/// A save that fails (full disk, injected through the store's `failure` port) keeps the workout,
/// shows the error, retries, and completes once the cause is gone; it never blocks the next one.
/// Embedded on a `ManualClock`: the fixes are dated on it and the retries' backoff is the test's
/// clock moving, not seconds of waiting.
@Suite struct SaveFailureTests {
    @Test func fullDiskKeepsTheWorkoutAndSavesAfterSpaceIsFreed() throws {
        let diskFull = Mutex(true)
        let clock = ManualClock()
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#, clock: clock)
        d.ports.storeFaults.failure = { diskFull.withLock { $0 } ? SystemError("write", code: ENOSPC) : nil }
        try d.start()
        let id = (try d.request(#"{"command":"start","activity":"walking"}"#)["workout"] as? [String: Any])?["id"] as? String ?? "?"
        _ = try ShutdownRestartTests.feedFixes(d, start: clock.wall(), seconds: 1, rate: 20)
        _ = try d.request(#"{"command":"stop"}"#)
        let failing = try d.waitForStatus(seconds: 5) { ($0["saveError"] as? String) != nil }
        #expect(failing["state"] as? String == "saving")
        #expect((failing["saveError"] as? String)?.contains("No space left on device") == true, "\(failing["saveError"] ?? "none")")
        #expect(FileManager.default.fileExists(atPath: d.stateDir + "/current.journal"), "the workout stays in the journal")
        #expect(!FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"))
        // The next workout starts anyway (#18): the failing one keeps its journal under its own
        // name and is retried in the background.
        let next = try d.request(#"{"command":"start","activity":"running"}"#)
        #expect(next["ok"] as? Bool == true, "start while a save fails: \(next)")
        #expect(next["state"] as? String == "active")
        let aside = d.stateDir + "/current.journal.unsaved-\(id)"
        #expect(FileManager.default.fileExists(atPath: aside), "the unsaved workout's journal is kept")
        #expect(FileManager.default.fileExists(atPath: d.stateDir + "/current.journal"), "the new workout has its own journal")
        #expect((try d.request(#"{"command":"status"}"#)["saveError"] as? String)?.contains("No space left on device") == true)
        // Space is freed: the next retry (backoff 1, 2, 4 s on the test's clock) saves the first
        // workout; each retry is done on the bulk worker, so the clock moves once it has answered.
        diskFull.withLock { $0 = false }
        var moved = 0.0
        while FileManager.default.fileExists(atPath: aside), moved < 8 {
            d.advance(1)
            moved += 1
            pollUntil(seconds: 2) { !FileManager.default.fileExists(atPath: aside) }
        }
        #expect(FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"), "saved after \(moved) s of the test's clock")
        #expect(!FileManager.default.fileExists(atPath: aside), "set-aside journal removed once the save is durable")
        let nextID = (next["workout"] as? [String: Any])?["id"] as? String ?? "?"
        _ = try d.request(#"{"command":"stop"}"#)
        let done = try d.waitForStatus(seconds: 10) { $0["state"] as? String == "idle" }
        #expect(done["state"] as? String == "idle")
        #expect(FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(nextID).json"))
        #expect(!FileManager.default.fileExists(atPath: d.stateDir + "/current.journal"), "journal removed once the save is durable")
        d.stop()
        let log = d.stderrText()
        #expect(log.contains("event=workout.save_failed"))
        #expect(log.contains("event=workout.saved"))
    }

    /// The one-button flow: `stop` then `start` at once never fails (it was refused with
    /// `saving` in 3 of 5 tries), and every stopped workout is saved.
    @Test func stopThenStartAtOnceIsNeverRefused() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        var ids: [String] = []
        _ = try d.request(#"{"command":"start","activity":"yoga"}"#)
        for _ in 0..<5 {
            let stopped = try d.request(#"{"command":"stop"}"#)
            if let id = (stopped["workout"] as? [String: Any])?["id"] as? String { ids.append(id) }
            let started = try d.request(#"{"command":"start","activity":"yoga"}"#)
            #expect(started["ok"] as? Bool == true, "start right after stop: \(started)")
        }
        _ = try d.request(#"{"command":"stop"}"#)
        _ = try d.waitForStatus(seconds: 10) { $0["state"] as? String == "idle" && !($0["saveError"] is String) }
        func unsavedJournals() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: d.stateDir)) ?? []).filter { $0.contains(".unsaved-") }
        }
        pollUntil(seconds: 10) { unsavedJournals().isEmpty }
        #expect(ids.count == 5)
        for id in ids { #expect(FileManager.default.fileExists(atPath: d.dataDir + "/workouts/\(id).json"), "\(id) saved") }
        #expect(unsavedJournals().isEmpty)
        // Yoga records no GPS: no "Recording health: 0.00 fixes/s" after its saves.
        let log = d.stderrText()
        #expect(log.contains("event=workout.saved"))
        #expect(!log.contains("event=workout.health"), "no fix-rate line for an activity without GPS")
    }
}
