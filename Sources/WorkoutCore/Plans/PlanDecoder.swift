/// Reads a plan file (docs/plans.md): a Zwift workout (`.zwo`, XML), a FIT workout file or the
/// project's JSON plan, told apart by their first bytes. Everything is checked before a plan is returned: a bad plan
/// is refused with the line (XML) or the step (JSON) and what is wrong, and never half-built.
/// Power given as a fraction of FTP becomes watts with `ftpWatts`; a plan that needs it without
/// one is refused.
public enum PlanDecoder {
    /// The largest plan file read: a long Zwift plan is ~20 KB.
    public static let maxBytes = 1 << 20
    /// Power a step may ask for (watts, after FTP): a trainer's range, with room.
    public static let wattsRange = 1.0...2_500.0
    /// A fraction of FTP a step may ask for (Zwift's MaxEffort-like steps go to ~2.5).
    public static let fractionRange = 0.05...5.0
    /// The longest step, and the longest plan of timed steps: 24 hours.
    public static let maxSeconds = 86_400.0
    /// The longest distance step: 1,000 km.
    public static let maxMeters = 1_000_000.0
    /// Heart rate, cadence and speed a target may name.
    public static let heartRateRange = 25.0...250.0
    public static let cadenceRange = 1.0...250.0
    public static let speedRange = 0.1...30.0

    /// `heartRateZones` and `maxHeartRate` turn a FIT workout's heart-rate zones and
    /// percentages into bpm (a plan that needs them without them is refused).
    public static func decode(_ bytes: [UInt8], ftpWatts: Double?, heartRateZones: HeartRateZones? = nil,
                              maxHeartRate: Int? = nil) throws(PlanError) -> Plan {
        guard bytes.count <= maxBytes else { throw PlanError(.file, "the plan file is \(bytes.count) bytes; at most \(maxBytes) are read") }
        guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) else {
            throw PlanError(.file, "the plan file is empty")
        }
        let plan: Plan
        if FITMessageDecoder.looksLikeFIT(bytes) {
            plan = try FITPlanDecoder.decode(bytes, ftpWatts: ftpWatts, heartRateZones: heartRateZones, maxHeartRate: maxHeartRate)
            try check(plan)
            return plan
        }
        switch first {
        case UInt8(ascii: "{"): plan = try JSONPlanDecoder.decode(bytes, ftpWatts: ftpWatts)
        case UInt8(ascii: "<"): plan = try ZwoPlanDecoder.decode(bytes, ftpWatts: ftpWatts)
        default:
            throw PlanError(.file, "not a plan: neither a Zwift .zwo (XML), a FIT workout nor a JSON plan")
        }
        try check(plan)
        return plan
    }

    /// The checks every plan passes whatever its format: steps, lengths, targets in range.
    static func check(_ plan: Plan) throws(PlanError) {
        guard !plan.steps.isEmpty else { throw PlanError(.file, "the plan has no steps") }
        for (i, step) in plan.steps.enumerated() { try check(step, at: .step(i + 1)) }
        guard plan.timedSeconds <= maxSeconds else {
            throw PlanError(.file, "the plan's timed steps last \(Int(plan.timedSeconds)) s; at most \(Int(maxSeconds)) s (24 h)")
        }
    }

    /// One step's length, target and prompts in range (`at`: where the refusal says it is).
    static func check(_ step: PlanStep, at: PlanError.Location) throws(PlanError) {
        switch step.length {
        case .seconds(let s):
            guard s.isFinite, s >= 1, s <= maxSeconds else { throw PlanError(at, "duration \(s) s is outside 1 s to 24 h") }
        case .meters(let m):
            guard m.isFinite, m >= 1, m <= maxMeters else { throw PlanError(at, "distance \(m) m is outside 1 m to 1,000 km") }
        case .open:
            break
        }
        switch step.target {
        case .none:
            break
        case .power(let low, let high):
            try inRange([low, high], wattsRange, "power", "W", at)
        case .powerRamp(let from, let to):
            try inRange([from, to], wattsRange, "power", "W", at)
            guard case .seconds = step.length else { throw PlanError(at, "a ramp needs a duration in seconds") }
        case .heartRate(let low, let high):
            try inRange([low, high], heartRateRange, "heart rate", "bpm", at)
        case .cadence(let low, let high):
            try inRange([low, high], cadenceRange, "cadence", "per minute", at)
        case .speed(let low, let high):
            try inRange([low, high], speedRange, "speed", "m/s", at)
        }
        for p in step.prompts {
            guard p.offset.isFinite, p.offset >= 0 else { throw PlanError(at, "a prompt's offset \(p.offset) s is negative") }
        }
    }

    static func inRange(_ values: [Double], _ range: ClosedRange<Double>, _ what: String, _ unit: String,
                        _ at: PlanError.Location) throws(PlanError) {
        for v in values where !(v.isFinite && range.contains(v)) {
            throw PlanError(at, "\(what) \(formatFixed(v, decimals: 1)) \(unit) is outside \(formatFixed(range.lowerBound, decimals: 0))-\(formatFixed(range.upperBound, decimals: 0)) \(unit)")
        }
    }

    /// Watts from a fraction of FTP, refusing a fraction out of range or a missing FTP.
    static func watts(fraction: Double, ftpWatts: Double?, _ at: PlanError.Location) throws(PlanError) -> Double {
        guard fraction.isFinite, fractionRange.contains(fraction) else {
            throw PlanError(at, "power \(formatFixed(fraction, decimals: 2)) x FTP is outside \(fractionRange.lowerBound)-\(fractionRange.upperBound) x FTP")
        }
        guard let ftp = ftpWatts, ftp > 0 else { throw PlanError(at, "power is a fraction of FTP, and ftpWatts is not set in the configuration") }
        return fraction * ftp
    }

    /// Appends `count` copies of `body`, refusing a plan that would grow past `Plan.maxSteps`
    /// before anything is copied.
    static func repeatSteps(_ body: [PlanStep], count: Int, into steps: inout [PlanStep], _ at: PlanError.Location) throws(PlanError) {
        guard count >= 1 else { throw PlanError(at, "repeat count \(count) is less than 1") }
        let (total, overflow) = body.count.multipliedReportingOverflow(by: count)
        guard !overflow, steps.count + total <= Plan.maxSteps else {
            throw PlanError(at, "\(count) repeats make the plan longer than \(Plan.maxSteps) steps")
        }
        for _ in 0..<count { steps += body }
    }
}

/// Why a plan was refused: where (a line of a .zwo, a step of a JSON plan or of the plan as
/// unrolled, the file) and what.
public struct PlanError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Location: Sendable, Equatable {
        case file
        case line(Int)
        /// A step of the plan as unrolled, 1-based, as a person counts.
        case step(Int)
        /// A step of a JSON plan by its place in the file: `2.1` is the first step inside the
        /// second entry.
        case entry(String)
        /// A FIT workout's `workout_step` by its `message_index` (counted from 0, as in the file).
        case workoutStep(Int)
    }

    public var location: Location
    public var reason: String

    public init(_ location: Location, _ reason: String) {
        self.location = location
        self.reason = reason
    }

    public var description: String {
        switch location {
        case .file: reason
        case .line(let n): "line \(n): \(reason)"
        case .step(let n): "step \(n): \(reason)"
        case .entry(let path): "step \(path): \(reason)"
        case .workoutStep(let n): "workout_step \(n): \(reason)"
        }
    }
}
