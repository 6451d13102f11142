import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// StreakCalculator against StreakReference over seeded random histories.
@Suite(.requires(.program(.zoneinfo))) struct StreakRandomizedTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia",
                        "Pacific/Kiritimati", "Pacific/Tongatapu", "Asia/Kathmandu", "America/Sao_Paulo", "UTC"]
    static let historiesPerZone = 300

    @Test(arguments: zones) func matchesReference(zoneName: String) throws {
        let rules = try ZoneFiles.rules(zoneName)
        let tz = try #require(TimeZone(identifier: zoneName))
        var rng = SeededRandom(seed: UInt64(abs(zoneName.hashValue == 0 ? 1 : zoneName.utf8.reduce(7) { $0 &* 31 &+ Int($1) })))
        var failures = 0
        for n in 0..<Self.historiesPerZone {
            let settings = StreakSettings(minimumWorkoutSeconds: 600,
                                          dayStartHour: [0, 0, 3, 5, 23].randomElement(using: &rng)!,
                                          restDaysPerWeek: [0, 0, 1, 2, 6].randomElement(using: &rng)!,
                                          weeklyTarget: [1, 1, 2, 3].randomElement(using: &rng)!,
                                          weekStart: WeekStart.allCases.randomElement(using: &rng)!)
            let calc = StreakCalculator(settings: settings, zone: rules)
            let ref = StreakReference(zone: tz, minimumSeconds: 600, dayStartHour: settings.dayStartHour,
                                      restDaysPerWeek: settings.restDaysPerWeek, weeklyTarget: settings.weeklyTarget,
                                      firstWeekday: settings.weekStart.weekday + 1)
            // Mostly 2024...2027 (transition tables); every 5th after 2038 (POSIX footer rules).
            let now = n % 5 == 4 ? Double.random(in: 2_200_000_000...2_400_000_000, using: &rng)
                                 : Double.random(in: 1_704_067_200...1_830_000_000, using: &rng)
            let history = Self.randomHistory(now: now, using: &rng)
            let ours = StreakReference.Result(calc.status(history: history, now: now))
            let theirs = ref.evaluate(history, now: now)
            if ours != theirs {
                failures += 1
                if failures <= 3 { Issue.record("\(zoneName) #\(n) \(settings) now=\(ISO8601.format(now))\nours:   \(ours)\ntheirs: \(theirs)") }
            }
        }
        expectEqual(failures, 0)
    }

    /// Days with a workout with probability p (dense enough for long streaks), starts at random
    /// seconds (so near midnight and near transitions too), durations around the 600 s minimum,
    /// some entries carrying a recorded UTC offset, and a few after `now`.
    static func randomHistory(now: Double, using rng: inout SeededRandom) -> [StreakWorkout] {
        let span = Int.random(in: 3...70, using: &rng)
        let p = Double.random(in: 0.55...0.98, using: &rng)
        let withOffsets = Bool.random(using: &rng) && Bool.random(using: &rng)
        var out: [StreakWorkout] = []
        for k in -span...1 {
            guard Double.random(in: 0..<1, using: &rng) < p else { continue }
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                let start = now + Double(k) * 86400 + Double.random(in: -43200...43200, using: &rng).rounded(.down)
                let duration = [599, 600, 1800, 3600, 120, 2400].randomElement(using: &rng)!
                let offset: Int? = withOffsets && Bool.random(using: &rng)
                    ? [-36000, -18000, 0, 3600, 19800, 46800, 50400].randomElement(using: &rng)! : nil
                out.append(StreakWorkout(startedAt: start, durationSeconds: Double(duration), utcOffset: offset))
            }
        }
        out.shuffle(using: &rng)
        return out
    }
}
