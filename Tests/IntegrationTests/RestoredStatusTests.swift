import Foundation
import Glibc
import Testing

/// Regression (issue 18): a workout restored from its journal after a crash showed as plain
/// "paused" with "GPS: no fix (no source)". `status` now says it was restored and why it waits.
@Suite(.serialized, .offPool) struct RestoredStatusTests {
    @Test func aRestoredWorkoutSaysSo() throws {
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"journalFlushSeconds":0.2,"statusLogSeconds":0}"#)
        try d.start()
        #expect(try d.request(#"{"command":"start","activity":"running"}"#)["ok"] as? Bool == true)
        usleep(600_000)
        d.kill9()
        try d.start()
        defer { d.stop() }
        let s = try d.request(#"{"command":"status"}"#)
        #expect(s["state"] as? String == "paused", "\(s)")
        let pause = try #require(s["pause"] as? [String: Any], "\(s)")
        #expect(pause["reason"] as? String == "recovered")
        #expect(pause["since"] is String && pause["restoredAt"] is String, "\(pause)")
        let text = try d.ctl(["status"]).stdout
        #expect(text.contains("Paused:    restored after a restart at "), "\(text)")
        #expect(text.contains("GPS:       off while paused"), "\(text)")
        // Resumed, the reason is gone.
        #expect(try d.request(#"{"command":"resume"}"#)["pause"] is NSNull)
    }
}
