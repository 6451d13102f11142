import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// Issue 18: `reload` (and SIGHUP, the same `Daemon.reload`) applies changed metrics settings to
/// the workout in progress from that moment (docs/systemd.md promised it; before, they reached
/// only the next workout). In-process on a driven clock (was IntegrationTests, 20 s of wall time
/// with a real 5 s hole; the SIGHUP plumbing stays there, ReloadRunningWorkoutTests).
@Suite struct DaemonReloadTests {
    static func config(jump: Int) -> String {
        #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0,"log":{"level":"error"},"metrics":{"jumpMeters":\#(jump)}}"#
    }

    /// Runs at 3 m/s for 2 s, lowers the jump threshold from 1000 m to 10 m and reloads, leaves a
    /// 5 s hole in the fixes (15 m), runs 2 s more: the hole starts a new segment and adds no
    /// distance, and the change is logged.
    @Test func reloadLowersTheJumpThresholdOfTheRunningWorkout() throws {
        let clock = ManualClock()
        let d = try InProcessDaemon(config: Self.config(jump: 1000), clock: clock)
        let id = try #require(try d.request(#"{"command":"start","activity":"running"}"#)["workout"]?["id"]?.stringValue)
        var east = try DaemonTimeTests.walk(d, seconds: 2, from: 0, speed: 3)
        try d.writeConfig(Self.config(jump: 10))
        let reply = try d.request(#"{"command":"reload"}"#)
        #expect(reply["ok"] == .bool(true) && reply["changed"]?.arrayValue?.contains(.string("metrics")) == true, "\(reply)")
        try d.advance(5)
        east += 15
        _ = try DaemonTimeTests.walk(d, seconds: 2, from: east, speed: 3)
        _ = try d.request(#"{"command":"stop"}"#)
        #expect(try d.until { try d.status()["state"]?.stringValue == "idle" })
        let shown = try d.request(#"{"command":"show","id":"\#(id)"}"#)
        let events = shown["events"]?.arrayValue ?? []
        #expect(events.contains { $0["kind"]?.stringValue == "segment" }, "the 15 m hole is a jump now: \(events)")
        let changed = d.events("workout.settings_changed")
        #expect(changed.count == 1 && changed.first?["now"] == "metrics.jumpMeters=10", "\(changed)")
        // About 4 s of running at 3 m/s counted (the fixes' own noise radius aside), the hole not.
        let distance = shown["workout"]?["distanceMeters"]?.doubleValue ?? -1
        #expect(distance > 6 && distance < 13, "distance \(distance) m")
    }
}
