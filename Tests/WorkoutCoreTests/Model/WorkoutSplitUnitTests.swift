import Testing
@testable import WorkoutCore

/// Regression: switching `units` to imperial relabelled old 1 km splits as "0.62 mi" rows; a
/// saved workout's splits are now recomputed in the unit they are shown in.
struct WorkoutSplitUnitTests {
    @Test func splitsAreRecutInTheUnitShown() throws {
        let fixes = TrackSynth().run(start: 1000, seconds: 1500, speed: 3)  // 4.5 km
        let w = try Importer.workout(from: Importer.Track(fixes: fixes, activity: .running, origin: .device), activity: nil, id: 1,
                                     settings: MetricsSettings(), source: "imported:r.gpx")
        expectEqual(w.summary.splitUnit, .kilometer)
        expectEqual(w.summary.splits.count, 5)
        let miles = w.summary(splitIn: .mile, settings: MetricsSettings())
        expectEqual(miles.splitUnit, .mile)
        expectEqual(miles.splits.count, 3)
        expectLess(abs(miles.splits[0].distanceMeters - 1609.344), 0.01)
        expectLess(abs(miles.splits[0].elapsedSeconds - 1609.344 / 3), 0.5)
        #expect(miles.distanceMeters == w.summary.distanceMeters && miles.movingSeconds == w.summary.movingSeconds)
        expectEqual(w.summary(splitIn: .kilometer, settings: MetricsSettings()), w.summary, "the saved unit: as saved")
        // The unit travels in the JSON; a file from before it is told by its first split.
        expectEqual(WorkoutSummary(json: miles.json())?.splitUnit, .mile)
        guard case .object(var old) = miles.json() else { Issue.record("not an object"); return }
        old["splitUnit"] = nil
        expectEqual(WorkoutSummary(json: .object(old))?.splitUnit, .mile)
    }
}
