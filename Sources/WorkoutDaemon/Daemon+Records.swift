import WorkoutCore

/// Personal bests as `stop` and `show` report them.
extension Daemon {
    /// The personal bests `summary` set: its best efforts faster than every saved workout of its
    /// activity that started before it (a workout just stopped: every saved one).
    func personalBests(of summary: WorkoutSummary) -> [PersonalBest] {
        PersonalRecords.bests(of: summary, among: store.summaries())
    }

    /// `"units"` for replies a person reads: the config's display units (`metric`, `imperial`).
    var unitsPair: (String, JSON) { ("units", .string(config.units.rawValue)) }
}
