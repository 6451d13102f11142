import Foundation
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// Issue 14: with the kernel reporting the system clock unsynchronized and the daemon's clock a
/// day behind, a receiver with true time dates the workout, and status and the log say so;
/// synchronized, the system clock dates it. Durations and distance are the same either way.
/// Embedded on a `ManualClock` a day behind the receiver, its synchronized flag set by the test
/// (what the LD_PRELOAD shim's adjtimex answer did to the real process; that the real
/// `SystemClock` reads the kernel's clocks is SystemClockTests').
@Suite struct DateSourceClockTests {
    static let day = 86_400.0

    /// A 3 s walk at 3 m/s (5 fixes a second with true times, each second's sent at once and then
    /// the daemon's clock moved a second) on a daemon whose clock is a day behind; returns the
    /// saved workout's summary, the true start and stop, the walk's duration, status's
    /// `dateSource` while recording and the log lines.
    static func walk(unsync: Bool) throws -> (summary: [String: Any], started: Double, stopped: Double, real: Double, dateSource: String, log: [LogfmtLine]) {
        let truth = 1_767_225_600.0
        let clock = ManualClock(realtime: truth - Self.day, sync: unsync ? .unsynchronized : .synchronized)
        let d = try EmbeddedDaemon(config: SystemClockTests.config, clock: clock)
        try d.start()
        defer { d.stop() }
        let startedReal = clock.wall() + Self.day
        _ = try d.request(#"{"command":"start","activity":"walking"}"#)
        _ = try ShutdownRestartTests.feedFixes(d, start: startedReal, seconds: 3, rate: 5, speed: 3)
        let status = try d.request(#"{"command":"status"}"#)
        let stoppedReal = clock.wall() + Self.day
        let summary = SystemClockTests.summary(try d.request(#"{"command":"stop"}"#))
        try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        return (summary, startedReal, stoppedReal, stoppedReal - startedReal, status["dateSource"] as? String ?? "", SystemClockTests.logLines(d, waitingFor: "workout.saved"))  // after any clock.dates
    }

    /// The same 3 s walk twice: unsynchronized (receiver dates), then synchronized (system
    /// clock dates); durations and distance agree.
    @Test func receiverDatesTheWorkoutOnlyWhileUnsynchronized() throws {
        let w = try Self.walk(unsync: true)
        let s = w.summary
        let startedAt = FaultTimes.seconds(s["startedAt"]), endedAt = FaultTimes.seconds(s["endedAt"])
        let elapsed = s["elapsedSeconds"] as? Double ?? -1, moving = s["movingSeconds"] as? Double ?? -1
        let distance = s["distanceMeters"] as? Double ?? -1
        #expect(abs(startedAt - w.started) < 2, "started \(startedAt - w.started) s from the receiver's (true) time; the system clock is a day behind")
        #expect(abs(endedAt - w.stopped) < 2, "ended \(endedAt - w.stopped) s from the receiver's time")
        #expect(abs(elapsed - w.real) < 1.5 && abs((endedAt - startedAt) - elapsed) < 1.5, "elapsed \(elapsed) s, really \(w.real) s, span \(endedAt - startedAt) s")
        #expect(distance > 3 && distance < 3 * w.real + 3, "distance \(distance) m for \(w.real) s at 3 m/s")
        #expect(w.dateSource.hasPrefix("GPS receiver (system clock not synchronized, 1 day behind"), "status dateSource: \(w.dateSource)")
        let dated = w.log.filter { $0["event"] == "clock.dates" }
        #expect(dated.count == 1, "logged once: \(dated.count)")
        let dates: String = dated.first?["dates"] ?? "none"
        #expect(dates.hasPrefix("GPS receiver"), "\(dates)")

        let v = try Self.walk(unsync: false)
        let t = v.summary
        let startedAt2 = FaultTimes.seconds(t["startedAt"]), endedAt2 = FaultTimes.seconds(t["endedAt"])
        let elapsed2 = t["elapsedSeconds"] as? Double ?? -1, moving2 = t["movingSeconds"] as? Double ?? -1
        let distance2 = t["distanceMeters"] as? Double ?? -1
        #expect(abs(startedAt2 - (v.started - Self.day)) < 2, "started \(startedAt2 - v.started) s from true time: the system clock's (-86400)")
        #expect(abs(endedAt2 - (v.stopped - Self.day)) < 2, "ended \(endedAt2 - v.stopped) s from true time")
        #expect(abs(elapsed2 - v.real) < 1.5, "elapsed \(elapsed2) s, really \(v.real) s")
        #expect(abs(distance2 - distance) < 2, "distance \(distance2) m synchronized, \(distance) m dated by the receiver")
        #expect(v.dateSource == "system clock (synchronized)", "status dateSource: \(v.dateSource)")
        #expect(!v.log.contains { $0["event"] == "clock.dates" }, "the dates never moved")
        func f(_ x: Double, _ d: Int = 2) -> String { String(format: "%.\(d)f", x) }
        print("time: clock a day behind, unsynchronized, \(f(w.real, 1)) s walk: startedAt \(f(startedAt - w.started)) s, endedAt \(f(endedAt - w.stopped)) s from true time; elapsed \(f(elapsed)) s, moving \(f(moving)) s, distance \(f(distance, 1)) m; status \"\(w.dateSource)\"")
        print("time: clock a day behind, synchronized, \(f(v.real, 1)) s walk: startedAt \(f(startedAt2 - v.started, 1)) s from true time; elapsed \(f(elapsed2)) s, moving \(f(moving2)) s, distance \(f(distance2, 1)) m; status \"\(v.dateSource)\"")
    }
}
