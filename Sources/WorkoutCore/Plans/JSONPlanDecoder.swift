/// The project's own plan format (docs/plans.md, schema in docs/plan.schema.json):
///
///     {"name": "3 x 20 at threshold", "steps": [
///       {"kind": "warmup", "seconds": 600, "ramp": {"ftp": [0.5, 0.75]}},
///       {"repeat": 3, "steps": [
///         {"kind": "work", "seconds": 1200, "power": {"ftp": 0.95}, "prompts": [{"at": 0, "text": "Hold it"}]},
///         {"kind": "recovery", "seconds": 300, "power": {"watts": 150}}]},
///       {"kind": "cooldown", "open": true}]}
///
/// A step has a `kind` (warmup, work, recovery, cooldown, free, max_effort; default work), one
/// length (`seconds`, `meters` or `"open": true`), at most one target (`power` or `ramp` as
/// `{"watts": W | [LOW, HIGH]}` or `{"ftp": F | [LOW, HIGH]}`, a ramp's pair being from and to;
/// `heartRate`, `cadence` as N or [LOW, HIGH]; `speed` in m/s) and `prompts`. `{"repeat": N,
/// "steps": [...]}` repeats its steps N times (nested repeats too). Errors name the step by its
/// path (`step 2.1`: the first step inside the second entry).
enum JSONPlanDecoder {
    static let stepKeys: Set<String> = ["kind", "seconds", "meters", "open", "power", "ramp", "heartRate", "cadence", "speed", "prompts"]

    static func decode(_ bytes: [UInt8], ftpWatts: Double?) throws(PlanError) -> Plan {
        let root: JSON
        do { root = try JSON.parse(bytes) } catch { throw PlanError(.file, "not valid JSON: \(error)") }
        return try decode(json: root, ftpWatts: ftpWatts)
    }

    /// A plan already parsed (the journal's copy, `Plan.json()`).
    static func decode(json root: JSON, ftpWatts: Double?) throws(PlanError) -> Plan {
        guard let o = root.objectValue else { throw PlanError(.file, "a JSON plan is an object with \"name\" and \"steps\"") }
        for key in o.keys where key != "name" && key != "steps" && key != "description" {
            throw PlanError(.file, "unknown key \"\(key)\" (a plan has name, description, steps)")
        }
        guard let list = o["steps"]?.arrayValue else { throw PlanError(.file, "a JSON plan needs \"steps\": [...]") }
        var steps: [PlanStep] = []
        try read(list, path: "", ftpWatts: ftpWatts, depth: 0, into: &steps)
        return Plan(name: o["name"]?.stringValue ?? "Plan", steps: steps)
    }

    static func read(_ list: [JSON], path: String, ftpWatts: Double?, depth: Int, into steps: inout [PlanStep]) throws(PlanError) {
        for (i, item) in list.enumerated() {
            let here = path.isEmpty ? "\(i + 1)" : path + ".\(i + 1)"
            let at = PlanError.Location.entry(here)
            guard let o = item.objectValue else { throw PlanError(at, "a step is an object") }
            if let r = o["repeat"] {
                guard depth < 4 else { throw PlanError(at, "repeats nest at most 4 deep") }
                guard let n = r.doubleValue, n >= 1, n <= Double(Plan.maxSteps), n == n.rounded() else {
                    throw PlanError(at, "repeat is a count from 1 to \(Plan.maxSteps)")
                }
                guard let inner = o["steps"]?.arrayValue, !inner.isEmpty else { throw PlanError(at, "a repeat needs \"steps\": [...]") }
                var body: [PlanStep] = []
                try read(inner, path: here, ftpWatts: ftpWatts, depth: depth + 1, into: &body)
                try PlanDecoder.repeatSteps(body, count: Int(n), into: &steps, at)
                continue
            }
            guard steps.count < Plan.maxSteps else { throw PlanError(at, "the plan is longer than \(Plan.maxSteps) steps") }
            steps.append(try step(o, ftpWatts: ftpWatts, at))
        }
    }

    static func step(_ o: JSONObject, ftpWatts: Double?, _ at: PlanError.Location) throws(PlanError) -> PlanStep {
        for key in o.keys where !stepKeys.contains(key) { throw PlanError(at, "unknown key \"\(key)\"") }
        var kind = PlanStep.Kind.work
        if let k = o["kind"] {
            guard let name = k.stringValue, let known = PlanStep.Kind(rawValue: name) else {
                throw PlanError(at, "kind is one of \(PlanStep.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kind = known
        }
        let lengths = [o["seconds"], o["meters"], o["open"]].compactMap { $0 }
        guard lengths.count == 1 else { throw PlanError(at, "a step has one of seconds, meters or \"open\": true") }
        let length: PlanStep.Length
        if let s = o["seconds"] {
            guard let v = s.doubleValue else { throw PlanError(at, "seconds is a number") }
            length = .seconds(v)
        } else if let m = o["meters"] {
            guard let v = m.doubleValue else { throw PlanError(at, "meters is a number") }
            length = .meters(v)
        } else {
            guard o["open"]?.boolValue == true else { throw PlanError(at, "\"open\" is true when given") }
            length = .open
        }
        let targets = ["power", "ramp", "heartRate", "cadence", "speed"].filter { o[$0] != nil }
        guard targets.count <= 1 else { throw PlanError(at, "a step has at most one target (\(targets.joined(separator: ", ")) given)") }
        var target = PlanTarget.none
        if let p = o["power"] {
            let (low, high) = try power(p, ftpWatts: ftpWatts, "power", at)
            target = .power(low: low, high: high)
        } else if let r = o["ramp"] {
            let (from, to) = try power(r, ftpWatts: ftpWatts, "ramp", at)
            target = .powerRamp(from: from, to: to)
        } else if let h = o["heartRate"] {
            let (low, high) = try pair(h, "heartRate", at)
            target = .heartRate(low: low, high: high)
        } else if let c = o["cadence"] {
            let (low, high) = try pair(c, "cadence", at)
            target = .cadence(low: low, high: high)
        } else if let v = o["speed"] {
            let (low, high) = try pair(v, "speed", at)
            target = .speed(low: low, high: high)
        }
        var prompts: [PlanStep.Prompt] = []
        if let list = o["prompts"] {
            guard let items = list.arrayValue, items.count <= 100 else { throw PlanError(at, "prompts is a list of at most 100") }
            for p in items {
                guard let text = p["text"]?.stringValue, let offset = (p["at"] ?? .number(0)).doubleValue else {
                    throw PlanError(at, "a prompt is {\"at\": SECONDS, \"text\": TEXT}")
                }
                prompts.append(PlanStep.Prompt(offset: offset, text: text))
            }
            prompts.sort { $0.offset < $1.offset }
        }
        return PlanStep(kind: kind, length: length, target: target, prompts: prompts)
    }

    /// `N` or `[LOW, HIGH]`.
    static func pair(_ v: JSON, _ key: String, _ at: PlanError.Location) throws(PlanError) -> (Double, Double) {
        if let n = v.doubleValue { return (n, n) }
        if let a = v.arrayValue, a.count == 2, let low = a[0].doubleValue, let high = a[1].doubleValue { return (low, high) }
        throw PlanError(at, "\(key) is a number or [low, high]")
    }

    /// `{"watts": ...}` or `{"ftp": ...}`, in watts.
    static func power(_ v: JSON, ftpWatts: Double?, _ key: String, _ at: PlanError.Location) throws(PlanError) -> (Double, Double) {
        guard let o = v.objectValue, o.keys.count == 1 else { throw PlanError(at, "\(key) is {\"watts\": ...} or {\"ftp\": ...}") }
        if let w = o["watts"] { return try pair(w, key + ".watts", at) }
        if let f = o["ftp"] {
            let (low, high) = try pair(f, key + ".ftp", at)
            return (try PlanDecoder.watts(fraction: low, ftpWatts: ftpWatts, at), try PlanDecoder.watts(fraction: high, ftpWatts: ftpWatts, at))
        }
        throw PlanError(at, "\(key) is {\"watts\": ...} or {\"ftp\": ...}")
    }
}
