import Foundation
import Glibc
import Testing

/// Issue 18: SIGHUP applies changed metrics settings to the workout in progress, as `reload`
/// does (both are `Daemon.reload`; what a reload changes in the running workout is tested
/// in-process, WorkoutDaemonTests/DaemonReloadTests). This is the signal's way there in the
/// real binary: the process and its signal are the point, so it stays a real process
/// (`DaemonHarness`). It waits on the log line, not on the clock.
@Suite(.serialized) struct ReloadRunningWorkoutTests {
    static func config(jump: Int) -> String {
        #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0,"metrics":{"jumpMeters":\#(jump)}}"#
    }

    @Test func sighupReloadsTheRunningWorkoutsSettings() throws {
        let d = try DaemonHarness(config: Self.config(jump: 1000))
        try d.start()
        defer { d.stop() }
        _ = try d.request(#"{"command":"start","activity":"running"}"#)
        try d.writeConfig(Self.config(jump: 10))
        kill(d.process!.processIdentifier, SIGHUP)
        var log = ""
        pollUntil(seconds: 5) {
            log += d.stderrText()
            return log.contains("event=workout.settings_changed")
        }
        #expect(log.contains("event=workout.settings_changed") && log.contains("metrics.jumpMeters=10"), "\(log.suffix(1500))")
        #expect((try d.request(#"{"command":"status"}"#))["state"] as? String == "active")
    }
}
