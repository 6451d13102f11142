/// The workout lifecycle: a struct around a private state enum whose cases carry exactly the
/// data of their phase, so a "saving while idle" or "paused without a workout" cannot be
/// written down. (The shape of postgres-nio's `ConnectionStateMachine`; the `modifying` case is
/// async-http-client's `avoidingStateMachineCoW`.)
///
/// Every event is a `mutating func` named after what happened (`WorkoutLifecycle+Transitions`,
/// `+Feed`); it takes time and IDs as inputs and returns the `LifecycleAction`s the shell must
/// perform, or a `LifecycleRefusal`. The shell asks questions (`WorkoutLifecycle+Questions`),
/// never matches the state.
///
/// Time: the workout in progress owns its time (docs/time.md): its time base (the wall time at
/// its start advanced by CLOCK_BOOTTIME, moved when a receiver dates it), its receiver's clock,
/// and the clock it follows (`WorkoutClock`: the system's, or a simulation feed's). The shell
/// reads the clocks (`ClockReading`) and asks `now(_:)` for the time every event takes; a
/// workout's start and restore take the reading itself.
///
/// Whether a workout is paused is the recorder's fact (`WorkoutRecorder.userPause`); the
/// lifecycle asks it and keeps no copy.
public struct WorkoutLifecycle: Sendable {
    enum State: Sendable {
        /// No workout. Remembers the last activity for the one-button `toggle`.
        /// -> recording (start), restoring (journal found at start-up)
        case idle(lastActivity: ActivityType?)
        /// A journal of an interrupted workout is being read back at start-up.
        /// -> recording (restored paused or auto-resumed; continued as it was after a shutdown),
        /// saving (a stop was in progress), idle
        case restoring
        /// A workout in progress: recording, auto-paused or paused by the user (the recorder's
        /// phase says which). -> saving (stop)
        case recording(WorkoutInProgress)
        /// The finished workout is being written to disk, or waiting to retry after a failed
        /// write. -> idle (saved), recording (start: the job moves to `unsaved`)
        case saving(SaveJob)
        /// Only inside a transition, while the payload is mutated in place (no copy of the
        /// track). Observing it elsewhere is a bug of this file.
        case modifying
    }

    var state: State

    /// Finished workouts whose save had not succeeded when the next workout started: each is
    /// still saved (and retried) in the background, its journal set aside until the save is
    /// durable. A save never keeps a person from recording the next workout.
    var unsaved: [SaveJob] = []

    /// A lifecycle with no workout (`lastActivity` is what `toggle` starts).
    public init(lastActivity: ActivityType? = nil) { state = .idle(lastActivity: lastActivity) }

    /// Mutates the workout in progress in place; nil (and no change) when there is none.
    mutating func withWorkout<R>(_ body: (inout WorkoutInProgress) -> R) -> R? {
        guard case .recording(var w) = state else { return nil }
        state = .modifying
        defer { state = .recording(w) }
        return body(&w)
    }
}

/// The workout in progress: the recorder accumulating points and numbers (which also holds its
/// phase: moving, auto-paused, paused ...) and every clock its time is read from: the one owner
/// of the workout's time.
public struct WorkoutInProgress: Sendable {
    public internal(set) var recorder: WorkoutRecorder
    /// The daemon's time during this workout: the wall time read at its start (or restore)
    /// advanced by CLOCK_BOOTTIME, so a suspend counts and a wall-clock step changes no
    /// duration; moved with its dates when a receiver dates it (`datesChecked`).
    public internal(set) var timeBase: WorkoutTimeBase
    /// The GPS receiver's clock against the workout's: places each fix (docs/time.md). Learned
    /// afresh at the start and at each resume (GPS opens again).
    public internal(set) var receiver = ReceiverClock()
    /// A simulation's last fix time minus the daemon's time at its arrival (status
    /// `gps.clockOffsetSeconds` while a simulation feeds the workout).
    public internal(set) var replayOffset: Double?
    /// Where the workout's time comes from.
    public internal(set) var clock: WorkoutClock = .system
    /// Set while the feeding source is a simulation (`FeedReplay`): its fixes move the clock.
    public internal(set) var replay: FeedReplay?
    /// A segment break the feeding source announced (a `SEGMENT` line: between two `<trkseg>`
    /// of a replayed file) after its fix at this time; the next fix ends it
    /// (`WorkoutLifecycle.segmentBreakReceived`).
    public internal(set) var segmentBreak: Double?
    /// What dates the workout (`WorkoutLifecycle.datesChecked`, docs/time.md).
    public internal(set) var dates = DateSource.system
    /// The settings from the configuration (a replayed device track is measured with the import
    /// rules derived from them).
    /// (A reload replaces them: `WorkoutLifecycle.settingsChanged`.)
    public internal(set) var baseSettings: MetricsSettings
    /// What the recorded fixes are: a receiver's output, or a device's track replayed by
    /// `simulate` (measured with the import rules). Set when the workout is rebased on a replay's
    /// first fix; the saved workout's `source` keeps it, so `edit` and `recompute` measure it
    /// with the same rules (`TrackOrigin.recordedSource`).
    public internal(set) var origin = TrackOrigin.receiver
    public var id: WorkoutID { recorder.id }
    public var activity: ActivityType { recorder.activity }

    public init(recorder: WorkoutRecorder, timeBase: WorkoutTimeBase, baseSettings: MetricsSettings, origin: TrackOrigin = .receiver) {
        self.recorder = recorder
        self.timeBase = timeBase
        self.baseSettings = baseSettings
        self.origin = origin
    }

    /// The workout's time at the daemon's `now`.
    public func time(at now: Double) -> Double { clock.time(at: now) }

    /// The receiver clock's offset as `status` shows it: a simulation's, else the receiver's.
    public var receiverOffset: Double? { replay == nil ? receiver.measuredOffset : replayOffset }
}

/// Where a workout's time comes from.
public enum WorkoutClock: Sendable, Equatable {
    /// The daemon's clock.
    case system
    /// A simulation feed's: its last fix time, the daemon's time when that fix arrived, and the
    /// replay speed (0 once the feed closed: the clock stops at its last fix).
    case feed(lastFixTime: Double, receivedAt: Double, speed: Double)

    /// The workout's time at the daemon's time `now`.
    public func time(at now: Double) -> Double {
        switch self {
        case .system: return now
        case .feed(let t, let at, let speed): return t + (now - at) * speed
        }
    }
}

/// A simulation feed (the `SIMULATION` header, docs/protocol.md): the workout follows the
/// feed's time at `speed`, and a device-recorded track is measured with the import rules.
public struct FeedReplay: Sendable, Equatable {
    public var speed: Double
    public var origin: TrackOrigin
    public init(speed: Double, origin: TrackOrigin) { self.speed = speed; self.origin = origin }
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
