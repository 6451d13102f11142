/// The summaries of the saved workouts by ID, with the IDs also filed by their start second so
/// the import's duplicate check (`Importer.isDuplicate`: starts less than a second apart)
/// looks at three small buckets instead of every saved workout (it was a scan of the whole
/// history per imported file: quadratic over a batch, ~10,000 comparisons a file at 10,000
/// saved workouts).
public struct SavedSummaries: Sendable {
    public private(set) var byID: [WorkoutID: WorkoutSummary] = [:]
    /// IDs by `bucket(startedAt)`; starts not in the exact integer range are in `unbucketed`.
    private var byStart: [Int64: [WorkoutID]] = [:]
    private var unbucketed: Set<WorkoutID> = []

    public init(_ map: [WorkoutID: WorkoutSummary] = [:]) {
        for (id, s) in map { self[id] = s }
    }

    public var count: Int { byID.count }

    public mutating func reserveCapacity(_ n: Int) {
        byID.reserveCapacity(n)
        byStart.reserveCapacity(n)
    }
    public var values: Dictionary<WorkoutID, WorkoutSummary>.Values { byID.values }

    public subscript(id: WorkoutID) -> WorkoutSummary? {
        get { byID[id] }
        set {
            if let old = byID[id] { unfile(id, old.startedAt) }
            byID[id] = newValue
            if let s = newValue { file(id, s.startedAt) }
        }
    }

    /// The start second of a time, or nil beyond the doubles that hold every integer.
    static func bucket(_ t: Double) -> Int64? {
        guard t.isFinite, abs(t) < 9.0e15 else { return nil }
        return Int64(t.rounded(.down))
    }

    private mutating func file(_ id: WorkoutID, _ t: Double) {
        if let k = SavedSummaries.bucket(t) { byStart[k, default: []].append(id) } else { unbucketed.insert(id) }
    }

    private mutating func unfile(_ id: WorkoutID, _ t: Double) {
        guard let k = SavedSummaries.bucket(t) else { unbucketed.remove(id); return }
        byStart[k]?.removeAll { $0 == id }
        if byStart[k]?.isEmpty == true { byStart[k] = nil }
    }

    /// The saved workout `summary` is a copy of (`Importer.isDuplicate`); of several, the one
    /// that started first (then the smallest ID), so the answer does not depend on hashing.
    public func duplicate(of summary: WorkoutSummary) -> WorkoutSummary? {
        duplicate(of: summary) { _ in true }
    }

    /// The same among the saved workouts for which `eligible` holds.
    public func duplicate(of summary: WorkoutSummary, where eligible: (WorkoutSummary) -> Bool) -> WorkoutSummary? {
        var candidates: [WorkoutSummary] = unbucketed.compactMap { byID[$0] }
        if let k = SavedSummaries.bucket(summary.startedAt) {
            for b in [k &- 1, k, k &+ 1] { candidates += (byStart[b] ?? []).compactMap { byID[$0] } }
        } else if summary.startedAt.isFinite {
            candidates = Array(byID.values)  // a start beyond the buckets: look at every one
        }
        return candidates.filter { Importer.isDuplicate(summary, of: $0) && eligible($0) }
            .min { ($0.startedAt, $0.id.rawValue) < ($1.startedAt, $1.id.rawValue) }
    }
}
