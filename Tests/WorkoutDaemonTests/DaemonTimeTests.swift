import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// The daemon's time model in-process on a driven clock (issue 26: these ran against the real
/// binary under an LD_PRELOAD shim, waiting seconds of wall time and asserting on it). A walk
/// at 10 fixes/s, 1.2 m/s; every assert is exact to the clock the test moves.
@Suite struct DaemonTimeTests {
    static let config = #"{"feeds":[{"kind":"socket"}],"metrics":{"autoPauseSeconds":0},"statusLogSeconds":0,"log":{"level":"error"}}"#

    static func summary(_ j: JSON) -> JSON { j["workout"] ?? .null }

    /// Walks for `seconds` at 10 fixes/s from `east` metres; returns where it got to.
    static func walk(_ d: InProcessDaemon, seconds: Int, from east: Double) throws -> Double {
        var x = east
        for _ in 0..<(seconds * 10) {
            try d.advance(0.1)
            x += 0.12
            try d.fix(east: x)
        }
        return x
    }

    /// The wall clock set an hour forward, then two hours back, during a workout: durations
    /// follow the time that passed (12 s), the dates stay those of the start (was
    /// FaultTests.wallClockSteppingAnHourDuringAWorkout, 5 s of wall time with 1.5 s tolerances).
    @Test func wallClockStepsDuringAWorkoutChangeNoDuration() throws {
        let clock = ManualClock()
        let d = try InProcessDaemon(config: Self.config, clock: clock)
        let t0 = clock.wall()
        let started = Self.summary(try d.request(#"{"command":"start","activity":"walking"}"#))
        var east = try Self.walk(d, seconds: 4, from: 0)
        clock.stepWall(by: 3600)
        east = try Self.walk(d, seconds: 4, from: east)
        let ahead = Self.summary(try d.status())["elapsedSeconds"]?.doubleValue ?? -1
        clock.stepWall(by: -7200)
        _ = try Self.walk(d, seconds: 4, from: east)
        let behind = Self.summary(try d.status())["elapsedSeconds"]?.doubleValue ?? -1
        let stopped = Self.summary(try d.request(#"{"command":"stop"}"#))
        #expect(abs(ahead - 8) < 0.001, "after +1 h: elapsed \(ahead) s")
        #expect(abs(behind - 12) < 0.001, "after -2 h: elapsed \(behind) s")
        #expect(abs((stopped["elapsedSeconds"]?.doubleValue ?? -1) - 12) < 0.001)
        #expect((stopped["movingSeconds"]?.doubleValue ?? -1) > 11)
        let startedAt = started["startedAt"]?.stringValue.flatMap(ISO8601.parse) ?? 0
        let endedAt = stopped["endedAt"]?.stringValue.flatMap(ISO8601.parse) ?? 0
        #expect(abs(startedAt - t0) < 0.001, "startedAt is the true start")
        #expect(abs(endedAt - startedAt - 12) < 0.001, "endedAt - startedAt = \(endedAt - startedAt) s")
        #expect(try d.until { try d.status()["state"]?.stringValue == "idle" })
    }

    /// A one-hour suspend in the middle of a workout (the monotonic clock stops, wall and boot
    /// time move): the hour counts in elapsed time, not in moving time, and is logged.
    @Test func aSuspendCountsInElapsedButNotMovingTime() throws {
        let clock = ManualClock()
        let d = try InProcessDaemon(config: Self.config, clock: clock)
        _ = try d.request(#"{"command":"start","activity":"walking"}"#)
        let east = try Self.walk(d, seconds: 10, from: 0)
        clock.suspend(for: 3600)
        try d.advance(1)  // the second tick sees the suspend
        _ = try Self.walk(d, seconds: 10, from: east)
        let s = Self.summary(try d.status())
        let elapsed = s["elapsedSeconds"]?.doubleValue ?? -1
        let moving = s["movingSeconds"]?.doubleValue ?? -1
        #expect(abs(elapsed - 3621) < 0.001, "elapsed \(elapsed) s")
        #expect(moving > 18 && moving < 22, "moving \(moving) s")
    }

    /// Issue 27 item 12: after an hour's suspend the health line said "0.00 fixes/s" (200 fixes
    /// over 3,621 s); it is measured over the time with a signal: 10 fixes/s.
    @Test func theHealthRateAfterASuspendIsTheRateWhileAwake() throws {
        let clock = ManualClock()
        let d = try InProcessDaemon(config: Self.config, clock: clock)
        _ = try d.request(#"{"command":"start","activity":"walking"}"#)
        let east = try Self.walk(d, seconds: 10, from: 0)
        clock.suspend(for: 3600)
        try d.advance(1)
        _ = try Self.walk(d, seconds: 10, from: east)
        let stopped = try #require(WorkoutSummary(json: Self.summary(try d.request(#"{"command":"stop"}"#))))
        #expect(stopped.pointCount == 200 && stopped.signalLostSeconds > 3600, "\(stopped.pointCount) points, \(stopped.signalLostSeconds) s lost")
        #expect(abs(stopped.fixRate - 10) < 0.6, "\(stopped.fixRate) fixes/s")
        let line = DaemonLogEvent.health(stopped, fixRate: stopped.fixRate).message
        #expect(!line.hasPrefix("Recording health: 0."), "\(line)")
    }
}
