/// A structured workout: its steps in the order they are ridden or run, repeats unrolled, every
/// power target in watts (a file's fractions of FTP resolved when it is read). Made by
/// `PlanDecoder` from a Zwift `.zwo` or the project's JSON plan (docs/plans.md), played by
/// `PlanMachine`.
public struct Plan: Sendable, Equatable {
    public var name: String
    public var steps: [PlanStep]

    /// The most steps a plan may have once its repeats are unrolled: a day of 10-second
    /// intervals is 8,640; a longer plan is refused before anything is built.
    public static let maxSteps = 10_000

    public init(name: String, steps: [PlanStep]) {
        self.name = name
        self.steps = steps
    }

    /// The seconds of the plan's timed steps (distance and open steps count nothing).
    public var timedSeconds: Double {
        steps.reduce(0) { total, step in
            switch step.length {
            case .seconds(let s): total + s
            case .meters, .open: total
            }
        }
    }
}

/// One step of a plan.
public struct PlanStep: Sendable, Equatable {
    public var kind: Kind
    public var length: Length
    public var target: PlanTarget
    /// Texts shown to the athlete, each at its offset in seconds from the step's start.
    public var prompts: [Prompt]

    public init(kind: Kind, length: Length, target: PlanTarget = .none, prompts: [Prompt] = []) {
        self.kind = kind
        self.length = length
        self.target = target
        self.prompts = prompts
    }

    /// What the step is for, as the plan names it.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case warmup, work, recovery, cooldown
        /// No target: ride as you like (Zwift's FreeRide).
        case free
        /// All out for the step's length (Zwift's MaxEffort).
        case maxEffort = "max_effort"

        /// As a person says it.
        public var words: String {
            switch self {
            case .warmup: "warm-up"
            case .work: "work"
            case .recovery: "recovery"
            case .cooldown: "cool-down"
            case .free: "free ride"
            case .maxEffort: "max effort"
            }
        }
    }

    /// How the step ends. Any step also ends early with `workoutctl next` (a lap press).
    public enum Length: Sendable, Equatable {
        /// After this many seconds of the workout's running time (pauses do not count).
        case seconds(Double)
        /// After this many meters of the workout's distance.
        case meters(Double)
        /// Only with `next`.
        case open
    }

    public struct Prompt: Sendable, Equatable {
        public var offset: Double
        public var text: String

        public init(offset: Double, text: String) {
            self.offset = offset
            self.text = text
        }
    }
}

/// What a step asks for. Power is what a smart trainer can hold (ERG); heart rate, cadence and
/// speed are shown to the athlete and prompted, never sent to a trainer.
public enum PlanTarget: Sendable, Equatable {
    case none
    /// Hold power between `low` and `high` watts (equal for one value).
    case power(low: Double, high: Double)
    /// Power moving from `from` to `to` watts over the step (a timed step only).
    case powerRamp(from: Double, to: Double)
    case heartRate(low: Double, high: Double)
    /// Revolutions (cycling) or steps (running) per minute.
    case cadence(low: Double, high: Double)
    /// Meters per second.
    case speed(low: Double, high: Double)
}

extension PlanTarget {
    /// The power a trainer is asked to hold at `fraction` (0...1) of the step, in whole watts;
    /// nil when the target is not power.
    public func watts(atFraction fraction: Double) -> Int? {
        switch self {
        case .power(let low, let high): Int(((low + high) / 2).rounded())
        case .powerRamp(let from, let to): Int((from + (to - from) * min(1, max(0, fraction))).rounded())
        case .none, .heartRate, .cadence, .speed: nil
        }
    }

    /// The range the actual value is judged against (a ramp: the whole ramp), nil without one.
    public var range: ClosedRange<Double>? {
        switch self {
        case .none: nil
        case .power(let low, let high), .heartRate(let low, let high), .cadence(let low, let high), .speed(let low, let high):
            min(low, high)...max(low, high)
        case .powerRamp(let from, let to): min(from, to)...max(from, to)
        }
    }

    /// The target's name in the protocol (`status.plan.step.target.kind`).
    public var kindName: String {
        switch self {
        case .none: "none"
        case .power: "power"
        case .powerRamp: "power_ramp"
        case .heartRate: "heart_rate"
        case .cadence: "cadence"
        case .speed: "speed"
        }
    }
}
