extension Plan {
    /// The plan in the project's JSON plan format (docs/plans.md), repeats unrolled, power in
    /// watts: what the journal keeps of the plan a workout follows, read back by
    /// `Plan(journaled:)` whatever the configuration says by then.
    public func json() -> JSON {
        var o = JSONObject()
        o["name"] = .string(name)
        o["steps"] = .array(steps.map { step in
            var j = step.kindAndLength()
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

extension PlanStep {
    /// `kind`, then `seconds`, `meters` or `open`: how a step's object begins, in the journal's
    /// plan (`Plan.json()`) and in the protocol (`PlanReply.json(_:watts:)`) alike.
    func kindAndLength() -> JSONObject {
        var o = JSONObject()
        o["kind"] = .string(kind.rawValue)
        switch length {
        case .seconds(let s): o["seconds"] = .number(s)
        case .meters(let m): o["meters"] = .number(m)
        case .open: o["open"] = true
        }
        return o
    }
}
