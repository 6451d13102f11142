import Testing
@testable import WorkoutCore

/// Regression: split log lines carried no time or pace and said 1000 m even in imperial.
struct RecorderLogEventTests {
    @Test func splitLinesSayTimeAndPaceInThePersonsUnits() {
        var settings = MetricsSettings()
        settings.splitUnit = .mile
        var r = WorkoutRecorder(id: WorkoutID(start: 0, suffix: 1), activity: .running, startedAt: 0, settings: settings)
        var lines: [String] = []
        for f in TrackSynth().run(start: 0, seconds: 700, speed: 3) {
            for e in r.ingest(f) {
                if case .splitCompleted = e, let l = RecorderLogEvent(e, id: r.id, activity: .running, units: settings.splitUnit.units) { lines.append(l.message) }
            }
        }
        expectEqual(lines.count, 1)
        expectEqual(lines.first?.hasPrefix("Split 1: 1.00 mi in 0:0") ?? false, true, "\(lines)")
        expectEqual(lines.first?.hasSuffix("/mi"), true, "\(lines)")
    }

    /// Issue 39 item 8: a split's line read its elapsed time (a 6-minute stop inside) beside its
    /// moving pace. Now one clock: the moving time and pace, the elapsed time named beside.
    @Test func aSplitWithAStopSaysItsMovingTimeAndTheElapsedBeside() throws {
        var r = WorkoutRecorder(id: WorkoutID(start: 0, suffix: 1), activity: .running, startedAt: 0)
        let synth = TrackSynth()
        let fixes = synth.run(start: 0, seconds: 200, speed: 3) + synth.run(start: 201, seconds: 359, speed: 0, from: 600)
            + synth.run(start: 561, seconds: 300, speed: 3, from: 600)
        var lines: [String] = []
        var split: LapSummary?
        for f in fixes {
            for e in r.ingest(f) {
                if case .splitCompleted(let l) = e, let m = RecorderLogEvent(e, id: r.id, activity: .running, units: .metric) { lines.append(m.message); split = l }
            }
        }
        let l = try #require(split)
        expectGreater(l.elapsedSeconds - l.movingSeconds, 300, "the stop is inside the split")
        let moving = UnitFormatter(.metric).effort(l.distanceMeters / l.movingSeconds, for: .running)!
        expectEqual(lines.first, "Split 1: 1.00 km in \(formatDuration(l.movingSeconds)), \(moving) (elapsed \(formatDuration(l.elapsedSeconds)))")
    }
}
