import Testing
@testable import WorkoutCore

/// A suspend mid-workout (docs/time.md): a gap on the timeline that counts in elapsed time,
/// never in moving time, bridged by no distance, rebuilt exactly from the saved workout.
@Suite struct WorkoutRecorderSuspendTests {
    static let start = 1_795_000_000.0

    static func fix(_ t: Double, _ metres: Double) -> Fix {
        Fix(time: start + t, latitude: 48, longitude: 11.5 + metres / (111_320 * 0.66913), altitude: 500, mode: .threeD, horizontalAccuracy: 3)
    }

    /// 120 s walking at 1.5 m/s, an hour asleep, 120 s more (the walker moved 500 m meanwhile).
    static func walk(suspend: Bool) -> WorkoutRecorder {
        var r = WorkoutRecorder(id: WorkoutID(rawValue: "walk")!, activity: .walking, startedAt: start)
        for i in 0...120 { r.ingest(fix(Double(i), Double(i) * 1.5)) }
        if suspend { r.suspended(from: start + 120.5, to: start + 3720.5) } else { r.tick(now: start + 3720.5) }
        for i in 0...120 { r.ingest(fix(3721 + Double(i), 680 + Double(i) * 1.5)) }
        return r
    }

    @Test func suspendIsAGapOnTheTimeline() {
        let r = Self.walk(suspend: true)
        let s = r.summary(now: Self.start + 3842)
        expectLess(abs(s.elapsedSeconds - 3842), 1e-6, "elapsed includes the hour: \(s.elapsedSeconds)")
        expectLess(s.movingSeconds, 240, "moving \(s.movingSeconds) s: none of the hour")
        expectGreater(s.signalLostSeconds, 3600, "the gap is signal lost: \(s.signalLostSeconds)")
        let walked: Double = 2 * 120 * 1.5 + 1  // typed constants: inline, these literals took seconds to type-check
        let suspendedAt: Double = Self.start + 120.5
        expectLess(s.distanceMeters, walked, "no distance across the gap: \(s.distanceMeters) m")
        let suspended = r.events.filter { $0.kind == .suspended }
        #expect(suspended.count == 1 && suspended.first?.time == suspendedAt)
        expectEqual(suspended.first?.text, "system suspended for 1 h")
        #expect(r.events.contains { $0.kind == .signalLost && $0.time == suspendedAt })
    }

    @Test func rebuiltFromTheSavedWorkoutEqualsTheLiveOne() {
        let live = Self.walk(suspend: true)
        let end = Self.start + 3842
        let saved = live.finish(at: end)
        let rebuilt = WorkoutRecorder.rebuild(id: live.id, activity: live.activity, startedAt: live.startedAt,
                                              points: saved.points, events: saved.events).finish(at: end)
        expectEqual(rebuilt.summary, saved.summary)
        expectEqual(rebuilt.events, saved.events)
    }

    @Test func journalRecordRoundTrips() {
        let r = JournalRecord.suspended(time: 1_795_000_120.5, until: 1_795_003_720.5)
        expectEqual(JournalRecord.decodeLine(Substring(r.encodeLine().trimmingCharacters())), r)
    }
}

private extension String {
    func trimmingCharacters() -> String { var s = self; while s.last == "\n" { s.removeLast() }; return s }
}
