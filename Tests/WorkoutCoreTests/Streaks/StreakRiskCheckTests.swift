import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// The risk check driven by an injected clock, the way the daemon's timer would call it.
@Suite(.requires(.program(.zoneinfo))) struct StreakRiskCheckTests {
    static func w(_ t: Double) -> StreakWorkout { StreakWorkout(startedAt: t, durationSeconds: 1800) }

    /// Calls the check every 5 minutes from `from` to `to`, recording the last warning day as the
    /// daemon does, and returns the instants at which it warned.
    static func run(_ calc: StreakCalculator, history: [StreakWorkout], from: Double, to: Double,
                    saving: (at: Double, workout: StreakWorkout)? = nil) -> [Double] {
        var last: StreakDay? = nil
        var warned: [Double] = []
        var t = from
        while t < to {
            let h = saving.map { t >= $0.at ? history + [$0.workout] : history } ?? history
            if case .warn(let r) = StreakRiskCheck.evaluate(history: h, now: t, calculator: calc, lastWarningDay: last) {
                warned.append(t)
                last = r.day
            }
            t += 300
        }
        return warned
    }

    /// The instant of a local wall time in a named zone (Foundation, independent of ZoneRules).
    static func local(_ zone: String, _ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int = 0) -> Double {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: zone)!
        return cal.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: min))!.timeIntervalSince1970
    }

    @Test(arguments: ["Europe/Berlin", "Pacific/Kiritimati", "America/New_York", "Australia/Lord_Howe"])
    func warnsOnceAfterTheHourOnADayWithoutWorkout(zone: String) throws {
        let calc = StreakCalculator(zone: try ZoneFiles.rules(zone))
        // Workouts at 09:00 local on the 3 days before; the test day (a DST day in Berlin) has none.
        for (y, m, d) in [(2026, 3, 29), (2026, 11, 1), (2026, 4, 5), (2026, 10, 4), (2026, 7, 15)] {
            let history = (1...3).map { Self.w(Self.local(zone, y, m, d - $0, 9)) }
            let warned = Self.run(calc, history: history, from: Self.local(zone, y, m, d, 0), to: Self.local(zone, y, m, d, 23, 59))
            expectEqual(warned, [Self.local(zone, y, m, d, 18)], "\(zone) \(y)-\(m)-\(d): \(warned.map { ISO8601.format($0) })")
            // A day that already has a workout: never.
            let done = history + [Self.w(Self.local(zone, y, m, d, 7))]
            #expect(Self.run(calc, history: done, from: Self.local(zone, y, m, d, 0), to: Self.local(zone, y, m, d, 23, 59)).isEmpty)
            // A workout saved at 18:30 after the warning: no second warning.
            let later = Self.run(calc, history: history, from: Self.local(zone, y, m, d, 0), to: Self.local(zone, y, m, d, 23, 59),
                                 saving: (Self.local(zone, y, m, d, 18, 30), Self.w(Self.local(zone, y, m, d, 18, 30))))
            expectEqual(later.count, 1)
        }
    }

    @Test func quietReasons() {
        let calc = StreakCalculator(settings: StreakSettings(restDaysPerWeek: 1, riskWarningHour: 20), zone: .utc)
        let now = ISO8601.parse("2026-11-19T20:30:00Z")!  // Thursday
        let yesterday = Self.w(ISO8601.parse("2026-11-18T08:00:00Z")!)
        expectEqual(StreakRiskCheck.evaluate(history: [yesterday], now: now - 3600, calculator: calc, lastWarningDay: nil), .quiet(.beforeWarningHour))
        expectEqual(StreakRiskCheck.evaluate(history: [], now: now, calculator: calc, lastWarningDay: nil), .quiet(.noStreak))
        expectEqual(StreakRiskCheck.evaluate(history: [yesterday], now: now, calculator: calc, lastWarningDay: nil), .quiet(.restDayAvailable))
        expectEqual(StreakRiskCheck.evaluate(history: [yesterday], now: now, calculator: calc, lastWarningDay: StreakDay(iso: "2026-11-19")), .quiet(.alreadyWarnedToday))
        expectEqual(StreakRiskCheck.evaluate(history: [yesterday, Self.w(now - 600)], now: now, calculator: calc, lastWarningDay: nil), .quiet(.todayDone))
        // Rest day used on Tuesday 17: Thursday is at risk.
        let h = [Self.w(ISO8601.parse("2026-11-16T08:00:00Z")!), yesterday]
        guard case .warn(let r) = StreakRiskCheck.evaluate(history: h, now: now, calculator: calc, lastWarningDay: StreakDay(iso: "2026-11-18")) else {
            Issue.record("expected a warning"); return
        }
        #expect(r.day.iso == "2026-11-19" && r.streak.days == 2 && r.minutesLeft == 210)
    }

    /// With the day starting at 03:00, a 01:00 warning hour is late in the streak day.
    @Test func warningHourBeforeDayStart() {
        let calc = StreakCalculator(settings: StreakSettings(dayStartHour: 3, riskWarningHour: 1), zone: .utc)
        let h = [Self.w(ISO8601.parse("2026-11-18T08:00:00Z")!)]
        let warned = Self.run(calc, history: h, from: ISO8601.parse("2026-11-19T03:00:00Z")!, to: ISO8601.parse("2026-11-20T03:00:00Z")!)
        expectEqual(warned, [ISO8601.parse("2026-11-20T01:00:00Z")!])
    }
}
