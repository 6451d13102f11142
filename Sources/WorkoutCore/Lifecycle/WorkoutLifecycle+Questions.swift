/// What the single action button (`workoutctl toggle`) does in a state.
public enum PrimaryAction: Sendable, Equatable {
    case start(ActivityType)
    case stop
    case resume
    /// Nothing can be done now (restoring): the button is disabled.
    case unavailable
}

/// The lifecycle's phase as the user sees it (the `state` of `status`).
public enum LifecyclePhase: String, Sendable, Equatable, CaseIterable {
    case idle, restoring, active, paused, saving
}

/// Questions the shell asks; it never matches the state itself.
extension WorkoutLifecycle {
    /// The phase as the user sees it: a workout in progress is `active` or `paused` as its
    /// recorder says.
    public var phase: LifecyclePhase {
        switch state {
        case .idle: return .idle
        case .restoring: return .restoring
        case .recording(let w): return w.recorder.isPaused ? .paused : .active
        case .saving: return .saving
        case .modifying: assertionFailure("lifecycle observed while modifying"); return .restoring
        }
    }

    /// The case name used in `status` JSON (`idle`, `restoring`, `active`, `paused`, `saving`).
    public var stateName: String { phase.rawValue }

    /// The workout in progress (active or paused), if any.
    var workout: WorkoutInProgress? {
        switch state {
        case .recording(let w): return w
        case .idle, .restoring, .saving, .modifying: return nil
        }
    }

    /// A save in flight or failing does not block the next workout (it goes on in the background).
    public var canStart: Bool {
        switch phase {
        case .idle, .saving: return true
        case .restoring, .active, .paused: return false
        }
    }

    public var canPause: Bool {
        switch phase {
        case .active: return true
        case .idle, .restoring, .paused, .saving: return false
        }
    }

    public var canResume: Bool {
        switch phase {
        case .paused: return true
        case .idle, .restoring, .active, .saving: return false
        }
    }

    public var canStop: Bool {
        switch phase {
        case .active, .paused: return true
        case .idle, .restoring, .saving: return false
        }
    }

    /// Whether a workout is in progress (active or paused): its journal is open and flushed.
    public var hasWorkoutInProgress: Bool { workout != nil }

    /// Whether a GPS source should be open now: only while actively recording an activity
    /// that `supportsGPS`.
    public var wantsGPS: Bool {
        guard let w = workout else { return false }
        return w.activity.supportsGPS && !w.recorder.isPaused
    }

    /// Whether the heart-rate sensors should be open: a workout that uses them records.
    public var wantsSensors: Bool {
        guard let w = workout else { return false }
        return w.activity.usesHeartRateSensor && !w.recorder.isPaused
    }

    /// The user's pause (or a restore's) of the workout in progress, as its recorder holds it.
    public var userPause: UserPause? { workout?.recorder.userPause }

    /// When the workout in progress was last restored from its journal after the daemon stopped
    /// (its `recovered` event), if ever.
    public var restoredAt: Double? { workout?.recorder.events.last { $0.kind == .recovered }?.time }

    /// Whether a first attempt to save is still running (shutdown waits for it).
    public var firstSaveRunning: Bool {
        if unsaved.contains(where: { $0.failures == 0 }) { return true }
        switch state {
        case .saving(let job): return job.failures == 0
        case .idle, .restoring, .recording, .modifying: return false
        }
    }

    /// Finished workouts still being saved in the background while another one is recorded or
    /// the lifecycle is idle (their journals set aside), with their last save error.
    public var unsavedWorkouts: [(id: WorkoutID, error: String?)] { unsaved.map { ($0.workout.id, $0.lastError) } }

    /// The one-button action, as a watch's single button would offer it.
    public func primaryAction(defaultActivity: ActivityType) -> PrimaryAction {
        switch state {
        case .idle(let last): return .start(last ?? defaultActivity)
        case .recording(let w): return w.recorder.isPaused ? .resume : .stop
        case .saving(let job): return .start(job.workout.activity)
        case .restoring, .modifying: return .unavailable
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
        switch state {
        case .recording(let w): return w.id
        case .saving(let job): return job.workout.id
        case .idle, .restoring, .modifying: return nil
        }
    }

    /// The live or final summary of the current workout at the daemon's time `now`.
    public func summary(now: Double) -> WorkoutSummary? {
        switch state {
        case .recording(let w): return w.recorder.summary(now: w.time(at: now))
        case .saving(let job): return job.workout.summary
        case .idle, .restoring, .modifying: return nil
        }
    }

    /// The distance of the workout in progress so far (meters), nil without one: what a plan's
    /// distance steps follow.
    public var distanceMeters: Double? {
        switch state {
        case .recording(let w): return w.recorder.distance
        case .idle, .restoring, .saving, .modifying: return nil
        }
    }

    /// How many laps the workout in progress has closed, nil without one.
    public var lapCount: Int? {
        switch state {
        case .recording(let w): return w.recorder.lapCount
        case .idle, .restoring, .saving, .modifying: return nil
        }
    }

    /// The workout's own time at the daemon's time `now` (a simulation's clock, or `now`).
    public func workoutTime(at now: Double) -> Double { workout?.time(at: now) ?? now }

    /// The save error being retried, if any (the current workout's, else a background one's).
    public var saveError: String? {
        switch state {
        case .saving(let job): return job.lastError ?? unsaved.lazy.compactMap(\.lastError).first
        case .idle, .restoring, .recording, .modifying: return unsaved.lazy.compactMap(\.lastError).first
        }
    }

    /// One line for `systemctl status` (sd_notify STATUS=). `gpsFix`: the GPS fix label.
    public func headline(now: Double, savedWorkouts: Int, gpsFix: String) -> String {
        switch state {
        case .idle: return "Idle; \(EnglishCount.of(savedWorkouts, "workout")) saved"
        case .restoring: return "Restoring an interrupted workout"
        case .recording(let w):
            let s = w.recorder.summary(now: w.time(at: now))
            return "\(w.recorder.isPaused ? "Paused" : "Recording") \(s.activity.rawValue) \(formatDuration(s.elapsedSeconds)) \(formatFixed(s.distanceMeters / 1000, decimals: 2)) km; GPS \(gpsFix)"
        case .saving(let job):
            return job.lastError.map { "Saving \(job.workout.id) failed: \($0); retrying" } ?? "Saving \(job.workout.id)"
        case .modifying: return "Busy"
        }
    }
}
