import Foundation
import Testing
import TestRequirements
@testable import WorkoutDaemon
import Synchronization

/// `show` and `list` read and encode off the event loop (issue 27 item 10: `show` of a workout
/// with 60k laps held the loop 591 ms, `list` 278 ms). With the store's `beforeRead` port holding
/// every read (a slow disk), `status` from another client is answered while a `show` and a `list`
/// wait; on the loop it would wait behind them (and this test time out).
@Suite struct HistoryReadTests {
    @Test func statusIsAnsweredWhileShowAndListAreReading() throws {
        let held = Mutex(false)
        let d = try EmbeddedDaemon()
        d.ports.storeFaults.beforeRead = { pollUntil(seconds: 600, every: 0.002) { !held.withLock { $0 } } }
        try d.start()
        defer { d.stop() }
        _ = try d.request(#"{"command":"start","activity":"yoga"}"#)
        let stopped = try d.request(#"{"command":"stop"}"#)
        let id = (stopped["workout"] as? [String: Any])?["id"] as? String ?? ""
        try d.waitForStatus(seconds: 10) { $0["state"] as? String == "idle" }
        held.withLock { $0 = true }

        let show = try UnixClient(path: d.controlSocket, timeoutSeconds: 30)
        defer { show.close() }
        try show.send(#"{"command":"show","id":"\#(id)"}"# + "\n")
        let list = try UnixClient(path: d.controlSocket, timeoutSeconds: 30)
        defer { list.close() }
        try list.send(#"{"command":"list"}"# + "\n")

        // Both are held in their read; the loop answers another client meanwhile.
        let status = try d.request(#"{"command":"status"}"#)
        #expect(status["ok"] as? Bool == true && status["state"] as? String == "idle", "\(status)")

        held.withLock { $0 = false }
        let shown = try DaemonHarness.parse(try #require(try show.readLine()))
        #expect((shown["workout"] as? [String: Any])?["id"] as? String == id, "\(shown)")
        let listed = try DaemonHarness.parse(try #require(try list.readLine()))
        #expect((listed["workouts"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [id], "\(listed)")
    }
}
