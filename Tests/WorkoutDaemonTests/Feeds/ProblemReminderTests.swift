import Testing
@testable import WorkoutDaemon

/// #18: `gps.problem` was logged on every retry when two sources failed in turn (18 lines in
/// 90 s). Each distinct problem is logged once, then reminders come at a falling rate.
@Suite struct ProblemReminderTests {
    /// The hub's retry pattern with two failing sources: the second 0.2 s after the first, then
    /// a round backoff of 1, 2, 4, 8, 16, 30, 30 ... s.
    static func retries(until end: Double) -> [(String, Double)] {
        var out: [(String, Double)] = []
        var t = 0.0
        var failures = 0
        while t < end {
            out.append(("gpsd at 127.0.0.1:2947 refused the connection", t))
            out.append(("NMEA at 127.0.0.1:10110 refused the connection", t + 0.2))
            failures += 1
            t += 0.2 + min(30, Double(1 << min(failures - 1, 5)))
        }
        return out
    }

    @Test func alternatingSourcesAreLoggedOnceThenRemindedAtAFallingRate() {
        var r = ProblemReminder()
        var lines: [(Double, ProblemReminder.Decision)] = []
        for (key, t) in Self.retries(until: 3 * 3600) {
            let d = r.report(key, now: t)
            if d != .quiet { lines.append((t, d)) }
        }
        let in90s = lines.filter { $0.0 < 90 }
        #expect(in90s.filter { $0.1 == .new }.count == 2, "each source's problem once")
        #expect(in90s.count <= 3, "not a line per retry: \(in90s.map(\.0))")
        let reminders = lines.filter { if case .reminder = $0.1 { return true } else { return false } }.map(\.0)
        #expect(!reminders.isEmpty, "the problem is not forgotten")
        let gaps = zip(reminders.dropFirst(), reminders).map { $0 - $1 }
        #expect(zip(gaps.dropFirst(), gaps).allSatisfy { $0 >= $1 - 31 }, "reminders come ever more rarely: \(gaps)")
        #expect(gaps.allSatisfy { $0 <= ProblemReminder.maxInterval + 31 })
        if case .reminder(let n)? = lines.last?.1 { #expect(n > 0, "a reminder says how many retries it stands for") }
    }

    @Test func aNewProblemOrAResetIsNewsAgain() {
        var r = ProblemReminder()
        #expect(r.report("a", now: 0) == .new)
        #expect(r.report("a", now: 1) == .quiet)
        #expect(r.report("b", now: 2) == .new)
        r.reset()
        #expect(r.report("a", now: 3) == .new)
        #expect(r.report("a", now: 3 + ProblemReminder.firstReminder) == .reminder(repeats: 0))
    }
}
