/// A best effort of a new workout that beats the previous personal best at that distance.
public struct PersonalBest: Sendable, Equatable {
    public var activity: ActivityType
    public var effort: BestEffort
    /// The record it beats; nil when there was none at that distance.
    public var previous: BestEffort?

    public init(activity: ActivityType, effort: BestEffort, previous: BestEffort?) {
        self.activity = activity; self.effort = effort; self.previous = previous
    }

    /// Seconds gained over the previous record; nil for a first record.
    public var improvementSeconds: Double? { previous.map { $0.seconds - effort.seconds } }
}

/// Personal records per activity: pure functions over best efforts, no storage.
public enum PersonalRecords {
    /// Distances are matched with this tolerance (m), so 1609.344 and 1609.34 are the same mile.
    public static let distanceTolerance = 0.5

    /// The efforts in `efforts` that are new personal bests for `activity`, given `previous`
    /// bests per activity. An effort equal to the record is not a new record. Activities without
    /// `tracksBestEfforts` never have records.
    public static func newBests(activity: ActivityType, previous: [ActivityType: [BestEffort]],
                                efforts: [BestEffort]) -> [PersonalBest] {
        guard activity.tracksBestEfforts else { return [] }
        let old = previous[activity] ?? []
        var result: [PersonalBest] = []
        for e in efforts where e.seconds.isFinite && e.seconds > 0 {
            let prior = old.filter { Swift.abs($0.distanceMeters - e.distanceMeters) <= distanceTolerance }
                .min { $0.seconds < $1.seconds }
            if let p = prior, p.seconds <= e.seconds { continue }
            // Several efforts at one distance in the input: keep only the fastest.
            if let i = result.firstIndex(where: { Swift.abs($0.effort.distanceMeters - e.distanceMeters) <= distanceTolerance }) {
                if e.seconds < result[i].effort.seconds { result[i].effort = e }
                continue
            }
            result.append(PersonalBest(activity: activity, effort: e, previous: prior))
        }
        return result.sorted { $0.effort.distanceMeters < $1.effort.distanceMeters }
    }

    /// `previous` with the new bests of `efforts` folded in.
    public static func merged(activity: ActivityType, previous: [ActivityType: [BestEffort]],
                              efforts: [BestEffort]) -> [ActivityType: [BestEffort]] {
        var table = previous
        var list = table[activity] ?? []
        for pb in newBests(activity: activity, previous: previous, efforts: efforts) {
            list.removeAll { Swift.abs($0.distanceMeters - pb.effort.distanceMeters) <= distanceTolerance }
            list.append(pb.effort)
        }
        if !list.isEmpty { table[activity] = list.sorted { $0.distanceMeters < $1.distanceMeters } }
        return table
    }
}

extension PersonalRecords {
    /// The personal bests `summary` set: its best efforts faster than every workout of its
    /// activity in `history` that started before it (`stop`, `show` and the web pages). Workouts
    /// kept out of records (`RecordsInclusion.excluded`) set none and are no previous best.
    public static func bests(of summary: WorkoutSummary, among history: [WorkoutSummary]) -> [PersonalBest] {
        guard summary.activity.tracksBestEfforts, summary.records.counts, !summary.bestEfforts.isEmpty else { return [] }
        var previous: [ActivityType: [BestEffort]] = [:]
        for other in history where other.id != summary.id && other.activity == summary.activity && other.startedAt < summary.startedAt
            && other.records.counts {
            previous = merged(activity: other.activity, previous: previous, efforts: other.bestEfforts)
        }
        return newBests(activity: summary.activity, previous: previous, efforts: summary.bestEfforts)
    }
}
