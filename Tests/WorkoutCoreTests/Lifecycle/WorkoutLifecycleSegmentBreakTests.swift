import Testing
@testable import WorkoutCore

/// A `SEGMENT` line from the feed (`simulate` of a multi-segment GPX/TCX file) breaks the track
/// as `import` reads the file: no distance across the break, the gap a pause.
@Suite struct WorkoutLifecycleSegmentBreakTests {
    /// Two segments 1 km apart, 60 s between them: 10 fixes each, 10 m apart, 1 s apart.
    static func track() -> (fixes: [Fix], segments: [Int]) {
        var fixes: [Fix] = [], segments: [Int] = []
        for k in 0..<10 { fixes.append(Fix(time: 1000 + Double(k), latitude: 48 + Double(k) * 0.00009, longitude: 11)); segments.append(0) }
        for k in 0..<10 { fixes.append(Fix(time: 1069 + Double(k), latitude: 48.01 + Double(k) * 0.00009, longitude: 11)); segments.append(1) }
        return (fixes, segments)
    }

    /// Plays the track into a workout, as the daemon does with a simulation feed's reports.
    static func replay(breaks: Bool) -> (summary: WorkoutSummary, actions: [LifecycleAction]) {
        var l = WorkoutLifecycle()
        _ = l.start(.cycling, id: WorkoutID(start: 990, suffix: 1), at: 990, settings: MetricsSettings())
        _ = l.feedSourceChanged(replay: FeedReplay(speed: 0, origin: .device), at: 990)
        var actions: [LifecycleAction] = []
        let (fixes, segments) = track()
        for (i, f) in fixes.enumerated() {
            if breaks, i > 0, segments[i] != segments[i - 1] { actions += l.segmentBreakReceived(at: 991) }
            actions += l.fixReceived(f, at: 991)
        }
        _ = l.replayEnded(at: 992)
        return (l.summary(now: 992)!, actions)
    }

    /// Regression (issue 18): the break was bridged (the 1.1 km step between the segments was
    /// added). Now the distance is the segments' own and every figure equals the import's.
    @Test func aBreakAddsNoDistanceAndMeasuresAsImport() throws {
        let joined = Self.replay(breaks: false).summary
        let (broken, actions) = Self.replay(breaks: true)
        let (fixes, segments) = Self.track()
        let imported = try Importer.workout(from: ImportedTrack(fixes: fixes, segments: segments, activity: .cycling, origin: .device),
                                            activity: .cycling, id: 1, settings: MetricsSettings(), source: "t.gpx").summary
        expectGreater(joined.distanceMeters, 1000)  // what main recorded
        expectLess(broken.distanceMeters, 200)
        expectLess(abs(broken.distanceMeters - imported.distanceMeters), 1e-6, "\(broken.distanceMeters) vs \(imported.distanceMeters)")
        expectLess(abs(broken.movingSeconds - imported.movingSeconds), 1e-6, "\(broken.movingSeconds) vs \(imported.movingSeconds)")
        expectLess(abs(broken.elapsedSeconds - imported.elapsedSeconds), 1e-6, "\(broken.elapsedSeconds) vs \(imported.elapsedSeconds)")
        #expect(broken.pointCount == 20 && broken.acceptedCount == imported.acceptedCount)
        // Journaled as a pause at the last fix and a resume just before the next, so a restore
        // rebuilds the same workout.
        let records = actions.compactMap { a -> JournalRecord? in if case .journal(let r) = a { return r } else { return nil } }
        #expect(records.contains(.paused(time: 1009, cause: .manual)))
        #expect(records.contains { if case .resumed(let t) = $0 { return abs(t - 1068.999) < 1e-6 } else { return false } })
        let rebuilt = try #require(JournalReplay(records: [.started(id: WorkoutID(start: 990, suffix: 1), activity: .cycling, time: 990),
                                                           .rebased(time: 1000, origin: .device)] + records, settings: MetricsSettings()))
        expectLess(abs(rebuilt.recorder.summary(now: 1078).distanceMeters - broken.distanceMeters), 1e-9)
    }

    /// A break before any fix, or while paused, changes nothing; a user pause clears a pending one.
    @Test func aBreakWithoutAFixOrWhilePausedIsANoOp() {
        var l = WorkoutLifecycle()
        _ = l.start(.running, id: WorkoutID(start: 990, suffix: 1), at: 990, settings: MetricsSettings())
        #expect(l.segmentBreakReceived(at: 991).isEmpty)
        _ = l.fixReceived(Fix(time: 992, latitude: 48, longitude: 11), at: 992)
        _ = l.segmentBreakReceived(at: 993)
        _ = l.pause(at: 994)
        _ = l.resume(at: 995)
        let actions = l.fixReceived(Fix(time: 996, latitude: 48, longitude: 11.001), at: 996)
        #expect(!actions.contains { if case .journal(.paused) = $0 { return true } else { return false } })
        var idle = WorkoutLifecycle()
        #expect(idle.segmentBreakReceived(at: 1).isEmpty)
    }
}
