import Foundation
import Testing
@testable import WorkoutDaemon

/// Regression (issue 18): a workout restored from its journal after a crash showed as plain
/// "paused" with "GPS: no fix (no source)". `status` now says it was restored and why it waits.
/// Embedded: the copy of the directories after a journal flush is what a SIGKILL leaves.
@Suite struct RestoredStatusTests {
    @Test func aRestoredWorkoutSaysSo() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"journalFlushSeconds":0.2,"statusLogSeconds":0}"#, clock: ManualClock())
        try d.start()
        #expect(try d.request(#"{"command":"start","activity":"running"}"#)["ok"] as? Bool == true)
        d.advance(0.6)  // past journal flushes
        let next = try EmbeddedDaemon(copyingStateOf: d)
        d.stop()
        try next.start()
        defer { next.stop() }
        let s = try next.request(#"{"command":"status"}"#)
        #expect(s["state"] as? String == "paused", "\(s)")
        let pause = try #require(s["pause"] as? [String: Any], "\(s)")
        #expect(pause["reason"] as? String == "recovered")
        #expect(pause["since"] is String && pause["restoredAt"] is String, "\(pause)")
        let text = try next.ctl(["status"]).stdout
        #expect(text.contains("Paused:    restored after a restart at "), "\(text)")
        #expect(text.contains("GPS:       off while paused"), "\(text)")
        // Resumed, the reason is gone.
        #expect(try next.request(#"{"command":"resume"}"#)["pause"] is NSNull)
    }
}
