/// The plan's log lines (docs/logging.md): each step starts with `plan.step`, which
/// `notifications.events` can turn into a desktop notice.
public enum PlanLogEvent: LogEvent, Equatable {
    /// A workout started with a plan.
    case started(name: String, steps: Int, timedSeconds: Double)
    /// Step `index` (0-based) of `count` began.
    case step(index: Int, count: Int, step: PlanStep)
    /// A prompt of the plan's step.
    case prompt(String)
    /// The plan ended: its last step done, or the workout stopped inside it.
    case finished(name: String, end: PlanMachine.End, step: Int, count: Int)
    /// A restored workout goes on with its plan in step `step` (0-based) of `count`.
    case restored(name: String, step: Int, count: Int)

    public var name: String {
        switch self {
        case .started: "plan.started"
        case .step: "plan.step"
        case .prompt: "plan.prompt"
        case .finished: "plan.finished"
        case .restored: "plan.restored"
        }
    }

    public var message: String {
        switch self {
        case .started(let name, let steps, let seconds):
            "Plan \(name): \(steps) steps" + (seconds > 0 ? ", \(formatDuration(seconds)) timed" : "")
        case .step(let index, let count, let step): "Step \(index + 1) of \(count): \(step.describe)"
        case .prompt(let text): text
        case .finished(let name, .completed, _, _): "Plan \(name) done"
        case .finished(let name, .stopped, let step, let count): "Plan \(name) stopped in step \(step + 1) of \(count)"
        case .restored(let name, let step, let count): "Plan \(name) goes on in step \(step + 1) of \(count)"
        }
    }

    public var fields: [(String, LogValue)] {
        switch self {
        case .started(let name, let steps, let seconds):
            [("plan", .string(name)), ("steps", .int(steps)), ("timed_s", .int(Int(seconds.rounded())))]
        case .step(let index, let count, let step):
            [("step", .int(index + 1)), ("of", .int(count)), ("kind", .string(step.kind.rawValue)), ("target", .string(step.target.kindName))]
                + (step.target.watts(atFraction: 0).map { [("watts", LogValue.int($0))] } ?? [])
        case .prompt(let text): [("text", .string(text))]
        case .finished(let name, let end, let step, let count):
            [("plan", .string(name)), ("end", .string(end == .completed ? "completed" : "stopped")), ("step", .int(step + 1)), ("of", .int(count))]
        case .restored(let name, let step, let count): [("plan", .string(name)), ("step", .int(step + 1)), ("of", .int(count))]
        }
    }
}
