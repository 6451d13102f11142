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
    /// The reply's `records`: per activity (most workouts first), its distance records
    /// (shortest first), then its power records (shortest first).
    public static func json(_ summaries: [WorkoutSummary], activity: ActivityType?) -> JSON {
        var out: [JSON] = []
        for r in RecordsPage(summaries: summaries).records() where activity == nil || r.activity == activity {
            for (e, s) in r.bests {
                out.append(["activity": .string(r.activity.rawValue), "kind": "distance", "distanceMeters": .number(e.distanceMeters),
                            "seconds": .number(rounded(e.seconds, 3)), "id": .string(s.id.rawValue),
                            "startedAt": .string(ISO8601.format(s.startedAt, fractionDigits: 3))])
            }
            for (p, s) in r.power {
                out.append(["activity": .string(r.activity.rawValue), "kind": "power", "seconds": .int(p.seconds),
                            "watts": .number(rounded(p.watts, 1)), "id": .string(s.id.rawValue),
                            "startedAt": .string(ISO8601.format(s.startedAt, fractionDigits: 3))])
            }
        }
        return .array(out)
    }
}
