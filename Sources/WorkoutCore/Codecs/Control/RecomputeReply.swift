/// The `recompute` reply: the summary before (as saved) and after (recomputed), each with its
/// `pauseCount`, whether it was saved, the settings it was measured with and notes in words. The
/// daemon writes `members`; workoutctl reads it back with `init(json:)`.
public struct RecomputeReply: Sendable, Equatable {
    public var before: WorkoutSummary
    public var after: WorkoutSummary
    /// Pauses on each timeline (manual and automatic): not a summary figure, sent beside each.
    public var pauseCounts: (before: Int, after: Int)
    public var saved: Bool
    /// `metrics.KEY=VALUE` as asked.
    public var settings: [String]
    public var notes: [String]

    public init(_ r: Recomputation, saved: Bool, settings: [String], notes: [String]) {
        before = r.before.summary; after = r.after.summary
        pauseCounts = (r.before.pauseCount, r.after.pauseCount)
        self.saved = saved; self.settings = settings; self.notes = notes
    }

    public var members: [(String, JSON)] {
        [("before", Self.summaryJSON(before, pauseCount: pauseCounts.before)), ("after", Self.summaryJSON(after, pauseCount: pauseCounts.after)),
         ("saved", .bool(saved)), ("settings", .array(settings.map { .string($0) })), ("notes", .array(notes.map { .string($0) }))]
    }

    /// The summary of `show` plus `pauseCount`.
    static func summaryJSON(_ s: WorkoutSummary, pauseCount: Int) -> JSON {
        guard case .object(var o) = s.json() else { return s.json() }
        o["pauseCount"] = .int(pauseCount)
        return .object(o)
    }

    /// Nil when either summary does not read; the rest is tolerant.
    public init?(json r: JSON) {
        guard let b = r["before"], let a = r["after"], let before = WorkoutSummary(json: b), let after = WorkoutSummary(json: a) else { return nil }
        self.before = before; self.after = after
        pauseCounts = (b["pauseCount"]?.intValue ?? 0, a["pauseCount"]?.intValue ?? 0)
        saved = r["saved"]?.boolValue == true
        settings = (r["settings"]?.arrayValue ?? []).compactMap(\.stringValue)
        notes = (r["notes"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    public static func == (a: RecomputeReply, b: RecomputeReply) -> Bool {
        a.before == b.before && a.after == b.after && a.pauseCounts == b.pauseCounts && a.saved == b.saved && a.settings == b.settings && a.notes == b.notes
    }
}
