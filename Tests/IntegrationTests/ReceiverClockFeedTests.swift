import Foundation
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// Receivers whose clocks disagree with the system's, on the daemon's feed socket (issue 14):
/// one fix dated +1 h, 2099 or 9999 in a ride changes elapsed by < 2 s and distance by < 1 %;
/// fixes 16 s, 1 day and 8 years behind all record the ride. Embedded on a `ManualClock`
/// (synchronized, as the system clock that dates these rides must be: docs/time.md); the
/// receiver's times are what differs, so the daemon's clock need not move while a ride is sent.
@Suite struct ReceiverClockFeedTests {
    static func summary(_ s: [String: Any]) -> [String: Any] { s["workout"] as? [String: Any] ?? [:] }

    /// One ride of 300 fixes (1 s apart at 6 m/s: 1794 m) sent at once; `time(i, t0)`
    /// dates fix i given the daemon's clock at the start. Returns the stopped summary and status.
    static func ride(_ d: some DaemonUnderTest, _ time: (Int, Double) -> Double) throws -> (summary: [String: Any], status: [String: Any]) {
        let start = Self.summary(try d.request(#"{"command":"start","activity":"cycling"}"#))
        let t0 = FaultTimes.seconds(start["startedAt"])
        try RideSender.send(d, count: 300, linesPerSecond: 6000) { time($0, t0) }  // at once: the clock does not move
        let status = try d.request(#"{"command":"status"}"#)
        let stopped = Self.summary(try d.request(#"{"command":"stop"}"#))
        try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        return (stopped, status)
    }

    /// The system clock dates these rides (synchronized: docs/time.md).
    @Test func outliersAndReceiversBehind() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"metrics":{"autoPauseSeconds":0}}"#, clock: ManualClock())
        try d.start()
        defer { d.stop() }
        let reference = try Self.ride(d) { i, t0 in t0 + Double(i) }.summary
        let refDistance = reference["distanceMeters"] as? Double ?? 0
        let refElapsed = reference["elapsedSeconds"] as? Double ?? 0
        print("time: reference ride: \(refDistance) m, \(refElapsed) s, points \(reference["pointCount"] ?? "?"), accepted \(reference["acceptedCount"] ?? "?"), rejected \(reference["rejected"] ?? "?")")
        #expect(abs(refDistance - 1794) < 20, "reference ride: \(refDistance) m")
        #expect(refElapsed > 298 && refElapsed < 302, "reference ride: \(refElapsed) s")
        let y2099 = 4_070_908_800.0, y9999 = 253_402_300_799.0
        let outliers: [(String, (Double) -> Double)] = [("+1 h", { $0 + 3600 }), ("2099", { _ in y2099 }), ("9999", { _ in y9999 })]
        for (name, date) in outliers {
            let s = try Self.ride(d) { i, t0 in i == 150 ? date(t0 + 150) : t0 + Double(i) }.summary
            let distance = s["distanceMeters"] as? Double ?? 0
            let elapsed = s["elapsedSeconds"] as? Double ?? 0
            #expect(abs(elapsed - refElapsed) < 2, "one fix dated \(name): elapsed \(elapsed) s vs \(refElapsed) s")
            #expect(abs(distance - refDistance) / refDistance < 0.01, "one fix dated \(name): \(distance) m vs \(refDistance) m")
            print("time: one fix dated \(name): elapsed \(elapsed) s (reference \(refElapsed)), distance \(distance) m (reference \(refDistance))")
        }
        let behind: [(String, Double, String)] = [("16 s", -16, "16 s behind"), ("1 day", -86400, "1 day behind"), ("8 years", -8 * 365.2425 * 86400, "8 years behind")]
        for (name, offset, words) in behind {
            let (s, status) = try Self.ride(d) { i, t0 in t0 + offset + Double(i) }
            let distance = s["distanceMeters"] as? Double ?? 0
            let elapsed = s["elapsedSeconds"] as? Double ?? 0
            let gps = status["gps"] as? [String: Any] ?? [:]
            let problem = gps["problem"] as? String ?? ""
            #expect(abs(distance - refDistance) / refDistance < 0.01, "fixes \(name) behind: \(distance) m vs \(refDistance) m")
            #expect(abs(elapsed - refElapsed) < 2, "fixes \(name) behind: elapsed \(elapsed) s")
            #expect(problem.contains(words) && problem.contains("placed by arrival"), "gps.problem: \(problem)")
            let offsetShown = gps["clockOffsetSeconds"] as? Double ?? 0
            #expect(abs(offsetShown - offset) < 3, "clockOffsetSeconds \(offsetShown) for \(offset)")
            print("time: fixes \(name) behind: elapsed \(elapsed) s, distance \(distance) m, problem \"\(problem)\"")
        }
    }
}

/// ISO-8601 strings from replies as seconds since 1970.
enum FaultTimes {
    static func seconds(_ v: Any?) -> Double {
        guard let s = v as? String else { return 0 }
        let f = ISO8601DateFormatter()
        if let d = f.date(from: s) { return d.timeIntervalSince1970 }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: s)?.timeIntervalSince1970 ?? 0
    }
}
