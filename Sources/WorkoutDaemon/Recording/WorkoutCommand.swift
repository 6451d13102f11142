import WorkoutCore

/// A control request that changes the workout (`start`, `pause`, `lap` ...), as the router
/// hands it to the recording service (`RecordingService.run`); the reply is the status.
enum WorkoutCommand {
    case start(ActivityType)
    case startPlanned(ActivityType, PlanFile)
    case next
    case pause
    case resume
    case lap
    case marker(String?)
    case stop
    case toggle
}

extension RecordingService {
    /// Performs `command`: nil when done, else the refusal in words.
    func run(_ command: WorkoutCommand) -> ProtocolError? {
        let refusal: LifecycleRefusal?
        switch command {
        case .start(let activity): refusal = start(activity)
        case .startPlanned(let activity, let plan): return start(activity, plan: plan)
        case .next: return next()
        case .pause: refusal = pause()
        case .resume: refusal = resume()
        case .lap: refusal = lap()
        case .marker(let text): refusal = marker(text)
        case .stop: refusal = stop()
        case .toggle: refusal = toggle()
        }
        return refusal.map { ProtocolError(code: $0.code, message: $0.message) }
    }
}
