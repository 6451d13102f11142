/// `status.plan` (docs/protocol.md, "Plan keys"), typed once: the daemon writes it from the
/// machine's `PlanStatus`, workoutctl reads it back.
///
///     {"name": "3 x 20", "stepIndex": 1, "stepCount": 9, "state": "running",
///      "step": {"kind": "work", "seconds": 1200, "target": {"kind": "power", "low": 285, "high": 285, "watts": 285}},
///      "remainingSeconds": 754.2, "remainingMeters": null, "next": {"kind": "recovery", ...}}
public struct PlanReply: Sendable, Equatable {
    public var name: String
    /// 0-based.
    public var stepIndex: Int
    public var stepCount: Int
    /// `running`, `paused`, `completed`, `stopped`.
    public var state: String
    public var step: JSON
    public var remainingSeconds: Double?
    public var remainingMeters: Double?
    public var next: JSON?

    public init(_ s: PlanStatus) {
        name = s.name
        stepIndex = s.stepIndex
        stepCount = s.stepCount
        switch s.phase {
        case .running: state = "running"
        case .paused: state = "paused"
        case .finished(.completed): state = "completed"
        case .finished(.stopped): state = "stopped"
        }
        step = PlanReply.json(s.step, watts: s.watts)
        remainingSeconds = s.remainingSeconds
        remainingMeters = s.remainingMeters
        next = s.next.map { PlanReply.json($0, watts: $0.target.watts(atFraction: 0)) }
    }

    public func json() -> JSON {
        var o = JSONObject()
        o["name"] = .string(name)
        o["stepIndex"] = .int(stepIndex)
        o["stepCount"] = .int(stepCount)
        o["state"] = .string(state)
        o["step"] = step
        o["remainingSeconds"] = .number(remainingSeconds.map { rounded($0, 1) })
        o["remainingMeters"] = .number(remainingMeters.map { rounded($0, 1) })
        o["next"] = next ?? .null
        return .object(o)
    }

    public init?(json p: JSON) {
        guard let name = p["name"]?.stringValue, let index = p["stepIndex"]?.intValue, let count = p["stepCount"]?.intValue,
              let step = p["step"], step.objectValue != nil else { return nil }
        self.name = name
        stepIndex = index
        stepCount = count
        state = p["state"]?.stringValue ?? "running"
        self.step = step
        remainingSeconds = p["remainingSeconds"]?.doubleValue
        remainingMeters = p["remainingMeters"]?.doubleValue
        // JSON is nil-literal expressible: a ternary's `nil` would be `.null`, not no step.
        if let n = p["next"], n.objectValue != nil { next = n } else { next = nil }
    }

    /// A step as the protocol carries it: its kind, its length and its target (with the power
    /// asked now, `watts`, for a power target).
    public static func json(_ step: PlanStep, watts: Int?) -> JSON {
        var o = step.kindAndLength()
        o["target"] = step.target.json(watts: watts)
        return .object(o)
    }
}

extension PlanTarget {
    /// `{"kind": "power", "low": 250, "high": 270}` (a ramp: `from`, `to`; `none`: the kind
    /// alone), with the power asked now (`watts`) when given.
    public func json(watts: Int? = nil) -> JSON {
        var t = JSONObject()
        t["kind"] = .string(kindName)
        switch self {
        case .none: break
        case .power(let low, let high), .heartRate(let low, let high), .cadence(let low, let high), .speed(let low, let high):
            t["low"] = .number(rounded(low, 2)); t["high"] = .number(rounded(high, 2))
        case .powerRamp(let from, let to):
            t["from"] = .number(rounded(from, 2)); t["to"] = .number(rounded(to, 2))
        }
        if let watts { t["watts"] = .int(watts) }
        return .object(t)
    }

    /// Reads what `json(watts:)` writes; nil when it is not a target.
    public init?(json t: JSON) {
        guard let kind = t["kind"]?.stringValue else { return nil }
        let low = t["low"]?.doubleValue, high = t["high"]?.doubleValue
        switch (kind, low, high) {
        case ("none", _, _): self = .none
        case ("power", let l?, let h?): self = .power(low: l, high: h)
        case ("heart_rate", let l?, let h?): self = .heartRate(low: l, high: h)
        case ("cadence", let l?, let h?): self = .cadence(low: l, high: h)
        case ("speed", let l?, let h?): self = .speed(low: l, high: h)
        case ("power_ramp", _, _):
            guard let from = t["from"]?.doubleValue, let to = t["to"]?.doubleValue else { return nil }
            self = .powerRamp(from: from, to: to)
        default: return nil
        }
    }
}

extension PlanStep {
    /// In words for a log line or a notice: "work, 250 W for 20:00", "recovery for 500 m",
    /// "cooldown until next".
    public var describe: String {
        var text = kind.words
        switch target {
        case .none: break
        case .power(let low, let high): text += ", " + PlanStep.range(low, high, "W", decimals: 0)
        case .powerRamp(let from, let to): text += ", \(Int(from.rounded())) to \(Int(to.rounded())) W"
        case .heartRate(let low, let high): text += ", heart rate " + PlanStep.range(low, high, "bpm", decimals: 0)
        case .cadence(let low, let high): text += ", cadence " + PlanStep.range(low, high, "/min", decimals: 0)
        case .speed(let low, let high): text += ", speed " + PlanStep.range(low * 3.6, high * 3.6, "km/h", decimals: 1)
        }
        switch length {
        case .seconds(let s): text += " for " + formatDuration(s)
        case .meters(let m): text += m >= 1000 ? " for " + formatFixed(m / 1000, decimals: 2) + " km" : " for \(Int(m.rounded())) m"
        case .open: text += " until next"
        }
        return text
    }

    static func range(_ low: Double, _ high: Double, _ unit: String, decimals: Int) -> String {
        low == high ? formatFixed(low, decimals: decimals) + " " + unit
            : formatFixed(low, decimals: decimals) + "-" + formatFixed(high, decimals: decimals) + " " + unit
    }
}

extension PlanReply {
    /// A plan step from its protocol object, in words: "work, 285 W", "recovery, 150 W for
    /// 5:00" (`now` false: the step's length too). `status` and the live page say it alike.
    public static func words(_ step: JSON, now: Bool, duration: (Double) -> String) -> String {
        var text = (step["kind"]?.stringValue ?? "step").split(separator: "_").joined(separator: " ")
        let t = step["target"]
        func range(_ unit: String, scale: Double = 1, decimals: Int = 0) -> String {
            let low = (t?["low"]?.doubleValue ?? 0) * scale, high = (t?["high"]?.doubleValue ?? 0) * scale
            return (low == high ? formatFixed(low, decimals: decimals) : formatFixed(low, decimals: decimals) + "-" + formatFixed(high, decimals: decimals)) + " " + unit
        }
        switch t?["kind"]?.stringValue {
        case "power": text += ", " + range("W")
        case "power_ramp":
            if now, let w = t?["watts"]?.intValue { text += ", \(w) W (ramp to \(formatFixed(t?["to"]?.doubleValue ?? 0, decimals: 0)) W)" }
            else { text += ", \(formatFixed(t?["from"]?.doubleValue ?? 0, decimals: 0)) to \(formatFixed(t?["to"]?.doubleValue ?? 0, decimals: 0)) W" }
        case "heart_rate": text += ", heart rate " + range("bpm")
        case "cadence": text += ", cadence " + range("/min")
        case "speed": text += ", speed " + range("km/h", scale: 3.6, decimals: 1)
        default: break
        }
        if !now {
            if let s = step["seconds"]?.doubleValue { text += " for " + duration(s) }
            else if let m = step["meters"]?.doubleValue { text += " for " + formatFixed(m, decimals: 0) + " m" }
            else { text += " until next" }
        }
        return text
    }
}
