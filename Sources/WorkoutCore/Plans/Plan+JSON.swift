extension Plan {
    /// The plan in the project's JSON plan format (docs/plans.md), repeats unrolled, power in
    /// watts: what the journal keeps of the plan a workout follows, read back by
    /// `Plan(journaled:)` whatever the configuration says by then.
    public func json() -> JSON {
        var o = JSONObject()
        o["name"] = .string(name)
        o["steps"] = .array(steps.map { step in
            var j = JSONObject()
            j["kind"] = .string(step.kind.rawValue)
            switch step.length {
            case .seconds(let s): j["seconds"] = .number(s)
            case .meters(let m): j["meters"] = .number(m)
            case .open: j["open"] = true
            }
            switch step.target {
            case .none: break
            case .power(let low, let high): j["power"] = ["watts": [.number(low), .number(high)]]
            case .powerRamp(let from, let to): j["ramp"] = ["watts": [.number(from), .number(to)]]
            case .heartRate(let low, let high): j["heartRate"] = [.number(low), .number(high)]
            case .cadence(let low, let high): j["cadence"] = [.number(low), .number(high)]
            case .speed(let low, let high): j["speed"] = [.number(low), .number(high)]
            }
            if !step.prompts.isEmpty {
                j["prompts"] = .array(step.prompts.map { ["at": .number($0.offset), "text": .string($0.text)] })
            }
            return .object(j)
        })
        return .object(o)
    }

    /// A plan written by `json()`, checked as any plan is; nil when it is not one.
    public init?(journaled j: JSON) {
        guard let p = try? JSONPlanDecoder.decode(json: j, ftpWatts: nil), (try? PlanDecoder.check(p)) != nil else { return nil }
        self = p
    }
}
