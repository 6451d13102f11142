extension WorkoutID {
    /// `last`: the newest saved workout (the latest start), wherever a request takes an ID
    /// (docs/protocol.md). The daemon replaces it before the request runs; no workout's own ID
    /// is `last` (saved IDs begin with their start time).
    public static let last = WorkoutID(rawValue: "last")!
}

extension ControlRequest {
    /// The workout the request names, if it names one.
    public var workoutID: WorkoutID? {
        switch self {
        case .show(let id), .export(let id, _), .exportTo(let id, _), .edit(let id, _), .recompute(let id, _, _),
             .delete(let id), .undelete(let id), .charts(let id, _):
            return id
        case .web(let id): return id
        case .start, .startPlanned, .next, .pause, .resume, .lap, .marker, .stop, .toggle, .status, .watch, .activities, .list,
             .importFiles, .importDescriptors, .streak, .totals, .reload, .analytics:
            return nil
        }
    }

    /// The same request naming `id` instead (unchanged when it names no workout).
    public func naming(_ id: WorkoutID) -> ControlRequest {
        switch self {
        case .show: return .show(id)
        case .export(_, let f): return .export(id, f)
        case .exportTo(_, let f): return .exportTo(id, f)
        case .edit(_, let e): return .edit(id, e)
        case .recompute(_, let o, let save): return .recompute(id, o, save: save)
        case .delete: return .delete(id)
        case .undelete: return .undelete(id)
        case .charts(_, let columns): return .charts(id, columns: columns)
        case .web(let old): return old == nil ? self : .web(id)
        case .start, .startPlanned, .next, .pause, .resume, .lap, .marker, .stop, .toggle, .status, .watch, .activities, .list,
             .importFiles, .importDescriptors, .streak, .totals, .reload, .analytics:
            return self
        }
    }
}
