/// The workout lifecycle: one enum whose cases carry exactly the data of their phase, so a
/// "saving while idle" or "paused without a workout" cannot be written down.
///
/// Transitions are pure (`WorkoutLifecycle+Transitions.swift`): they take time and IDs as
/// inputs and return the `LifecycleAction`s the shell must perform. Questions (`canStart`,
/// `primaryAction`, ...) are answered in `WorkoutLifecycle+Questions.swift`.
public enum WorkoutLifecycle: Sendable {
    /// No workout. Remembers the last activity for the one-button `toggle`.
    /// -> active (start), restoring (journal found at start-up)
    case idle(lastActivity: ActivityType?)
    /// A journal of an interrupted workout is being read back at start-up.
    /// -> paused or active (restored), saving (a stop was in progress), idle (nothing usable)
    case restoring
    /// Recording. Auto-pauses (no movement) happen inside this state, in the recorder.
    /// -> paused (pause), saving (stop)
    case active(ActiveWorkout)
    /// Recording suspended by the user, or after a restore.
    /// -> active (resume), saving (stop)
    case paused(ActiveWorkout, PausedInfo)
    /// The finished workout is being written to disk, or waiting to retry after a failed write.
    /// -> idle (saved)
    case saving(SaveJob)
}

/// The workout being recorded: its identity and the recorder accumulating points and numbers.
public struct ActiveWorkout: Sendable {
    public var recorder: WorkoutRecorder
    public var id: WorkoutID { recorder.id }
    public var activity: ActivityType { recorder.activity }

    public init(recorder: WorkoutRecorder) { self.recorder = recorder }
}

/// Why and since when a workout is paused.
public struct PausedInfo: Sendable, Equatable {
    public var since: Double
    public var cause: PauseCause
    public init(since: Double, cause: PauseCause) { self.since = since; self.cause = cause }
}

/// A finished workout on its way to disk.
public struct SaveJob: Sendable {
    public var workout: RecordedWorkout
    /// Failed attempts so far.
    public var failures: Int
    /// The last write error in words, shown by `status` until a save succeeds.
    public var lastError: String?
    /// When the next attempt is due (nil while an attempt is running).
    public var retryAt: Double?

    public init(workout: RecordedWorkout, failures: Int = 0, lastError: String? = nil, retryAt: Double? = nil) {
        self.workout = workout; self.failures = failures; self.lastError = lastError; self.retryAt = retryAt
    }
}
