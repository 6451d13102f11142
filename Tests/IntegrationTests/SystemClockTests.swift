import Foundation
import Testing
import WorkoutCore

/// The daemon's time under an LD_PRELOAD clock shim (Tests/Shims/clockshim.c) that moves its
/// CLOCK_REALTIME / CLOCK_BOOTTIME / CLOCK_MONOTONIC alone; the machine's clock is never touched.
/// Issue 14: a suspend mid-walk counts in elapsed and shows on the timeline; the next workout
/// starts at the system's time; a clock corrected after start-up moves the next workout's start
/// with it; a step during a workout changes no duration.
@Suite(.serialized) struct SystemClockTests {
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
    static func logLines(_ d: DaemonHarness, waitingFor event: String, count: Int = 1) -> [LogfmtLine] {
        func parsed(_ lines: [Substring]) -> [LogfmtLine] { lines.compactMap { LogfmtParser.parse(String($0)) } }
        return parsed(d.logFileLines { parsed($0).filter { $0["event"] == event }.count >= count })
    }

    /// A walk, a one-hour suspend in the middle (REALTIME and BOOTTIME an hour ahead of
    /// MONOTONIC), the walk goes on: elapsed includes the hour, the timeline shows the gap, no
    /// distance or moving time is invented for it, and the next workout starts at the system's
    /// (the daemon's) time.
    @Test func oneHourSuspendMidWalk() throws {
        try Self.withShim { shim, _ in
            let d = try DaemonHarness(config: Self.config, extraEnv: shim.environment)
            try d.start()
            defer { d.stop() }
            let started = Self.summary(try d.request(#"{"command":"start","activity":"walking"}"#))
            let id = started["id"] as? String ?? "?"
            let t0 = Date().timeIntervalSince1970
            let before = FixFeeder(socket: d.feedSocket, start: t0, rate: 5, speed: 3)
            usleep(3_000_000)
            before.stop()
            let sent = before.sent
            try shim.suspend(seconds: 3600)
            usleep(1_500_000)  // the 1 s tick notices the suspend
            let after = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970 + 3600, index0: sent, rate: 5, speed: 3)
            usleep(3_000_000)
            after.stop()
            let real = Date().timeIntervalSince1970 - t0
            let stopped = Self.summary(try d.request(#"{"command":"stop"}"#))
            try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
            let elapsed = stopped["elapsedSeconds"] as? Double ?? -1
            let moving = stopped["movingSeconds"] as? Double ?? -1
            let distance = stopped["distanceMeters"] as? Double ?? -1
            #expect(abs(elapsed - (real + 3600)) < 2, "elapsed \(elapsed) s for \(real) s walking around a one-hour suspend")
            #expect(moving < real, "moving \(moving) s: none of the suspended hour")
            #expect(distance < 3 * real + 5, "distance \(distance) m: nothing invented across the gap (walked \(3 * real) m)")
            let shown = try d.request(#"{"command":"show","id":"\#(id)"}"#)
            let events = shown["events"] as? [[String: Any]] ?? []
            let suspended = events.first { $0["kind"] as? String == "suspended" }
            #expect(suspended != nil, "the timeline shows the suspend: \(events)")
            #expect((suspended?["text"] as? String ?? "").contains("1 h"), "\(String(describing: suspended))")
            #expect(Self.logLines(d, waitingFor: "clock.suspended").contains { $0["event"] == "clock.suspended" }, "clock.suspended logged")
            // The next workout starts at the daemon's time: the machine's plus the suspended hour.
            let next = Self.summary(try d.request(#"{"command":"start","activity":"yoga"}"#))
            let nextStart = FaultTimes.seconds(next["startedAt"])
            #expect(abs(nextStart - (Date().timeIntervalSince1970 + 3600)) < 1, "next workout starts \(nextStart - Date().timeIntervalSince1970) s from the machine's clock (the daemon's is +3600)")
            _ = try d.request(#"{"command":"stop"}"#)
            print("time: suspend 1 h mid-walk: real \(String(format: "%.1f", real)) s, elapsed \(String(format: "%.1f", elapsed)) s, moving \(String(format: "%.1f", moving)) s, distance \(String(format: "%.1f", distance)) m")
        }
    }

    /// Started an hour ahead, corrected (as NTP would) before the workout: the workout starts at
    /// the corrected time and its real fixes are recorded.
    @Test func clockCorrectedAfterStartUpMovesTheNextStart() throws {
        try Self.withShim { shim, _ in
            try shim.set(realtime: 3600)
            let d = try DaemonHarness(config: Self.config, extraEnv: shim.environment)
            try d.start()
            defer { d.stop() }
            usleep(1_200_000)  // the daemon has read its clocks an hour ahead
            try shim.set(realtime: 0)
            usleep(1_200_000)
            let started = Self.summary(try d.request(#"{"command":"start","activity":"walking"}"#))
            let startedAt = FaultTimes.seconds(started["startedAt"])
            #expect(abs(startedAt - Date().timeIntervalSince1970) < 1, "started \(startedAt - Date().timeIntervalSince1970) s from the corrected clock")
            let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 5, speed: 3)
            usleep(3_000_000)
            feeder.stop()
            let stopped = Self.summary(try d.request(#"{"command":"stop"}"#))
            #expect((stopped["acceptedCount"] as? Int ?? 0) >= 2 && (stopped["distanceMeters"] as? Double ?? 0) > 4, "real fixes recorded: \(stopped["acceptedCount"] ?? "?") of \(stopped["pointCount"] ?? "?"), rejected \(stopped["rejected"] ?? "?")")
            #expect((stopped["rejected"] as? [String: Any])?["out_of_order"] == nil, "no fix out of order: \(stopped["rejected"] ?? "?")")
            #expect(Self.logLines(d, waitingFor: "clock.stepped").contains { $0["event"] == "clock.stepped" }, "the correction is logged")
        }
    }

    /// The wall clock steps an hour forward, then two back, during a workout: no duration moves;
    /// the next workout starts at the stepped clock's time (read when needed).
    @Test func stepDuringAWorkoutChangesNoDuration() throws {
        try Self.withShim { shim, _ in
            let d = try DaemonHarness(config: Self.config, extraEnv: shim.environment)
            try d.start()
            defer { d.stop() }
            let t0 = Date().timeIntervalSince1970
            let started = Self.summary(try d.request(#"{"command":"start","activity":"walking"}"#))
            let feeder = FixFeeder(socket: d.feedSocket, start: t0, rate: 5, speed: 3)
            usleep(1_500_000)
            try shim.set(realtime: 3600)
            usleep(1_500_000)
            try shim.set(realtime: -3600)
            usleep(1_500_000)
            feeder.stop()
            let real = Date().timeIntervalSince1970 - t0
            let stopped = Self.summary(try d.request(#"{"command":"stop"}"#))
            try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
            let elapsed = stopped["elapsedSeconds"] as? Double ?? -1
            let span = FaultTimes.seconds(stopped["endedAt"]) - FaultTimes.seconds(started["startedAt"])
            #expect(abs(elapsed - real) < 1.5, "elapsed \(elapsed) s, really \(real) s")
            #expect(abs(span - elapsed) < 1.5, "endedAt - startedAt \(span) s")
            let steps = Self.logLines(d, waitingFor: "clock.stepped", count: 2).filter { $0["event"] == "clock.stepped" }
            #expect(steps.count == 2, "both steps logged: \(steps.count)")
            let next = Self.summary(try d.request(#"{"command":"start","activity":"yoga"}"#))
            #expect(abs(FaultTimes.seconds(next["startedAt"]) - (Date().timeIntervalSince1970 - 3600)) < 1, "next start on the stepped clock")
            _ = try d.request(#"{"command":"stop"}"#)
            print("time: steps +1 h, -2 h during a \(String(format: "%.1f", real)) s walk: elapsed \(String(format: "%.2f", elapsed)) s")
        }
    }
}
