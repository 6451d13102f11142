/// A FIT workout file (file type workout, 5; docs/plans.md, "FIT workout files") as a plan: the
/// `workout` message (26) names it, its `workout_step` messages (27) are the steps, read with
/// the FIT reader's record and CRC layer (`FITMessageDecoder`).
///
/// - Durations: time (`duration_value` in ms), distance (cm), open, and
///   `repeat_until_steps_cmplt` (repeat the steps from `message_index` `duration_value` on,
///   `target_value` times in all; nested repeats unroll from the inside out). Other durations
///   (until a heart rate, a power, calories ...) are refused, naming the step.
/// - Targets: power (and its 3 s, 10 s, 30 s and lap forms), heart rate (and lap), cadence,
///   speed (and lap), open. A custom range (`target_value` 0) as the profile says: power above
///   1000 is watts + 1000, else % of FTP; heart rate above 100 is bpm + 100, else % of the
///   maximum; speed in mm/s; cadence per minute. A zone (`target_value` 1...): power zones 1-7
///   of FTP (`powerZones`), heart-rate zones from the configuration; cadence and speed zones
///   live on the watch, so they are refused.
/// - `intensity` gives the step's kind; the step's name and notes are its prompt at its start.
///
/// Anything damaged (a CRC that does not match, a file cut short, a definition that cannot be
/// right) refuses the whole file: a plan is never half-read.
enum FITPlanDecoder {
    /// Coggan's power zones 1-7 as fractions of FTP (zone 1 from 0.40, zone 7 up to 2.00: the
    /// trainer holds the middle of the zone).
    static let powerZones: [ClosedRange<Double>] = [0.40...0.55, 0.56...0.75, 0.76...0.90, 0.91...1.05, 1.06...1.20, 1.21...1.50, 1.51...2.00]

    /// A `workout_step` as the file gives it (nil: absent).
    struct RawStep {
        var messageIndex: Int
        var name: String?
        var notes: String?
        var durationType: UInt64?
        var durationValue: UInt64?
        var targetType: UInt64?
        var targetValue: UInt64?
        var low: UInt64?
        var high: UInt64?
        var intensity: UInt64?
    }

    /// Whether the walk met the `file_id` message, and the file type it gave.
    enum FileID {
        case unseen
        case seen(type: UInt64?)
    }

    static func decode(_ bytes: [UInt8], ftpWatts: Double?, heartRateZones: HeartRateZones?, maxHeartRate: Int?) throws(PlanError) -> Plan {
        var raw: [RawStep] = []
        var name: String?
        var fileID = FileID.unseen
        let walked: Result<FITMessageDecoder.Outcome, FITError> = bytes.withUnsafeBufferPointer { buf in
            do throws(FITError) {
                return .success(try FITMessageDecoder.walk(buf) { (m) throws(FITError) in
                    switch m.global {
                    case 0:
                        if case .unseen = fileID { fileID = .seen(type: m.uint(0)) }
                    case 26:
                        if name == nil { name = m.text(8) }
                    case 27:
                        guard raw.count < Plan.maxSteps else { throw .tooMany("workout steps", limit: Plan.maxSteps) }
                        raw.append(RawStep(messageIndex: m.uint(254).map { Int($0) } ?? raw.count, name: m.text(0), notes: m.text(8),
                                           durationType: m.uint(1), durationValue: m.uint(2), targetType: m.uint(3),
                                           targetValue: m.uint(4), low: m.uint(5), high: m.uint(6), intensity: m.uint(7)))
                    default:
                        break
                    }
                })
            } catch {
                return .failure(error)
            }
        }
        let outcome: FITMessageDecoder.Outcome
        switch walked {
        case .success(let o): outcome = o
        case .failure(.tooMany(_, let limit)): throw PlanError(.file, "the FIT workout has more than \(limit) workout steps")
        case .failure(let e): throw PlanError(.file, "\(e)")
        }
        if let damage = outcome.damage.first { throw PlanError(.file, refusal(damage, after: raw.count)) }
        switch fileID {
        case .unseen: throw PlanError(.file, "a FIT file without a file_id message, not a workout")
        case .seen(let type?) where type != 5:
            throw PlanError(.file, "a FIT \(FITActivityFile.fileTypeName(UInt8(truncatingIfNeeded: type))) file, not a workout (file type 5)")
        case .seen:
            break
        }
        guard !raw.isEmpty else { throw PlanError(.file, "the FIT workout has no workout_step messages") }
        let context = Context(ftpWatts: ftpWatts, heartRateZones: heartRateZones, maxHeartRate: maxHeartRate)
        return Plan(name: name ?? "Workout", steps: try unroll(raw, context))
    }

    /// What a damaged file is refused with.
    static func refusal(_ damage: FITDamage, after steps: Int) -> String {
        let read = "after \(steps) workout step\(steps == 1 ? "" : "s"); the plan is not read"
        switch damage {
        case .fileCRC(let o, let s, let c):
            return "the FIT file's CRC at byte \(o) does not match its bytes (stored \(FITDamage.hex(s)), computed \(FITDamage.hex(c))): the file is damaged; the plan is not read"
        case .headerCRC(let o, let s, let c):
            return "the FIT header's CRC at byte \(o) does not match (stored \(FITDamage.hex(s)), computed \(FITDamage.hex(c))): the file is damaged; the plan is not read"
        case .truncated(let o):
            return "the FIT file is cut short at byte \(o), \(read)"
        case .undefinedLocalType(let o, let local, _):
            return "corrupt FIT data at byte \(o) (a message of local type \(local) without a definition), \(read)"
        case .badDefinition(let o, let why, _):
            return "corrupt FIT definition at byte \(o) (\(why)), \(read)"
        case .overrun(let o, _):
            return "corrupt FIT data at byte \(o) (a message runs past the data its header declares), \(read)"
        case .badChainedHeader(let o, let why, _):
            return "a second FIT file at byte \(o) is damaged (\(why)): a workout is one file; the plan is not read"
        }
    }

    /// What turns zones and percentages into watts and bpm.
    struct Context {
        var ftpWatts: Double?
        var heartRateZones: HeartRateZones?
        var maxHeartRate: Int?
    }

    /// The steps in order, repeats unrolled (bounded by `Plan.maxSteps` before anything is copied).
    static func unroll(_ raw: [RawStep], _ context: Context) throws(PlanError) -> [PlanStep] {
        var steps: [PlanStep] = []
        /// Where each step's first time through begins in `steps`, by message_index.
        var begins: [Int: Int] = [:]
        for r in raw {
            let at = PlanError.Location.workoutStep(r.messageIndex)
            guard begins[r.messageIndex] == nil else { throw PlanError(at, "message_index \(r.messageIndex) is given twice") }
            begins[r.messageIndex] = steps.count
            guard let durationType = r.durationType else { throw PlanError(at, "the step has no duration_type") }
            if durationType == 6 {
                // repeat_until_steps_cmplt: duration_step, repeat_steps.
                guard let from = r.durationValue.map({ Int(clamping: $0) }), from < r.messageIndex, let begin = begins[from] else {
                    throw PlanError(at, "a repeat goes back to step \(r.durationValue.map { "\($0)" } ?? "(none)"), which is not an earlier step")
                }
                guard let count = r.targetValue, count >= 1 else { throw PlanError(at, "a repeat needs a count (repeat_steps) of at least 1") }
                let body = Array(steps[begin...])
                guard !body.isEmpty else { throw PlanError(at, "the repeat from step \(from) repeats no steps") }
                guard count > 1 else { continue }
                let (total, overflow) = body.count.multipliedReportingOverflow(by: Int(clamping: count - 1))
                guard count <= UInt64(Plan.maxSteps), !overflow, steps.count + total <= Plan.maxSteps else {
                    throw PlanError(at, "\(count) repeats make the plan longer than \(Plan.maxSteps) steps")
                }
                try PlanDecoder.repeatSteps(body, count: Int(count) - 1, into: &steps, at)
                continue
            }
            guard steps.count < Plan.maxSteps else { throw PlanError(at, "the plan is longer than \(Plan.maxSteps) steps") }
            let step = try self.step(r, durationType: durationType, context, at)
            try PlanDecoder.check(step, at: at)
            steps.append(step)
        }
        return steps
    }

    /// One step that is not a repeat.
    static func step(_ r: RawStep, durationType: UInt64, _ context: Context, _ at: PlanError.Location) throws(PlanError) -> PlanStep {
        let length: PlanStep.Length
        switch durationType {
        case 0:
            guard let ms = r.durationValue else { throw PlanError(at, "a timed step without its time (duration_value)") }
            length = .seconds(Double(ms) / 1000)
        case 1:
            guard let cm = r.durationValue else { throw PlanError(at, "a distance step without its distance (duration_value)") }
            length = .meters(Double(cm) / 100)
        case 5:
            length = .open
        default:
            throw PlanError(at, "a step that lasts \(durationName(durationType)) is not supported (time, distance, open and repeat_until_steps_cmplt are)")
        }
        let target = try self.target(r, context, at)
        let text = [r.name, r.notes].compactMap { $0 }.joined(separator: ": ")
        let prompts = text.isEmpty ? [] : [PlanStep.Prompt(offset: 0, text: String(text.prefix(200)))]
        return PlanStep(kind: kind(r.intensity), length: length, target: target, prompts: prompts)
    }

    /// The step's kind from its `intensity` (active, interval and other: work).
    static func kind(_ intensity: UInt64?) -> PlanStep.Kind {
        switch intensity {
        case 1?, 4?: .recovery
        case 2?: .warmup
        case 3?: .cooldown
        default: .work
        }
    }

    /// The step's target: a custom range or a zone, in watts, bpm, per minute or m/s.
    static func target(_ r: RawStep, _ context: Context, _ at: PlanError.Location) throws(PlanError) -> PlanTarget {
        enum Measure { case power, heartRate, cadence, speed }
        let measure: Measure
        switch r.targetType {
        case nil, 2?: return .none
        case 4?, 7?, 8?, 9?, 10?: measure = .power
        case 1?, 13?: measure = .heartRate
        case 3?: measure = .cadence
        case 0?, 12?: measure = .speed
        case let t?: throw PlanError(at, "a \(targetName(t)) target is not supported (power, heart rate, cadence, speed and open are)")
        }
        if let zone = r.targetValue, zone != 0 {
            switch measure {
            case .power:
                guard zone <= UInt64(powerZones.count) else { throw PlanError(at, "power zone \(zone) is not one of 1-\(powerZones.count)") }
                let z = powerZones[Int(zone) - 1]
                return .power(low: try PlanDecoder.watts(fraction: z.lowerBound, ftpWatts: context.ftpWatts, at),
                              high: try PlanDecoder.watts(fraction: z.upperBound, ftpWatts: context.ftpWatts, at))
            case .heartRate:
                guard let zones = context.heartRateZones else {
                    throw PlanError(at, "heart-rate zone \(zone) needs heartRate (maxBpm, zones) or age in the configuration")
                }
                let bounds = zones.lowerBounds
                guard zone <= UInt64(bounds.count) else { throw PlanError(at, "heart-rate zone \(zone) is not one of 1-\(bounds.count)") }
                let k = Int(zone) - 1
                let low = Double(bounds[k])
                if k + 1 < bounds.count { return .heartRate(low: low, high: Double(bounds[k + 1] - 1)) }
                guard let max = context.maxHeartRate else { throw PlanError(at, "heart-rate zone \(zone) has no upper bound without heartRate.maxBpm or age") }
                return .heartRate(low: low, high: Double(max))
            case .cadence, .speed:
                throw PlanError(at, "a \(measure == .cadence ? "cadence" : "speed") zone (\(zone)) is the watch's own; use a custom range")
            }
        }
        guard let lowRaw = r.low ?? r.high, let highRaw = r.high ?? r.low else {
            throw PlanError(at, "a \(targetName(r.targetType ?? 2)) target without a zone or a custom range")
        }
        func value(_ v: UInt64) throws(PlanError) -> Double {
            switch measure {
            case .power:
                if v > 1000 { return Double(v - 1000) }
                return try PlanDecoder.watts(fraction: Double(v) / 100, ftpWatts: context.ftpWatts, at)
            case .heartRate:
                if v > 100 { return Double(v - 100) }
                guard let max = context.maxHeartRate else { throw PlanError(at, "heart rate \(v) % of the maximum needs heartRate.maxBpm or age in the configuration") }
                return Double(v) / 100 * Double(max)
            case .cadence:
                return Double(v)
            case .speed:
                return Double(v) / 1000
            }
        }
        let low = try value(lowRaw), high = try value(highRaw)
        switch measure {
        case .power: return .power(low: low, high: high)
        case .heartRate: return .heartRate(low: low.rounded(), high: high.rounded())
        case .cadence: return .cadence(low: low, high: high)
        case .speed: return .speed(low: low, high: high)
        }
    }

    /// The profile's name of a `wkt_step_duration`.
    static func durationName(_ t: UInt64) -> String {
        let names = ["time", "distance", "hr_less_than", "hr_greater_than", "calories", "open", "repeat_until_steps_cmplt",
                     "repeat_until_time", "repeat_until_distance", "repeat_until_calories", "repeat_until_hr_less_than",
                     "repeat_until_hr_greater_than", "repeat_until_power_less_than", "repeat_until_power_greater_than",
                     "power_less_than", "power_greater_than", "training_peaks_tss", "repeat_until_power_last_lap_less_than",
                     "repeat_until_max_power_last_lap_less_than", "power_3s_less_than", "power_10s_less_than", "power_30s_less_than",
                     "power_3s_greater_than", "power_10s_greater_than", "power_30s_greater_than", "power_lap_less_than",
                     "power_lap_greater_than", "repeat_until_training_peaks_tss", "repetition_time", "reps"]
        if t == 31 { return "time_only" }
        return t < UInt64(names.count) ? names[Int(t)] : "duration type \(t)"
    }

    /// The profile's name of a `wkt_step_target`.
    static func targetName(_ t: UInt64) -> String {
        let names = ["speed", "heart_rate", "open", "cadence", "power", "grade", "resistance", "power_3s", "power_10s", "power_30s",
                     "power_lap", "swim_stroke", "speed_lap", "heart_rate_lap"]
        return t < UInt64(names.count) ? names[Int(t)] : "target type \(t)"
    }
}
