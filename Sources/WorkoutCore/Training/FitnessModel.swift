import func Glibc.exp

/// One local day of the fitness chart (`workoutctl fitness`, `/fitness`).
public struct FitnessDay: Sendable, Equatable {
    public var date: StreakDay
    /// The day's training stress: the sum of its workouts' (`TrainingStress`).
    public var load: Double
    /// 42-day and 7-day exponentially weighted averages of the load, and their difference.
    public var fitness: Double
    public var fatigue: Double
    /// Fitness minus fatigue; read back as sent (rounded from the exact difference, which the
    /// difference of the rounded two can miss by 0.1).
    public var form: Double

    public init(date: StreakDay, load: Double, fitness: Double, fatigue: Double, form: Double? = nil) {
        self.date = date; self.load = load; self.fitness = fitness; self.fatigue = fatigue; self.form = form ?? fitness - fatigue
    }

    /// `{"date", "load", "fitness", "fatigue", "form"}`, one decimal.
    public func json() -> JSON {
        ["date": .string(date.iso), "load": .number(rounded(load, 1)), "fitness": .number(rounded(fitness, 1)),
         "fatigue": .number(rounded(fatigue, 1)), "form": .number(rounded(form, 1))]
    }
}

/// Fitness, fatigue and form from daily training loads (the impulse-response model of Banister,
/// as TrainingPeaks' CTL/ATL/TSB and GoldenCheetah's PMC compute it; docs/metrics.md):
///
///     fitness(d) = fitness(d-1) + (load(d) - fitness(d-1)) x (1 - e^(-1/42))
///     fatigue(d) = fatigue(d-1) + (load(d) - fatigue(d-1)) x (1 - e^(-1/7))
///     form(d)    = fitness(d) - fatigue(d)
///
/// Both start at 0 the day before the first load. Pure: days and loads come in as arguments.
public enum FitnessModel {
    /// Time constants (days) of fitness and fatigue.
    public static let fitnessDays = 42.0
    public static let fatigueDays = 7.0
    /// The longest range one request may ask for (days): 100 years.
    public static let maximumDays = 36_525
    /// Days shown when no start is asked for: 90, ending on the last day asked for (or today).
    public static let defaultDays = 90

    /// The weight of one day's load in an average of time constant `days`.
    public static func weight(days: Double) -> Double { 1 - exp(-1 / days) }

    /// The days from `from` through `to` (empty when `to` is before `from`). `loads` holds each
    /// day's load; days before `from` count in fitness and fatigue but are not returned.
    public static func days(loads: [StreakDay: Double], from: StreakDay, to: StreakDay) -> [FitnessDay] {
        guard from <= to else { return [] }
        let k42 = weight(days: fitnessDays), k7 = weight(days: fatigueDays)
        let start = min(loads.keys.min() ?? from, from)
        var fitness = 0.0, fatigue = 0.0
        var out: [FitnessDay] = []
        out.reserveCapacity(to.dayNumber - from.dayNumber + 1)
        for n in start.dayNumber...to.dayNumber {
            let day = StreakDay(dayNumber: n)
            let load = loads[day] ?? 0
            fitness += (load - fitness) * k42
            fatigue += (load - fatigue) * k7
            if n >= from.dayNumber { out.append(FitnessDay(date: day, load: load, fitness: fitness, fatigue: fatigue)) }
        }
        return out
    }

    /// Each local day's load: the sum of the training stress (`TrainingStress.of`) of the
    /// workouts that started on it; `localDay` gives a start time's local day.
    public static func loads(_ workouts: [(startedAt: Double, stress: Double)], localDay: (Double) -> StreakDay) -> [StreakDay: Double] {
        var loads: [StreakDay: Double] = [:]
        for w in workouts where w.stress.isFinite && w.stress > 0 { loads[localDay(w.startedAt), default: 0] += w.stress }
        return loads
    }
}

extension ZoneRules {
    /// The local day (midnight to midnight in this zone) of UTC time `t`.
    public func localDay(_ t: Double) -> StreakDay {
        StreakDay(dayNumber: Int((localSeconds(at: t) / 86_400).rounded(.down)))
    }
}

extension FitnessDay {
    /// A `days` item of the `fitness` reply; nil when it is not one.
    public init?(json j: JSON) {
        guard let d = j["date"]?.stringValue.flatMap({ StreakDay(iso: $0) }), let load = j["load"]?.doubleValue,
              let fitness = j["fitness"]?.doubleValue, let fatigue = j["fatigue"]?.doubleValue else { return nil }
        self.init(date: d, load: load, fitness: fitness, fatigue: fatigue, form: j["form"]?.doubleValue)
    }
}
