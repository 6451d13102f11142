import Testing
@testable import WorkoutCore

/// A device's track replayed live (`simulate FILE.gpx`: the feed's `recordedTrack`) is measured
/// with the import rules; the saved workout says so in its `source`, so `edit` and `recompute`
/// measure it with the same rules.
@Suite struct WorkoutLifecycleOriginTests {
    /// 30 fixes 1 s and ~10 m apart, then 10 standing still (within the jitter radius).
    static func fixes() -> [Fix] {
        var out: [Fix] = []
        for k in 0..<30 { out.append(Fix(time: 1000 + Double(k), latitude: 48 + Double(k) * 0.00009, longitude: 11)) }
        let last = 48 + 29 * 0.00009
        for k in 0..<10 { out.append(Fix(time: 1030 + Double(k), latitude: last + Double(k % 2) * 0.00001, longitude: 11)) }
        return out
    }

    static func record(replay: FeedReplay?) throws -> Workout {
        var l = WorkoutLifecycle()
        _ = l.start(.cycling, id: WorkoutID(start: 990, suffix: 1), at: 990, settings: MetricsSettings())
        if let replay { _ = l.feedSourceChanged(replay: replay, at: 990) }
        for f in fixes() { _ = l.fixReceived(f, at: f.time) }
        if replay != nil { _ = l.replayEnded(at: 1040) }
        guard case .success(let actions) = l.stop(at: 1040) else { throw LifecycleTestError.refused }
        let saved = actions.compactMap { a -> RecordedWorkout? in if case .save(let w) = a { return w } else { return nil } }
        return try #require(saved.first).workout
    }

    enum LifecycleTestError: Error { case refused }

    /// Regression: a simulated GPX ride recomputed with unchanged settings lost 57 of 1,286
    /// points (warm-up, stationary jitter) and 61 m: the saved workout did not say it was a
    /// device's track, so it was measured again with the receiver's rules.
    @Test func aReplayedDeviceTrackRecomputesToItself() throws {
        let w = try Self.record(replay: FeedReplay(speed: 0, origin: .device))
        expectEqual(w.source, "recorded:device-track")
        expectEqual(Importer.origin(ofSource: w.source), .device)
        let r = Recomputation(w, settings: MetricsSettings())
        expectEqual(r.after.summary.acceptedCount, w.summary.acceptedCount, "\(r.after.summary.rejectedByReason)")
        expectLess(abs(r.after.summary.distanceMeters - w.summary.distanceMeters), 1e-6)
        // Measured with the receiver's rules, the same fixes lose points: the test tells them apart.
        let asReceiver = Importer.edited(Workout(summary: w.summary, points: w.points, events: w.events, source: "recorded"),
                                         activity: w.activity, settings: MetricsSettings())
        expectLess(asReceiver.summary.acceptedCount, w.summary.acceptedCount)
    }

    /// A receiver's fixes stay "recorded" and recompute to themselves too.
    @Test func aReceiversWorkoutStaysRecorded() throws {
        let w = try Self.record(replay: nil)
        expectEqual(w.source, "recorded")
        let r = Recomputation(w, settings: MetricsSettings())
        expectEqual(r.after.summary.acceptedCount, w.summary.acceptedCount)
        expectLess(abs(r.after.summary.distanceMeters - w.summary.distanceMeters), 1e-6)
    }

    /// A restore from the journal keeps the origin (`rebased` names it).
    @Test func aRestoredReplayKeepsItsOrigin() throws {
        let id = WorkoutID(start: 990, suffix: 1)
        let records: [JournalRecord] = [.started(id: id, activity: .cycling, time: 990), .rebased(time: 1000, origin: .device)]
            + Self.fixes().map { .fix($0) } + [.stopped(time: 1040)]
        var l = WorkoutLifecycle()
        let actions = l.restoredSetAside(records, settings: MetricsSettings())
        let saved = actions.compactMap { a -> RecordedWorkout? in if case .save(let w) = a { return w } else { return nil } }
        expectEqual(saved.first?.source, "recorded:device-track")
        expectEqual(saved.first?.id, WorkoutID(start: 1000, suffix: 1), "the restored ID follows the rebased start too")
    }

    /// Regression: `simulate` of a 2010 track saved it under the ID of the day it was replayed
    /// (20261125T...): the start moved to the track's first fix, the ID stayed.
    @Test func theIDFollowsTheReplayedStart() throws {
        let w = try Self.record(replay: FeedReplay(speed: 0, origin: .device))
        expectEqual(w.summary.startedAt, 1000)
        expectEqual(w.id, WorkoutID(start: 1000, suffix: 1), "\(w.id)")
        #expect(w.id.rawValue.hasPrefix("19700101T001640Z-"))
    }

    /// Dates moved to a receiver's clock move the ID with them; an ID without a leading time
    /// (another machine's form) stays as it is.
    @Test func theIDFollowsAShiftedStart() {
        let r = WorkoutRecorder(id: WorkoutID(start: 1000, suffix: 0xbeef), activity: .running, startedAt: 1000)
        expectEqual(r.shifted(by: 3600).id.rawValue, "19700101T011640Z-beef")
        expectEqual(WorkoutID(rawValue: "20261121T093000Z-3f9a-laptop")!.startingAt(0).rawValue, "19700101T000000Z-3f9a-laptop")
        expectEqual(WorkoutID(rawValue: "custom")!.startingAt(0).rawValue, "custom")
    }
}
