import Testing
import func Glibc.exp
@testable import WorkoutCore

/// Fitness, fatigue and form: the worked example of docs/metrics.md, and against a reference
/// written from the definition (a sum of exponentially decaying impulses).
@Suite struct FitnessModelTests {
    static let d0 = StreakDay(year: 2026, month: 3, day: 1)

    /// docs/metrics.md: loads 100, 0, 50 on three days from nothing.
    @Test func theDocumentedExample() {
        let days = FitnessModel.days(loads: [Self.d0: 100, Self.d0.adding(days: 2): 50], from: Self.d0, to: Self.d0.adding(days: 2))
        expectEqual(days.map(\.load), [100, 0, 50])
        let expected: [(fitness: Double, fatigue: Double)] = [(2.353, 13.312), (2.297, 11.540), (3.420, 16.660)]
        for (d, e) in zip(days, expected) {
            #expect(abs(d.fitness - e.fitness) < 0.001 && abs(d.fatigue - e.fatigue) < 0.001, "\(d)")
            #expect(abs(d.form - (e.fitness - e.fatigue)) < 0.002)
        }
        expectEqual(days.map { $0.date.iso }, ["2026-03-01", "2026-03-02", "2026-03-03"])
    }

    /// Random loads over two years, against fitness(d) = sum over earlier days i of
    /// load(i) x k x (1-k)^(d-i): within 2 % (in fact to rounding).
    @Test func matchesTheImpulseSumOverTwoYears() {
        var rng = SeededRandom(seed: 40)
        var loads: [StreakDay: Double] = [:]
        for n in 0..<730 where rng.next() % 3 != 0 { loads[Self.d0.adding(days: n)] = Double(rng.next() % 250) }
        let from = Self.d0.adding(days: 600), to = Self.d0.adding(days: 729)
        let days = FitnessModel.days(loads: loads, from: from, to: to)
        expectEqual(days.count, 130)
        for (tau, path) in [(42.0, \FitnessDay.fitness), (7.0, \FitnessDay.fatigue)] {
            let k = 1 - exp(-1 / tau)
            for day in days {
                var ref = 0.0
                for (d, l) in loads where d <= day.date {
                    var decay = 1.0
                    for _ in 0..<(day.date.dayNumber - d.dayNumber) { decay *= 1 - k }
                    ref += l * k * decay
                }
                let got = day[keyPath: path]
                #expect(abs(got - ref) <= max(0.02 * ref, 1e-9), "\(day.date) tau \(tau): \(got) vs \(ref)")
            }
        }
    }

    @Test func loadsAddUpPerLocalDayAndSkipNothing() {
        // Two workouts on one local day (UTC+2: 23:00 UTC is the next local day).
        let zone = ZoneRules(fixedOffset: 7200)
        let day = { (t: Double) in StreakDay(dayNumber: Int((zone.localSeconds(at: t) / 86_400).rounded(.down))) }
        let t0 = 1_772_323_200.0  // 2026-03-01T00:00:00Z
        let loads = FitnessModel.loads([(t0 + 3600, 40), (t0 + 7200, 60), (t0 + 23 * 3600, 30), (t0, .nan)], localDay: day)
        expectEqual(loads, [Self.d0: 100, Self.d0.adding(days: 1): 30])
        // Days before `from` count; an empty range is empty.
        expectEqual(FitnessModel.days(loads: [:], from: Self.d0, to: Self.d0.adding(days: -1)), [])
        let later = FitnessModel.days(loads: [Self.d0: 100], from: Self.d0.adding(days: 10), to: Self.d0.adding(days: 10))
        #expect(later.count == 1 && later[0].load == 0 && later[0].fitness > 1.8)
    }
}
