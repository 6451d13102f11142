import Foundation
import Testing
import TestRequirements
import WorkoutCore
@testable import WorkoutDaemon

/// Real captures with old or future dates through the real gpsd (issue 14): bundg_zeus_9.log
/// (2018) at 40x records within 3 % of the reference 416.7 m with the clock problem in `status`;
/// rst39.log (dated 2033 by gpsd's week-rollover rule), replayed at its own pace (the suite's one
/// real-time gpsd replay, a few seconds), gives sane durations. The daemon is embedded on the
/// system's clocks, called synchronized (`SynchronizedClock`): gpsd serves at its own pace and the
/// daemon places these fixes by their arrival, so the daemon's clock must move with gpsd's output,
/// which a `ManualClock` the test moves cannot see.
@Suite(.offPool, .requires(.sharedData, .program(.gpsd)))
struct GpsdClockTests {
    /// The system's clocks with the kernel's synchronized flag pinned: the system clock dates
    /// these workouts (docs/time.md), whatever this machine's NTP says.
    struct SynchronizedClock: LoopClock {
        let system = SystemClock()
        func read() -> ClockReading { system.read() }
        func monotonic() -> Double { system.monotonic() }
        func sync() -> SystemClockSync { .synchronized }
        var isDriven: Bool { false }
    }

    static func summary(_ s: [String: Any]) -> [String: Any] { s["workout"] as? [String: Any] ?? [:] }

    /// Records `capture` through gpsd at `rate` until its points stop growing (`quiet` seconds);
    /// returns the stopped summary and the last status seen while recording.
    static func record(_ capture: String, port: Int, rate: Double, activity: String, quiet: Double, limit: Double) throws -> (summary: [String: Any], status: [String: Any], real: Double) {
        let gpsd = try GpsdReplay(capture: capture, port: port, rate: rate)
        defer { gpsd.stop() }
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"gpsd","address":"127.0.0.1:\#(port)"}]}"#)
        d.ports.clock = SynchronizedClock()
        try d.start()
        defer { d.stop() }
        let t0 = Date()
        _ = try d.request(#"{"command":"start","activity":"\#(activity)"}"#)
        var last = -1, lastChange = Date(), status: [String: Any] = [:]
        try pollUntil(seconds: limit) {
            let s = try d.request(#"{"command":"status"}"#)
            let n = Self.summary(s)["pointCount"] as? Int ?? 0
            if n != last { last = n; lastChange = Date(); if n > 0 { status = s } }
            return n > 0 && Date().timeIntervalSince(lastChange) >= quiet
        }
        let real = Date().timeIntervalSince(t0)
        let stopped = Self.summary(try d.request(#"{"command":"stop"}"#))
        try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        return (stopped, status, real)
    }

    static let bundgReference = 416.7

    /// At 40x (under 4 s) the capture's own intervals measure it: the distance is within 3 % of
    /// the reference, the elapsed time the capture's span (about 146 s, not the 4 s it took),
    /// with the clock problem in `status`. (Its 1x replay took 150 s of every `swift test`; the
    /// suite's one real-time replay is rst39's below; a receiver 8 years behind at 1 Hz is
    /// measured in-process by `ReceiverClockRideTests.receiverOffBy`.)
    @Test func bundgAt40x() throws {
        let (s, status, real) = try Self.record("bundg_zeus_9.log", port: 2972, rate: 40, activity: "sailing", quiet: 2, limit: 30)
        let distance = s["distanceMeters"] as? Double ?? 0
        let elapsed = s["elapsedSeconds"] as? Double ?? 0
        let problem = (status["gps"] as? [String: Any])?["problem"] as? String ?? ""
        #expect(abs(distance - Self.bundgReference) / Self.bundgReference < 0.03, "bundg_zeus_9 at 40x: \(distance) m (reference \(Self.bundgReference) m)")
        #expect(elapsed > 100 && elapsed < 200, "elapsed \(elapsed) s: the capture's span")
        #expect(problem.contains("receiver clock") && problem.contains("behind the system clock"), "gps.problem: \(problem)")
        print("time: bundg_zeus_9 at 40x: \(distance) m, elapsed \(elapsed) s (real \(real) s), problem \"\(problem)\"")
    }

    /// rst39 (2014) comes back from gpsd dated 2033: durations stay those of the walk, the
    /// workout is dated today, and the problem names gpsd's rollover rule.
    @Test func rst39DatedInTheFuture() throws {
        let (s, status, real) = try Self.record("rst39.log", port: 2973, rate: 1, activity: "running", quiet: 2, limit: 30)
        let elapsed = s["elapsedSeconds"] as? Double ?? 0
        let moving = s["movingSeconds"] as? Double ?? 0
        let startedAt = FaultTimes.seconds(s["startedAt"]), endedAt = FaultTimes.seconds(s["endedAt"])
        let problem = (status["gps"] as? [String: Any])?["problem"] as? String ?? ""
        #expect(elapsed >= 0 && elapsed < real + 2, "elapsed \(elapsed) s in \(real) s")
        #expect(moving <= elapsed && endedAt - startedAt < real + 2, "moving \(moving) s, span \(endedAt - startedAt) s")
        #expect(abs(startedAt - Date().timeIntervalSince1970) < 120, "dated today, not 2033")
        #expect(problem.contains("ahead of the system clock") && problem.contains("2033") && problem.contains("gpsd"), "gps.problem: \(problem)")
        print("time: rst39 (2033) at 1x: elapsed \(elapsed) s, moving \(moving) s (real \(real) s), \(s["distanceMeters"] ?? 0) m, problem \"\(problem)\"")
    }
}
