/// What a person says about a workout, beside what was measured: a title, notes, the gear used
/// (shoes, a bike), the perceived effort (1-10) and whether it counts in records. Set by `edit`,
/// taken from Strava's activities.csv and from files that name themselves (GPX `name`/`desc`,
/// TCX `Notes`); kept when the workout's numbers are recomputed. JSON keys `title`, `notes`,
/// `gear`, `effort` (null when unset) and `records` (`RecordsInclusion`).
public struct WorkoutAnnotation: Sendable, Equatable {
    public var title: String?
    public var notes: String?
    public var gear: String?
    /// Perceived effort, 1 (very easy) to 10 (maximal) (`effortRange`).
    public var effort: Int?
    /// Whether its best efforts count in records and personal bests (`edit --records off|on`).
    public var records = RecordsInclusion.counted

    public static let effortRange = 1...10
    /// Longest title, gear name and notes kept (characters); longer text is refused by `edit`.
    public static let maxTitleLength = 200
    public static let maxNotesLength = 10_000

    public init(title: String? = nil, notes: String? = nil, gear: String? = nil, effort: Int? = nil) {
        self.title = title; self.notes = notes; self.gear = gear; self.effort = effort
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { title == nil && notes == nil && gear == nil && effort == nil && records == .counted }

    /// Text as kept: surrounding white space trimmed, empty = unset.
    public static func cleaned(_ text: String?) -> String? {
        guard let text else { return nil }
        let t = text.trimmed()
        return t.isEmpty ? nil : t
    }

    /// A name or description a file gives itself, when it is a person's words rather than a
    /// device's default: nil when, leaving out numbers and codes with digits ("LAP001",
    /// "GH625XT", a date), no word is left but a device's ("ACTIVE LOG", "Track",
    /// "GPS tracklog data").
    public static func fromFile(_ text: String?) -> String? {
        guard let t = cleaned(text) else { return nil }
        let tokens = t.lowercased().split { !$0.isLetter && !$0.isNumber }
        let words = tokens.filter { token in token.count > 1 && !token.contains { $0.isNumber } }
        return words.contains { !deviceWords.contains(String($0)) } ? t : nil
    }

    /// Words devices put in the names of their tracks.
    static let deviceWords: Set<String> = ["active", "log", "track", "tracklog", "trk", "lap", "current", "gps", "data",
                                           "activity", "untitled", "route", "segment", "seg", "new"]

    /// This annotation with `edit` applied.
    public func applying(_ edit: WorkoutEdit) -> WorkoutAnnotation {
        var a = self
        if let t = edit.title { a.title = t.value.flatMap(WorkoutAnnotation.cleaned) }
        if let n = edit.notes { a.notes = n.value.flatMap(WorkoutAnnotation.cleaned) }
        if let g = edit.gear { a.gear = g.value.flatMap(WorkoutAnnotation.cleaned) }
        if let e = edit.effort { a.effort = e.value }
        if let r = edit.records { a.records = r }
        return a
    }
}

/// One field of an edit: set to a value, or cleared.
public enum FieldEdit<Value: Sendable & Equatable>: Sendable, Equatable {
    case set(Value)
    case clear

    /// The new value (nil when cleared).
    public var value: Value? {
        switch self {
        case .set(let v): return v
        case .clear: return nil
        }
    }
}

/// `edit ID [--activity A] [--title T] [--notes T] [--gear NAME] [--effort 1-10] [--records off|on]`:
/// what to change in a saved workout; a nil field stays as it is. An empty text clears its field.
public struct WorkoutEdit: Sendable, Equatable {
    public var activity: ActivityType?
    public var title: FieldEdit<String>?
    public var notes: FieldEdit<String>?
    public var gear: FieldEdit<String>?
    public var effort: FieldEdit<Int>?
    /// Counted in records and personal bests, or kept out of them.
    public var records: RecordsInclusion?

    public init(activity: ActivityType? = nil, title: FieldEdit<String>? = nil, notes: FieldEdit<String>? = nil,
                gear: FieldEdit<String>? = nil, effort: FieldEdit<Int>? = nil, records: RecordsInclusion? = nil) {
        self.activity = activity; self.title = title; self.notes = notes; self.gear = gear; self.effort = effort; self.records = records
    }

    /// Whether it changes nothing.
    public var isEmpty: Bool { activity == nil && title == nil && notes == nil && gear == nil && effort == nil && records == nil }

    /// The names of the fields it changes, for the log ("activity", "title", ...).
    public var fieldNames: [String] {
        var n: [String] = []
        if activity != nil { n.append("activity") }
        if title != nil { n.append("title") }
        if notes != nil { n.append("notes") }
        if gear != nil { n.append("gear") }
        if effort != nil { n.append("effort") }
        if records != nil { n.append("records") }
        return n
    }

    /// Why this edit cannot be applied, in words (an effort outside 1-10, a text too long); nil
    /// when it can.
    public var problem: String? {
        if case .set(let e)? = effort, !WorkoutAnnotation.effortRange.contains(e) {
            return "effort must be 1 (very easy) to 10 (maximal), not \(e)"
        }
        for (name, field, limit) in [("title", title, WorkoutAnnotation.maxTitleLength), ("gear", gear, WorkoutAnnotation.maxTitleLength),
                                     ("notes", notes, WorkoutAnnotation.maxNotesLength)] {
            if case .set(let t)? = field, t.count > limit { return "\(name) is longer than \(limit) characters" }
        }
        return nil
    }
}
