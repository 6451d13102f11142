import Foundation
import Testing
import WorkoutCore

/// The real daemon's clocks under an LD_PRELOAD clock shim (Tests/Shims/clockshim.c) that moves
/// its CLOCK_REALTIME / CLOCK_BOOTTIME / CLOCK_MONOTONIC alone; the machine's clock is never
/// touched. What the time model does with suspends and steps is tested exactly, in-process on a
/// driven clock (WorkoutDaemonTests/DaemonTimeTests; the embedded daemon on a `ManualClock`:
/// DateSourceClockTests, FaultTests); this proves that the real `SystemClock` reads the kernel's
/// clocks the way those tests assume. It stays a real process: the shim is preloaded into one,
/// and the kernel's clocks are the point. Off the pool: it waits for two of the daemon's 1 s
/// ticks in real time (about 2.3 s).
@Suite(.serialized, .offPool) struct SystemClockTests {
    static func summary(_ s: [String: Any]) -> [String: Any] { s["workout"] as? [String: Any] ?? [:] }
    static let config = #"{"feeds":[{"kind":"socket"}],"metrics":{"autoPauseSeconds":0},"log":{"file":true}}"#

    static func withShim(_ body: (ClockShim, String) throws -> Void) throws {
        let dir = ClockShim.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (shim, why) = ClockShim.build(in: dir)
        guard let shim else { Issue.recordIfCI(why); return }
        try body(shim, dir)
    }

    /// The log file's lines, once one has `event` (`count` of them), or after 5 s: log lines are
    /// written a moment after the replies.
    static func logLines(_ d: some DaemonUnderTest, waitingFor event: String, count: Int = 1) -> [LogfmtLine] {
        func parsed(_ lines: [Substring]) -> [LogfmtLine] { lines.compactMap { LogfmtParser.parse(String($0)) } }
        return parsed(d.logFileLines { parsed($0).filter { $0["event"] == event }.count >= count })
    }

    /// Waits (at most 5 s) until the log file has a line with `event`.
    static func waitForLog(_ d: some DaemonUnderTest, _ event: String) -> Bool {
        logLines(d, waitingFor: event).contains { $0["event"] == event }
    }

    /// A one-hour suspend (REALTIME and BOOTTIME an hour ahead of MONOTONIC) during a workout:
    /// the real daemon notices it (clock.suspended), counts the hour in elapsed time and shows it
    /// on the timeline. Waits on conditions; no assert on how long anything took.
    @Test func theRealDaemonSeesASuspend() throws {
        try Self.withShim { shim, _ in
            let d = try DaemonHarness(config: Self.config, extraEnv: shim.environment)
            try d.start()
            defer { d.stop() }
            let id = Self.summary(try d.request(#"{"command":"start","activity":"walking"}"#))["id"] as? String ?? "?"
            // The first tick reads the clocks (and logs clock.sync); the next one sees the suspend.
            #expect(Self.waitForLog(d, "clock.sync"), "the clocks were read")
            try shim.suspend(seconds: 3600)
            #expect(Self.waitForLog(d, "clock.suspended"), "clock.suspended logged")
            let stopped = Self.summary(try d.request(#"{"command":"stop"}"#))
            try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
            let elapsed = stopped["elapsedSeconds"] as? Double ?? -1
            #expect(elapsed >= 3600 && elapsed < 3600 + 120, "elapsed \(elapsed) s: the suspended hour counts")
            let events = try d.request(#"{"command":"show","id":"\#(id)"}"#)["events"] as? [[String: Any]] ?? []
            let suspended = events.first { $0["kind"] as? String == "suspended" }
            let text: String = suspended?["text"] as? String ?? ""
            #expect(text.contains("1 h"), "the timeline shows the suspend: \(events)")
        }
    }
}
