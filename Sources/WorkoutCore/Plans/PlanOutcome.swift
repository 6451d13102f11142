/// What was done of a plan, kept in the saved workout's summary (`plan`, docs/plans.md "What
/// was done"): each step begun, its target beside what its laps measured, and a compliance
/// score. The targets are the plan's (kept); the actuals come from the laps (each step closes
/// its lap; an automatic lap inside a step makes it two), so they are measured again whenever
/// the laps are.
///
/// Compliance (0-100): over the steps with a target and a measured actual, the mean of each
/// step's score weighted by its lap's time, where a step's score is 1 when the lap's average
/// (power, heart rate, cadence or speed) lies in the target's range, else the ratio of the
/// average to the nearest end of the range, the smaller over the larger (a 250 W step ridden
/// at 200 W scores 0.8; at 300 W, 0.833). Steps without a target or without a measure (no power
/// meter) do not count; nil when no step counts.
public struct PlanOutcome: Sendable, Equatable {
    public var name: String
    /// Steps in the plan (unrolled); `steps` lists the ones begun.
    public var stepCount: Int
    public var steps: [Step]
    /// 0-100, nil when no step counts.
    public var compliance: Double?

    public struct Step: Sendable, Equatable {
        /// The step's place in the plan (from 0), the place of its first lap among the
        /// workout's laps, and how many laps it spans (0: none was measured).
        public var index: Int
        public var firstLap: Int
        public var laps: Int
        public var kind: PlanStep.Kind
        public var target: PlanTarget
        /// The lap's time (s) and the averages it measured.
        public var seconds: Double
        public var averagePower: Int?
        public var averageHeartRate: Int?
        public var averageCadence: Int?
        /// m/s over the lap's moving time.
        public var averageSpeed: Double?
        /// 0-100, nil without a target or a measure.
        public var compliance: Double?

        public init(index: Int, firstLap: Int, laps: Int = 0, kind: PlanStep.Kind, target: PlanTarget, seconds: Double = 0,
                    averagePower: Int? = nil, averageHeartRate: Int? = nil, averageCadence: Int? = nil, averageSpeed: Double? = nil,
                    compliance: Double? = nil) {
            self.index = index; self.firstLap = firstLap; self.laps = laps; self.kind = kind; self.target = target; self.seconds = seconds
            self.averagePower = averagePower; self.averageHeartRate = averageHeartRate; self.averageCadence = averageCadence
            self.averageSpeed = averageSpeed; self.compliance = compliance
        }

        /// What the lap measured of the target's kind, nil without.
        public var actual: Double? {
            switch target {
            case .none: nil
            case .power, .powerRamp: averagePower.map(Double.init)
            case .heartRate: averageHeartRate.map(Double.init)
            case .cadence: averageCadence.map(Double.init)
            case .speed: averageSpeed
            }
        }
    }

    public init(name: String, stepCount: Int, steps: [Step], compliance: Double? = nil) {
        self.name = name; self.stepCount = stepCount; self.steps = steps; self.compliance = compliance
    }

    /// The steps of `plan` begun, in order, `firstLaps[k]` the number of laps the workout had
    /// closed when step k began; not measured yet (`measure`).
    public init(plan: Plan, firstLaps: [Int]) {
        let steps = zip(plan.steps, firstLaps).enumerated().map { i, p in Step(index: i, firstLap: p.1, kind: p.0.kind, target: p.0.target) }
        self.init(name: plan.name, stepCount: plan.steps.count, steps: steps)
    }

    /// The actuals and the scores from the workout's `laps`: step k's laps run from its
    /// `firstLap` to the next step's (the last step's to the end); averages weighted by each
    /// lap's time, speed over their moving time.
    public mutating func measure(_ laps: [LapSummary]) {
        var weighted = 0.0, total = 0.0
        for k in steps.indices {
            var s = steps[k]
            let from = min(max(0, s.firstLap), laps.count)
            let to = max(from, min(k + 1 < steps.count ? steps[k + 1].firstLap : laps.count, laps.count))
            let mine = laps[from..<to]
            s.laps = mine.count
            s.seconds = mine.reduce(0) { $0 + $1.elapsedSeconds }
            s.averagePower = Self.mean(mine, \.averagePower)
            s.averageHeartRate = Self.mean(mine, \.averageHeartRate)
            s.averageCadence = Self.mean(mine, \.averageCadence)
            let moving = mine.reduce(0) { $0 + $1.movingSeconds }
            s.averageSpeed = moving > 0 ? mine.reduce(0) { $0 + $1.distanceMeters } / moving : nil
            s.compliance = nil
            if let range = s.target.range, let actual = s.actual, range.lowerBound > 0 {
                let score = Self.score(actual, range)
                s.compliance = rounded(score * 100, 1)
                if s.seconds > 0 {
                    weighted += score * s.seconds
                    total += s.seconds
                }
            }
            steps[k] = s
        }
        compliance = total > 0 ? rounded(weighted / total * 100, 1) : nil
    }

    /// The laps' values weighted by their time (each lap's alone when none has time), nil when
    /// no lap has one.
    static func mean(_ laps: ArraySlice<LapSummary>, _ value: KeyPath<LapSummary, Int?>) -> Int? {
        var sum = 0.0, weight = 0.0, plain = 0.0, count = 0.0
        for lap in laps {
            guard let v = lap[keyPath: value] else { continue }
            sum += Double(v) * lap.elapsedSeconds
            weight += lap.elapsedSeconds
            plain += Double(v)
            count += 1
        }
        guard count > 0 else { return nil }
        return Int((weight > 0 ? sum / weight : plain / count).rounded())
    }

    /// 1 inside the range, else the actual and the nearest end of the range, smaller over larger.
    static func score(_ actual: Double, _ range: ClosedRange<Double>) -> Double {
        if range.contains(actual) { return 1 }
        let bound = actual < range.lowerBound ? range.lowerBound : range.upperBound
        guard actual > 0, bound > 0 else { return 0 }
        return min(actual, bound) / max(actual, bound)
    }
}

extension PlanOutcome {
    /// `{"name", "stepCount", "compliance", "steps": [{"index", "firstLap", "laps", "kind", "target",
    /// "seconds", "averagePower", "averageHeartRate", "averageCadence", "averageSpeed",
    /// "compliance"}]}` (docs/protocol.md, "Plan in a saved workout").
    public func json() -> JSON {
        var o = JSONObject()
        o["name"] = .string(name)
        o["stepCount"] = .int(stepCount)
        o["compliance"] = .number(compliance)
        o["steps"] = .array(steps.map { s in
            var j = JSONObject()
            j["index"] = .int(s.index)
            j["firstLap"] = .int(s.firstLap)
            j["laps"] = .int(s.laps)
            j["kind"] = .string(s.kind.rawValue)
            j["target"] = s.target.json()
            j["seconds"] = .number(rounded(s.seconds, 3))
            j["averagePower"] = .int(s.averagePower)
            j["averageHeartRate"] = .int(s.averageHeartRate)
            j["averageCadence"] = .int(s.averageCadence)
            j["averageSpeed"] = .number(s.averageSpeed.map { rounded($0, 4) })
            j["compliance"] = .number(s.compliance)
            return .object(j)
        })
        return .object(o)
    }

    /// Reads what `json()` writes; nil when it is not a plan's outcome (a step it cannot read
    /// is left out).
    public init?(json o: JSON) {
        guard let name = o["name"]?.stringValue, let count = o["stepCount"]?.intValue, let list = o["steps"]?.arrayValue else { return nil }
        let steps: [Step] = list.compactMap { j in
            guard let index = j["index"]?.intValue, let kind = j["kind"]?.stringValue.flatMap(PlanStep.Kind.init(rawValue:)),
                  let target = j["target"].flatMap(PlanTarget.init(json:)) else { return nil }
            return Step(index: index, firstLap: j["firstLap"]?.intValue ?? index, laps: j["laps"]?.intValue ?? 0, kind: kind, target: target, seconds: j["seconds"]?.doubleValue ?? 0,
                        averagePower: j["averagePower"]?.intValue, averageHeartRate: j["averageHeartRate"]?.intValue,
                        averageCadence: j["averageCadence"]?.intValue, averageSpeed: j["averageSpeed"]?.doubleValue,
                        compliance: j["compliance"]?.doubleValue)
        }
        self.init(name: name, stepCount: count, steps: steps, compliance: o["compliance"]?.doubleValue)
    }
}

extension PlanOutcome.Step {
    /// The step's target and what its laps measured of it, in the target's unit ("250-270 W",
    /// "255 W"; a ramp "150 to 225 W"; speed in km/h; "free" and "-" without a target, "-"
    /// without a measure): what `show` and the workout page print.
    public var figures: (target: String, actual: String) {
        func int(_ v: Int?, _ unit: String) -> String { v.map { "\($0) \(unit)" } ?? "-" }
        switch target {
        case .none: return ("free", "-")
        case .power(let low, let high): return (PlanStep.range(low, high, "W", decimals: 0), int(averagePower, "W"))
        case .powerRamp(let from, let to): return ("\(Int(from.rounded())) to \(Int(to.rounded())) W", int(averagePower, "W"))
        case .heartRate(let low, let high): return (PlanStep.range(low, high, "bpm", decimals: 0), int(averageHeartRate, "bpm"))
        case .cadence(let low, let high): return (PlanStep.range(low, high, "/min", decimals: 0), int(averageCadence, "/min"))
        case .speed(let low, let high):
            return (PlanStep.range(low * 3.6, high * 3.6, "km/h", decimals: 1), averageSpeed.map { formatFixed($0 * 3.6, decimals: 1) + " km/h" } ?? "-")
        }
    }
}
