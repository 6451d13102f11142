import Testing
import WorkoutCore
@testable import WorkoutClient

/// Regression (issue 18): a workout restored after the daemon stopped showed as plain "paused"
/// with "GPS: no fix (no source)". `status.pause` says why it is paused; GPS is off meanwhile.
@Suite struct RendererPauseTests {
    let r = Renderer(clock: .utc)

    static func paused(reason: String, restoredAt: JSON = nil) -> JSON {
        ["ok": true, "state": "paused", "workout": RendererTests.runSummary,
         "gps": ["source": nil, "fix": "none", "lastFixAgeSeconds": nil, "satellites": nil, "problem": nil],
         "pause": ["reason": .string(reason), "since": "2026-11-21T09:42:00Z", "restoredAt": restoredAt],
         "action": "Resume", "saveError": nil]
    }

    @Test func aRestoredWorkoutSaysWhyItIsPaused() {
        let text = r.status(Self.paused(reason: "recovered", restoredAt: "2026-11-21T10:05:00Z"))
        #expect(text.contains("Paused:    restored after a restart at 10:05 (workoutd stopped at 09:42); `workoutctl resume` to continue"), "\(text)")
        #expect(text.contains("GPS:       off while paused"), "\(text)")
        #expect(!text.contains("no source"))
    }

    @Test func aUserPauseSaysSince() {
        let text = r.status(Self.paused(reason: "manual"))
        #expect(text.contains("Paused:    since 09:42"), "\(text)")
    }

    @Test func noPauseKeyNoLine() {
        #expect(!r.status(RendererTests.status("active", workout: RendererTests.runSummary)).contains("Paused:"))
    }
}
