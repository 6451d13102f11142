import WorkoutCore

/// Personal bests as `stop` and `show` report them.
extension Daemon {
    /// The personal bests `summary` set: its best efforts faster than every saved workout of its
    /// activity that started before it (a workout just stopped: every saved one).
    func personalBests(of summary: WorkoutSummary) -> [PersonalBest] {
        guard summary.activity.tracksBestEfforts, !summary.bestEfforts.isEmpty else { return [] }
        var previous: [ActivityType: [BestEffort]] = [:]
        for other in store.summaries() where other.id != summary.id && other.activity == summary.activity && other.startedAt < summary.startedAt {
            previous = PersonalRecords.merged(activity: other.activity, previous: previous, efforts: other.bestEfforts)
        }
        return PersonalRecords.newBests(activity: summary.activity, previous: previous, efforts: summary.bestEfforts)
    }

    /// `"units"` for replies a person reads: the config's display units (`metric`, `imperial`).
    var unitsPair: (String, JSON) { ("units", .string(config.units.rawValue)) }
}
