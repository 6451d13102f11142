import Testing
@testable import WorkoutCore

/// Regression: an untyped file became `defaultActivity` (running): a 2.7 km drive landed in
/// running records and streaks ("Running 3:08 /km"). Its speeds now decide, with the reason.
struct ActivityInferenceTests {
    let synth = TrackSynth()

    func guess(_ speed: Double, seconds: Double = 900, climbPerStep: Double = 0) -> ActivityInference? {
        var fixes = synth.run(start: 1000, seconds: seconds, speed: speed)
        for k in fixes.indices { fixes[k].altitude = Double(k) * climbPerStep }
        return ActivityInference(fixes: fixes, segments: Array(repeating: 0, count: fixes.count))
    }

    @Test func speedsSayWhatItWas() {
        expectEqual(guess(1.3)?.activity, .walking)
        expectEqual(guess(0.9, climbPerStep: 0.08)?.activity, .hiking, "0.9 m/s climbing 89 m per km")
        expectEqual(guess(3.2)?.activity, .running)
        expectEqual(guess(6.5)?.activity, .cycling)
        expectEqual(guess(15.5)?.activity, .other, "a drive")
        expectEqual(guess(15.5)?.reason.contains("motor vehicle"), true)
        expectEqual(guess(3.2)?.reason.hasPrefix("no activity in the file; it moves at 12 km/h"), true, "\(guess(3.2)?.reason ?? "")")
        expectNil(guess(3.2, seconds: 40), "too little to tell")
        expectNil(guess(2.9, seconds: 148), "a 148 s clip at 10 km/h (a sailing boat's chartplotter) is not a run")
        expectNil(guess(1.3, seconds: 240), "nor four minutes a walk")
        expectEqual(guess(15.5, seconds: 90)?.activity, .other, "a motor vehicle shows itself in a minute")
        expectEqual(guess(2.9, seconds: 300)?.activity, .running)
        expectNil(guess(0.2), "standing still")
    }

    @Test func anUntypedDriveIsNotARun() throws {
        let drive = Importer.Track(fixes: synth.run(start: 1000, seconds: 180, speed: 20), activity: nil, origin: .device)  // 72 km/h
        let w = try Importer.imported(from: drive, activity: nil, defaultActivity: .running, id: 1, settings: MetricsSettings(), source: "imported:d.gpx")
        expectEqual(w.workout.activity, .other)
        #expect(w.warnings.contains { $0.contains("motor vehicle") }, "\(w.warnings)")
        let named = try Importer.imported(from: drive, activity: .cycling, defaultActivity: .running, id: 1, settings: MetricsSettings(), source: "imported:d.gpx")
        #expect(named.workout.activity == .cycling && !named.warnings.contains { $0.hasPrefix("no activity") }, "the user's word wins, no guess")
        let short = Importer.Track(fixes: synth.run(start: 1000, seconds: 20, speed: 3), activity: nil, origin: .device)
        let fallback = try Importer.imported(from: short, activity: nil, defaultActivity: .walking, id: 1, settings: MetricsSettings(), source: "imported:s.gpx")
        expectEqual(fallback.workout.activity, .walking)
        #expect(fallback.warnings.contains { $0.contains("too little movement") })
    }
}
