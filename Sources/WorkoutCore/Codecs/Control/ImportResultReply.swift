/// What became of one imported file: a `results` item of the `import` reply, or an `import`
/// event line (docs/protocol.md, "Commands"): `{"file","id","result","activity"?,"error"?,
/// "warnings"?}`. Typed once: the daemon writes it (`json(event:)`), workoutctl reads it
/// (`init?(json:)`).
public struct ImportResultReply: Sendable, Equatable {
    /// `imported`, `duplicate`, `error`.
    public enum Kind: String, Sendable, Equatable {
        case imported, duplicate, error
    }

    public var file: String
    public var kind: Kind
    public var id: WorkoutID?
    public var activity: ActivityType?
    public var error: String?
    /// What the user should know about the file; empty: nothing.
    public var warnings: [String]

    public init(file: String, kind: Kind, id: WorkoutID?, activity: ActivityType?, error: String?, warnings: [String] = []) {
        self.file = file; self.kind = kind; self.id = id; self.activity = activity; self.error = error; self.warnings = warnings
    }

    /// The item, or as an `import` event line with `event` first.
    public func json(event: Bool = false) -> JSON {
        var o = JSONObject(event ? [("event", "import")] : [])
        o["file"] = .string(file); o["id"] = .string(id?.rawValue); o["result"] = .string(kind.rawValue)
        if let activity { o["activity"] = .string(activity.rawValue) }
        if let error { o["error"] = .string(error) }
        if !warnings.isEmpty { o["warnings"] = .array(warnings.map { .string($0) }) }
        return .object(o)
    }

    /// Reads an item or event. Tolerant: a missing file is "?", a missing or unknown result an
    /// error.
    public init(json j: JSON) {
        file = j["file"]?.stringValue ?? "?"
        kind = j["result"]?.stringValue.flatMap(Kind.init(rawValue:)) ?? .error
        id = j["id"]?.stringValue.flatMap(WorkoutID.init(rawValue:))
        activity = j["activity"]?.stringValue.flatMap(ActivityType.init(rawValue:))
        error = j["error"]?.stringValue
        warnings = (j["warnings"]?.arrayValue ?? []).compactMap(\.stringValue)
    }
}
