/// Whether a workout's best efforts count in records and personal bests: `edit ID --records
/// off|on` (Strava's "exclude from records"). JSON `records`: `"counted"` or `"excluded"`. An
/// excluded workout keeps every figure (its best efforts are still shown on its own page); it
/// only sets no record and no personal best, and is no previous best to beat.
public enum RecordsInclusion: String, Sendable, Equatable, CaseIterable {
    /// Its best efforts count (the default).
    case counted
    /// Kept out of records and personal bests by the user.
    case excluded
}

extension RecordsInclusion {
    /// Whether the workout's best efforts take part in records and personal bests.
    public var counts: Bool {
        switch self {
        case .counted: return true
        case .excluded: return false
        }
    }

    /// `--records on|off` as the user types it (also the JSON words), nil for anything else.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "on", "counted": self = .counted
        case "off", "excluded": self = .excluded
        default: return nil
        }
    }
}
