/// Links the legs of one multisport file as they are imported, in order: every leg gets the
/// event's id (`WorkoutSummary.multisport`), which is the id of the first leg that was saved
/// or found already saved (a re-import links to the saved legs).
public struct MultisportLinker: Sendable {
    private var event: WorkoutID?

    public init() {}

    /// Sets the leg on a workout about to be saved (`leg` nil: a file's only workout).
    public mutating func link(_ summary: inout WorkoutSummary, leg: (number: Int, of: Int)?) {
        guard let leg else { return }
        let e = event ?? summary.id
        event = e
        summary.multisport = MultisportLeg(event: e, leg: leg.number, legs: leg.of)
    }

    /// A leg that was not saved because it is already (`existing`): its event, or its own id,
    /// is the event of the legs after it.
    public mutating func found(_ existing: WorkoutSummary, leg: (number: Int, of: Int)?) {
        guard leg != nil, event == nil else { return }
        event = existing.multisport?.event ?? existing.id
    }
}
