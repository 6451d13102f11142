/// `show`: the saved workout's summary object (`WorkoutSummary`'s codec), its events, its
/// source, the personal bests it set and the display units (docs/protocol.md, "Commands").
/// Typed once: the daemon writes it, workoutctl reads it.
public struct ShowReply: Sendable {
    /// The summary, with every split and lap: written and read by `WorkoutSummary`'s codec, the
    /// saved file's (`json()`, `init?(json:)`).
    public var workout: WorkoutSummary
    public var events: [WorkoutEvent]
    public var source: String?
    public var personalBests: [PersonalBestReply]
    public var units: Units?

    public init(workout: WorkoutSummary, events: [WorkoutEvent], source: String?, personalBests: [PersonalBestReply], units: Units?) {
        self.workout = workout; self.events = events; self.source = source; self.personalBests = personalBests; self.units = units
    }

    public func json() -> JSON {
        .object(JSONObject([("ok", true), ("workout", workout.json()), ("events", .array(events.map { $0.json() })), ("source", .string(source)),
                            ("personalBests", .array(personalBests.map { $0.json() })), ("units", .string(units?.rawValue))]))
    }

    /// Nil without a workout summary (none, or one that names no id, known activity or start).
    public init?(json r: JSON) {
        guard let w = r["workout"].flatMap(WorkoutSummary.init(json:)) else { return nil }
        workout = w
        events = (r["events"]?.arrayValue ?? []).compactMap(WorkoutEvent.init(json:))
        source = r["source"]?.stringValue
        personalBests = (r["personalBests"]?.arrayValue ?? []).compactMap(PersonalBestReply.init(json:))
        units = r["units"]?.stringValue.flatMap(Units.init(rawValue:))
    }
}

/// `list`: the summaries, oldest first, and the display units.
public struct ListReply: Sendable {
    public var workouts: [JSON]
    public var units: Units?

    public init(workouts: [JSON], units: Units?) { self.workouts = workouts; self.units = units }

    public func json() -> JSON {
        .object(JSONObject([("ok", true), ("workouts", .array(workouts)), ("units", .string(units?.rawValue))]))
    }

    public init(json r: JSON) {
        workouts = r["workouts"]?.arrayValue ?? []
        units = r["units"]?.stringValue.flatMap(Units.init(rawValue:))
    }

    /// The workouts read by `WorkoutSummary`'s codec; one it cannot read is left out.
    public var summaries: [WorkoutSummary] { workouts.compactMap(WorkoutSummary.init(json:)) }

    /// The reply for `summaries` written straight to bytes: the same text as
    /// `ListReply(workouts: summaries.map { $0.json() }, units:).json().serialized()`, without
    /// building a JSON tree per workout first (a list of 12,000 is about 10 MB).
    public static func write(_ summaries: [WorkoutSummary], units: Units?, to w: inout JSONWriter) {
        w.raw("{\"ok\":true,\"workouts\":[")
        for (k, summary) in summaries.enumerated() {
            if k > 0 { w.raw(",") }
            var cache = SummaryJSONCache()
            summary.writeJSON(to: &w, cache: &cache)
        }
        w.raw("],\"units\":"); w.string(units?.rawValue)
        w.raw("}")
    }
}

extension ProtocolError {
    /// The failure reply: `{"ok":false,"error":{"code","message"}}`.
    public var reply: JSON {
        ["ok": false, "error": ["code": .string(code), "message": .string(message)]]
    }

    /// The error of a failure reply; nil for a success. A reply without a code or message (or an
    /// older daemon's plain string) gets `error` and a sentence.
    public init?(reply r: JSON) {
        guard r["ok"]?.boolValue != true else { return nil }
        let e = r["error"]
        self.init(code: e?["code"]?.stringValue ?? "error",
                  message: e?["message"]?.stringValue ?? e?.stringValue ?? "the daemon refused the request")
    }
}
