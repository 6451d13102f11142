import Testing
@testable import WorkoutCore

/// Issue 15, item 6: fixes stamped before the last pause, resume or lap that arrive after it
/// (a receiver running late) were dropped without being stored or counted, contrary to "every
/// fix is kept". They are kept now (rejected as `late`, adding nothing), and the saved workout
/// still rebuilds exactly equal to the live one.
@Suite struct WorkoutRecorderLateFixTests {
    let synth = TrackSynth()

    /// 10 Hz, the receiver 0.8 s late, a lap every 30 s dated on the daemon's clock.
    @Test func aLateReceiverWithLapsLosesNoFix() {
        var r = WorkoutRecorder(id: testID, activity: .running, startedAt: 0)
        let fixes = synth.run(start: 0.1, seconds: 300, speed: 3, dt: 0.1)
        var nextLap = 30.0
        for f in fixes {
            let arrival = f.time + 0.8
            if arrival >= nextLap { r.lap(at: nextLap); nextLap += 30 }
            r.tick(now: arrival)
            r.ingest(f)
        }
        let w = r.finish(at: 301)
        expectEqual(w.summary.pointCount, fixes.count)
        let late = w.summary.rejectedByReason[.late] ?? 0
        expectGreater(late, 0)
        expectEqual(w.summary.acceptedCount + w.summary.rejectedByReason.values.reduce(0, +), fixes.count)
        let rebuilt = WorkoutRecorder.rebuild(id: testID, activity: .running, startedAt: 0, points: w.points, events: w.events).finish(at: 301)
        expectEqual(rebuilt.summary, w.summary)
        expectEqual(rebuilt.points, w.points)
    }

    @Test func aFixStampedBeforeAResumeIsKeptAndAddsNothing() {
        var r = WorkoutRecorder(id: testID, activity: .running, startedAt: 0)
        for f in synth.run(start: 1, seconds: 20, speed: 3) { r.ingest(f) }
        let before = r.summary(now: 21)
        r.pause(at: 21, cause: .manual)
        r.resume(at: 40)
        expectEqual(r.ingest(synth.fix(t: 39, north: 0, east: 500)), [.rejected(.late)])
        let after = r.summary(now: 40)
        expectEqual(after.pointCount, before.pointCount + 1)
        expectEqual(after.distanceMeters, before.distanceMeters)
        expectEqual(after.rejectedByReason[.late], 1)
    }
}
