import Testing
@testable import WorkoutCore

/// `recompute --set metrics.KEY=VALUE`: a saved workout measured again with other settings
/// (issue 18, what-if). The "before" is the workout as saved, the "after" the same fixes and user
/// events through the recorder with the changed settings.
struct RecomputationTests {
    /// A recorded run: 300 s at 3 m/s, a 60 s stop, 300 s more, a 14 s hole in the fixes while
    /// running (42 m), then 100 s more.
    static func recorded(settings: MetricsSettings = MetricsSettings()) -> Workout {
        let s = TrackSynth()
        let t0 = 1_800_000_000.0
        var fixes = s.run(start: t0, seconds: 300, speed: 3)
        fixes += (1...60).map { s.fix(t: t0 + 300 + Double($0), north: 0, east: 900) }
        fixes += s.run(start: t0 + 361, seconds: 300, speed: 3, from: 903)
        fixes += s.run(start: t0 + 675, seconds: 100, speed: 3, from: 1845)
        var r = WorkoutRecorder(id: testID, activity: .running, startedAt: t0, settings: settings)
        for f in fixes { r.ingest(f) }
        return r.finishRecording(at: t0 + 776).workout
    }

    static func settings(_ overrides: [(String, JSON)]) throws -> MetricsSettings {
        var c = Config()
        c.metrics = try c.metrics.overridden(by: overrides.map { MetricsOverride(key: $0.0, value: $0.1) })
        return MetricsSettings(config: c)
    }

    @Test func sameSettingsGiveTheSavedNumbers() throws {
        let w = Self.recorded()
        let r = Recomputation(w, settings: MetricsSettings(config: Config()))
        expectEqual(r.after.summary, r.before.summary)
        expectEqual(r.after.events, r.before.events)
    }

    @Test func autoPauseOffCountsTheStopAsMoving() throws {
        let w = Self.recorded()
        expectEqual(w.pauseCount, 1, "the 60 s stop is an auto-pause: \(w.events.map(\.kind))")
        let r = Recomputation(w, settings: try Self.settings([("metrics.autoPauseSeconds", 0)]))
        expectEqual(r.after.pauseCount, 0)
        expectGreater(r.after.summary.movingSeconds, r.before.summary.movingSeconds + 45, "\(r.before.summary.movingSeconds) -> \(r.after.summary.movingSeconds)")
        expectLess(abs(r.after.summary.distanceMeters - r.before.summary.distanceMeters), 1)
        expectEqual(r.after.summary.elapsedSeconds, r.before.summary.elapsedSeconds)
        #expect(r.after.id == w.id && r.after.summary.startedAt == w.summary.startedAt && r.after.summary.endedAt == w.summary.endedAt)
        let j = r.json()
        #expect(j["before"]?["pauseCount"]?.intValue == 1 && j["after"]?["pauseCount"]?.intValue == 0)
        expectEqual(j["after"]?["movingSeconds"]?.doubleValue, (r.after.summary.movingSeconds * 1000).rounded() / 1000)
    }

    @Test func notesNameSettingsADeviceTrackIgnores() {
        var w = Self.recorded()
        let o = [MetricsOverride(key: "metrics.jumpMeters", value: 20), MetricsOverride(key: "metrics.autoPauseSeconds", value: 0)]
        #expect(Recomputation.notes(o, for: w).isEmpty, "a receiver's fixes follow every key")
        w.source = "imported:ride.gpx"
        let notes = Recomputation.notes(o, for: w)
        #expect(notes.count == 1 && notes[0].hasPrefix("metrics.jumpMeters does not apply"), "\(notes)")
    }

    /// A jump threshold below the 42 m hole: the hole starts a new segment and adds nothing (and
    /// so does the departure from the stop, which the auto-resume rule confirms ~15 m away).
    @Test func lowerJumpThresholdDropsTheHole() throws {
        let w = Self.recorded()
        let r = Recomputation(w, settings: try Self.settings([("metrics.jumpMeters", 10)]))
        let lost = r.before.summary.distanceMeters - r.after.summary.distanceMeters
        #expect(lost > 41 && lost < 60, "lost \(lost) m")
        #expect(r.after.events.contains { $0.kind == .segment })
        expectEqual(r.after.summary.splits.count, r.before.summary.splits.count)
    }
}
