/// A Zwift workout file (`.zwo`): `<workout_file>` with a `<name>` and a `<workout>` of steps,
/// power as fractions of FTP. Read: `SteadyState` (`Power`, or `PowerLow`/`PowerHigh` as a
/// range), `Warmup`, `Cooldown` and `Ramp` (a ramp from `PowerLow` to `PowerHigh`),
/// `IntervalsT` (`Repeat` x on and off steps), `FreeRide` (no target), `MaxEffort` (no target:
/// all out), each with a `Duration` in seconds, and `textevent`/`TextEvent` prompts
/// (`timeoffset`, `message`) inside a step. `Cadence` becomes a cadence target on steps without
/// power. Any other step element is refused, naming its line.
enum ZwoPlanDecoder {
    static func decode(_ bytes: [UInt8], ftpWatts: Double?) throws(PlanError) -> Plan {
        var reader: XMLReader
        do { reader = try XMLReader(bytes, maxDepth: 16) } catch { throw PlanError(.line(error.line), "not well-formed XML: \(error)") }
        var name = ""
        var steps: [PlanStep] = []
        var path: [String] = []
        // The step being read (its prompts are its children), with what it unrolls to.
        var open: (element: String, body: [PlanStep], repeats: Int, line: Int)?
        while true {
            let event: XMLEvent?
            do { event = try reader.next() } catch { throw PlanError(.line(error.line), "not well-formed XML: \(error)") }
            guard let event else { break }
            let line = reader.line(at: reader.eventOffset)
            switch event {
            case .startElement(let n, let attributes):
                let local = n.local
                path.append(local)
                if path.count == 1 {
                    guard local == "workout_file" else { throw PlanError(.line(line), "not a Zwift workout: the root element is <\(local)>, not <workout_file>") }
                } else if path.count == 2, local == "name" {
                    do { name = try reader.readText() } catch { throw PlanError(.line(error.line), "not well-formed XML: \(error)") }
                    path.removeLast()
                } else if path.count == 3, path[1] == "workout" {
                    let (body, repeats) = try step(local, attributes, ftpWatts: ftpWatts, line: line)
                    open = (local, body, repeats, line)
                } else if path.count == 4, path[1] == "workout", local.lowercased() == "textevent", var o = open {
                    let offset = attributes.value(ofLocal: "timeoffset").flatMap(Double.init) ?? 0
                    let text = attributes.value(ofLocal: "message") ?? ""
                    guard offset.isFinite, offset >= 0 else { throw PlanError(.line(line), "textevent timeoffset \(offset) is negative") }
                    // A prompt belongs to the step its offset falls in (IntervalsT: on, off, on ...).
                    var at = offset
                    for k in o.body.indices {
                        if case .seconds(let s) = o.body[k].length, at >= s, k + 1 < o.body.count { at -= s; continue }
                        o.body[k].prompts.append(PlanStep.Prompt(offset: at, text: text))
                        break
                    }
                    open = o
                }
            case .endElement:
                if path.count == 3, path[1] == "workout", let o = open {
                    try PlanDecoder.repeatSteps(o.body, count: o.repeats, into: &steps, .line(o.line))
                    open = nil
                }
                path.removeLast()
            case .text, .comment, .processingInstruction:
                break
            }
        }
        guard !steps.isEmpty else { throw PlanError(.file, "the Zwift workout has no steps inside <workout>") }
        return Plan(name: name.isEmpty ? "Zwift workout" : name, steps: steps)
    }

    /// One step element: the steps it stands for (one, or IntervalsT's on and off) and how many
    /// times they repeat.
    static func step(_ element: String, _ a: [XMLAttribute], ftpWatts: Double?, line: Int) throws(PlanError) -> ([PlanStep], Int) {
        let at = PlanError.Location.line(line)
        func number(_ key: String) throws(PlanError) -> Double? {
            guard let text = a.value(ofLocal: key) else { return nil }
            guard let v = Double(text), v.isFinite else { throw PlanError(at, "<\(element)> \(key)=\"\(text)\" is not a number") }
            return v
        }
        func required(_ key: String) throws(PlanError) -> Double {
            guard let v = try number(key) else { throw PlanError(at, "<\(element)> has no \(key)") }
            return v
        }
        /// `key`, else `fallback` (IntervalsT writes OnPower, or PowerOnLow/PowerOnHigh).
        func either(_ key: String, _ fallback: String) throws(PlanError) -> Double {
            if let v = try number(key) { return v }
            return try required(fallback)
        }
        func watts(_ fraction: Double) throws(PlanError) -> Double { try PlanDecoder.watts(fraction: fraction, ftpWatts: ftpWatts, at) }
        func cadence(_ key: String) throws(PlanError) -> PlanTarget? {
            try number(key).map { .cadence(low: $0, high: $0) }
        }
        switch element {
        case "SteadyState", "SolidState":
            let duration = try required("Duration")
            let target: PlanTarget
            if let p = try number("Power") {
                let w = try watts(p)
                target = .power(low: w, high: w)
            } else if let low = try number("PowerLow"), let high = try number("PowerHigh") {
                target = .power(low: try watts(low), high: try watts(high))
            } else {
                target = try cadence("Cadence") ?? .none
            }
            return ([PlanStep(kind: .work, length: .seconds(duration), target: target)], 1)
        case "Warmup", "Cooldown", "Ramp":
            let duration = try required("Duration")
            let from = try watts(try required("PowerLow")), to = try watts(try required("PowerHigh"))
            let kind: PlanStep.Kind = element == "Warmup" ? .warmup : element == "Cooldown" ? .cooldown : .work
            return ([PlanStep(kind: kind, length: .seconds(duration), target: .powerRamp(from: from, to: to))], 1)
        case "IntervalsT":
            let r = try number("Repeat") ?? 1
            guard r >= 1, r <= Double(Plan.maxSteps), r == r.rounded() else {
                throw PlanError(at, "<IntervalsT> Repeat=\"\(a.value(ofLocal: "Repeat") ?? "")\" is not a count from 1 to \(Plan.maxSteps)")
            }
            let repeats = Int(r)
            let on = try required("OnDuration"), off = try required("OffDuration")
            let onPower = try watts(try either("OnPower", "PowerOnHigh"))
            let offPower = try watts(try either("OffPower", "PowerOffLow"))
            return ([PlanStep(kind: .work, length: .seconds(on), target: .power(low: onPower, high: onPower)),
                     PlanStep(kind: .recovery, length: .seconds(off), target: .power(low: offPower, high: offPower))], repeats)
        case "FreeRide":
            return ([PlanStep(kind: .free, length: .seconds(try required("Duration")))], 1)
        case "MaxEffort":
            return ([PlanStep(kind: .maxEffort, length: .seconds(try required("Duration")))], 1)
        default:
            throw PlanError(at, "<\(element)> is not a step this reader knows (SteadyState, Warmup, Cooldown, Ramp, IntervalsT, FreeRide, MaxEffort)")
        }
    }
}
