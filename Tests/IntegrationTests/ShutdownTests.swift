import Foundation
import Glibc
import Testing

/// Issue 15 (smaller): after SIGTERM the control socket file is gone, so workoutctl says the
/// daemon is not running (exit 69) instead of "connection refused".
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
}
