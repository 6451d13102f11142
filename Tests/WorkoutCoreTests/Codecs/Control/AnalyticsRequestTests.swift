import Testing
@testable import WorkoutCore

/// `fitness` and `power-curve` on the control protocol: encoded and decoded back, and bad
/// dates refused with a message naming them.
@Suite struct AnalyticsRequestTests {
    static func decode(_ text: String) -> Result<ControlRequest, ProtocolError> {
        Array(text.utf8).withUnsafeBufferPointer { ControlRequest.decode(line: $0) }
    }

    @Test func requestsRoundTrip() throws {
        let d = StreakDay(year: 2026, month: 1, day: 31)
        let requests: [ControlRequest] = [
            .analytics(.fitness(DayRange())), .analytics(.fitness(DayRange(from: d, to: d.adding(days: 30)))),
            .analytics(.powerCurve(nil, DayRange())), .analytics(.powerCurve(.cycling, DayRange(from: nil, to: d))),
        ]
        for r in requests {
            let line = r.encoded().serialized()
            expectEqual(try Self.decode(line).get(), r, "\(line)")
        }
        expectEqual(ControlRequest.analytics(.powerCurve(nil, DayRange())).commandName, "power-curve")
    }

    @Test func badRangesAreRefusedByName() {
        for (line, words) in [(#"{"command":"fitness","from":"2026-13-01"}"#, "\"from\" must be a date"),
                              (#"{"command":"fitness","to":5}"#, "\"to\" must be a date"),
                              (#"{"command":"power-curve","from":"2026-02-01","to":"2026-01-01"}"#, "is after"),
                              (#"{"command":"power-curve","activity":"flying"}"#, "unknown activity")] {
            guard case .failure(let e) = Self.decode(line) else { Issue.record("accepted \(line)"); continue }
            #expect(e.message.contains(words), "\(e.message)")
        }
    }
}
