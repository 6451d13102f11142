extension WorkoutSummary {
    /// Whether the workout counts in records (`records`, `/records`): the one place that keeps a
    /// workout out of them: not when the person kept it out (`edit ID --records off`,
    /// `RecordsInclusion.excluded`).
    public var countsInRecords: Bool { records.counts }
}

/// `workoutctl records`: per activity the best time over each standard distance and the best
/// mean power over 5 s, 1, 5, 20 and 60 min, each naming its workout. The same records as the
/// `/records` page (`RecordsPage.records`), from the saved summaries alone.
public enum TrainingRecords {
    /// The `records` reply: per activity (most workouts first), its distance records
    /// (shortest first), then its power records (shortest first).
    public static func reply(_ summaries: [WorkoutSummary], activity: ActivityType?) -> RecordsReply {
        var out: [TrainingRecord] = []
        for r in RecordsPage(summaries: summaries).records() where activity == nil || r.activity == activity {
            for (e, s) in r.bests {
                out.append(TrainingRecord(activity: r.activity, best: .distance(meters: e.distanceMeters, seconds: e.seconds), id: s.id, startedAt: s.startedAt))
            }
            for (p, s) in r.power {
                out.append(TrainingRecord(activity: r.activity, best: .power(seconds: p.seconds, watts: p.watts), id: s.id, startedAt: s.startedAt))
            }
        }
        return RecordsReply(records: out)
    }
}
