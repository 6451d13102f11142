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
        expectEqual(lines.first?.hasPrefix("Split 1: 1.00 mi in 0:0"), true, "\(lines)")
        expectEqual(lines.first?.hasSuffix("/mi"), true, "\(lines)")
    }
}
