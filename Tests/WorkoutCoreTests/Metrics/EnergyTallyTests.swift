import Testing
@testable import WorkoutCore

/// Calories by the best method the data allows: power, else heart rate, else the speed- and
/// grade-aware model (docs/metrics.md).
struct EnergyTallyTests {
    let synth = TrackSynth()

    func workout(_ activity: ActivityType, speed: Double, seconds: Double = 1800, watts: Int? = nil, climbPerStep: Double = 0,
                 weight: Double? = 70) throws -> WorkoutSummary {
        var fixes = synth.run(start: 1000, seconds: seconds, speed: speed)
        for k in fixes.indices { fixes[k].power = watts; fixes[k].altitude = 100 + Double(k) * climbPerStep }
        var settings = MetricsSettings()
        settings.bodyWeightKilograms = weight
        return try Importer.workout(from: Importer.Track(fixes: fixes, activity: activity, origin: .device), activity: nil, id: 1,
                                    settings: settings, source: "imported:t.gpx").summary
    }

    /// Regression: a power ride with 1,296 kJ of work got 685 kcal "from MET".
    @Test func powerGivesTheWork() throws {
        let s = try workout(.cycling, speed: 8, seconds: 3600, watts: 200, weight: nil)
        expectEqual(s.caloriesMethod, .power)
        expectLess(abs((s.calories ?? 0) - 720), 2, "200 W for an hour = 720 kJ ~ 720 kcal: \(s.calories ?? -1)")
    }

    /// Regression: a hike imported as running got running METs at hiking speed (2,495 kcal at
    /// 34:48 /km); the model follows the speed and grade, not the name.
    @Test func aSlowHikeAsRunningGetsAWalkersEnergy() throws {
        let hike = try workout(.running, speed: 0.9, seconds: 3600, climbPerStep: 0.09)   // 10 % up
        expectEqual(hike.caloriesMethod, .met)
        let perHour = hike.calories ?? 0
        let runningMET = 9.8 * 70.0
        expectLess(perHour, runningMET * 0.6, "\(perHour) kcal/h")
        expectLess(abs(perHour - 390.6), 10, "ACSM walking at 0.9 m/s up 10 %: VO2 18.6 ml/kg/min x 70 kg: \(perHour)")
        let run = try workout(.running, speed: 3, seconds: 3600)
        expectLess(abs((run.calories ?? 0) - 829.5), 5, "ACSM running at 3 m/s: VO2 39.5 ml/kg/min: \(run.calories ?? -1)")
    }

    @Test func noWeightNoPowerNoCalories() throws {
        try expectNil(workout(.running, speed: 3, weight: nil).calories)
    }
}
