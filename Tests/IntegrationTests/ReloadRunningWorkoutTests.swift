import Foundation
import Glibc
import Testing

/// Issue 18: `reload` and SIGHUP apply changed metrics settings to the workout in progress from
/// that moment (docs/systemd.md promised it; before, they reached only the next workout).
@Suite(.serialized) struct ReloadRunningWorkoutTests {
    static func config(jump: Int) -> String {
        #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0,"metrics":{"jumpMeters":\#(jump)}}"#
    }

    /// Runs at 3 m/s, a 5 s hole in the fixes (15 m), more running; the jump threshold is lowered
    /// from 1000 m to 10 m by `how` before the hole: the hole starts a new segment and adds no
    /// distance. Returns the saved workout's events and the daemon's log.
    /// `ran`: the meters of running the fixes sent describe (a loaded machine sends fewer than
    /// 20 a second; each fix is 3 m / 20 on from the last).
    static func runWithHole(reload how: (DaemonHarness) throws -> Void) throws -> (events: [[String: Any]], log: String, distance: Double, ran: Double) {
        let d = try DaemonHarness(config: config(jump: 1000))
        try d.start()
        defer { d.stop() }
        let id = try #require((try d.request(#"{"command":"start","activity":"running"}"#)["workout"] as? [String: Any])?["id"] as? String)
        let first = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 20, speed: 3)
        usleep(2_000_000)
        first.stop()
        let sent = first.sent
        try d.writeConfig(config(jump: 10))
        try how(d)
        usleep(5_000_000 - 300_000)
        let second = FixFeeder(socket: d.feedSocket, start: first.lastSentTime + 5, index0: sent + 100, rate: 20, speed: 3)
        usleep(2_000_000)
        second.stop()
        usleep(300_000)
        let stopped = try d.request(#"{"command":"stop"}"#)
        #expect(stopped["ok"] as? Bool == true, "\(stopped)")
        try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        let shown = try d.request(#"{"command":"show","id":"\#(id)"}"#)
        let distance = (shown["workout"] as? [String: Any])?["distanceMeters"] as? Double ?? -1
        let ran = Double(max(0, sent - 1) + max(0, second.sent - 1)) * 3 / 20
        return (shown["events"] as? [[String: Any]] ?? [], d.stderrText(), distance, ran)
    }

    @Test func reloadLowersTheJumpThresholdOfTheRunningWorkout() throws {
        let r = try Self.runWithHole { d in
            let out = try d.ctl(["reload"])
            #expect(out.status == 0 && out.stdout.contains("metrics"), "\(out.stdout) \(out.stderr)")
        }
        #expect(r.events.contains { $0["kind"] as? String == "segment" }, "the 15 m hole is a jump now: \(r.events)")
        #expect(r.log.contains("event=workout.settings_changed") && r.log.contains("metrics.jumpMeters=10"), "\(r.log.suffix(1500))")
        // The running counted (about 4 s at 3 m/s on an idle machine; the fixes' own noise radius
        // aside), the 15 m hole not.
        #expect(r.distance > 0.5 * r.ran && r.distance < r.ran + 7.5, "distance \(r.distance) m, ran \(r.ran) m")
    }

    @Test func sighupDoesTheSame() throws {
        let r = try Self.runWithHole { d in
            kill(d.process!.processIdentifier, SIGHUP)
            usleep(300_000)
        }
        #expect(r.events.contains { $0["kind"] as? String == "segment" }, "\(r.events)")
        #expect(r.log.contains("event=workout.settings_changed"), "\(r.log.suffix(1500))")
    }
}
