/// What the single action button (`workoutctl toggle`) does in a state.
public enum PrimaryAction: Sendable, Equatable {
    case start(ActivityType)
    case stop
    case resume
    /// Nothing can be done now (saving or restoring): the button is disabled.
    case unavailable
}

extension WorkoutLifecycle {
    /// The case name used in `status` JSON (`idle`, `restoring`, `active`, `paused`, `saving`).
    public var stateName: String {
        switch self {
        case .idle: return "idle"
        case .restoring: return "restoring"
        case .active: return "active"
        case .paused: return "paused"
        case .saving: return "saving"
        }
    }

    public var canStart: Bool {
        switch self {
        case .idle: return true
        case .restoring, .active, .paused, .saving: return false
        }
    }

    public var canPause: Bool {
        switch self {
        case .active: return true
        case .idle, .restoring, .paused, .saving: return false
        }
    }

    public var canResume: Bool {
        switch self {
        case .paused: return true
        case .idle, .restoring, .active, .saving: return false
        }
    }

    public var canStop: Bool {
        switch self {
        case .active, .paused: return true
        case .idle, .restoring, .saving: return false
        }
    }

    /// Whether a GPS source should be open now: only while actively recording an activity
    /// that `supportsGPS`.
    public var wantsGPS: Bool {
        switch self {
        case .active(let w): return w.activity.supportsGPS
        case .idle, .restoring, .paused, .saving: return false
        }
    }

    /// The one-button action, as a watch's single button would offer it.
    public func primaryAction(defaultActivity: ActivityType) -> PrimaryAction {
        switch self {
        case .idle(let last): return .start(last ?? defaultActivity)
        case .active: return .stop
        case .paused: return .resume
        case .restoring, .saving: return .unavailable
        }
    }

    /// The label such a button would show.
    public func actionTitle(defaultActivity: ActivityType) -> String {
        switch primaryAction(defaultActivity: defaultActivity) {
        case .start(let a): return "Start \(a.displayName.lowercased())"
        case .stop: return "Stop"
        case .resume: return "Resume"
        case .unavailable: return "Please wait"
        }
    }

    /// The workout this state is about, if any (in progress, paused or being saved).
    public var currentWorkoutID: WorkoutID? {
        switch self {
        case .active(let w), .paused(let w, _): return w.id
        case .saving(let job): return job.workout.id
        case .idle, .restoring: return nil
        }
    }

    /// The live or final summary of the current workout.
    public func summary(now: Double) -> WorkoutSummary? {
        switch self {
        case .active(let w), .paused(let w, _): return w.recorder.summary(now: now)
        case .saving(let job): return job.workout.summary
        case .idle, .restoring: return nil
        }
    }

    /// The save error being retried, if any.
    public var saveError: String? {
        switch self {
        case .saving(let job): return job.lastError
        case .idle, .restoring, .active, .paused: return nil
        }
    }
}
