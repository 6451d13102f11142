/// What the shell must do after a transition. The core decides; the shell performs.
public enum LifecycleAction: Sendable {
    /// Open a GPS source (the activity `supportsGPS` and a workout became active).
    case openGPS
    /// Close the GPS source (the workout was paused, stopped or ended).
    case closeGPS
    /// Open the configured heart-rate sensors (the activity `usesHeartRateSensor` and a workout
    /// became active).
    case openSensors
    /// Close them (paused, stopped or ended).
    case closeSensors
    /// A workout records: hold an inhibitor lock on sleep (config `sleepInhibitor`, docs/dbus.md).
    case inhibitSleep
    /// No workout records any more (paused or stopped): let the lock on sleep go.
    case allowSleep
    /// Append a record to the journal of the workout in progress: a control record durably at
    /// once, a fix written at the end of the read turn and fsync'd with the next flush.
    case journal(JournalRecord)
    /// The journal could not be restored (`reason`: unreadable, unrestorable): move it aside
    /// for a person to look at (never delete it); `badBytes` is what could not be read.
    case keepJournalAside(reason: String, badBytes: Int)
    /// Write this workout atomically in the background, then report `saveSucceeded`/`saveFailed`.
    case save(RecordedWorkout)
    /// Try this workout's save again after this many seconds (`retrySave(_:)`).
    case retrySave(WorkoutID, after: Double)
    /// The save is durable: the journal of this workout may go.
    case removeJournal(WorkoutID)
    /// A new workout starts while this finished one is still unsaved: keep its journal under
    /// its own name (`current.journal.unsaved-ID`) and begin a new one.
    case setJournalAside(WorkoutID)
    /// The save of a workout whose journal was set aside is durable: that file may go.
    case removeSetAsideJournal(WorkoutID)
    /// The save is durable: tell the user (streaks, personal bests, health report).
    case announceSaved(RecordedWorkout)
    /// A line for the log.
    case log(LifecycleLogEvent)
    /// A line for the log about what the recorder noticed (auto-pause, signal, splits ...).
    case logRecorder(RecorderLogEvent)
    /// The state changed: tell `watch` subscribers and the service manager (sd_notify STATUS).
    case publish
    /// The numbers moved (a tick while recording): tell `watch` subscribers.
    case publishProgress
    /// The workout's dates moved by this many seconds (its clock and its receiver's offset moved
    /// with them, in the core): they now come from the GPS receiver, or back from the system
    /// clock (`WorkoutLifecycle.datesChecked`, docs/time.md). Log it.
    case datesMoved(by: Double)
    /// A line for the log about the GPS receiver's clock (offset learned, step, outliers, problem).
    case logReceiverClock(ReceiverClockEvent)
}

/// A control command that does not fit the current state. Ordinary input, not a bug: it is
/// answered with a stable code and a sentence that names what is going on.
public enum LifecycleRefusal: Error, Sendable, Equatable {
    case workoutInProgress(WorkoutID, ActivityType)
    case noWorkout
    case saving(WorkoutID)
    case restoring
    case notPaused
    case alreadyPaused
    case nothingToToggle

    /// Stable machine-readable code (the protocol's `error.code`).
    public var code: String {
        switch self {
        case .workoutInProgress: return "workout_in_progress"
        case .noWorkout: return "no_workout"
        case .saving: return "saving"
        case .restoring: return "restoring"
        case .notPaused: return "not_paused"
        case .alreadyPaused: return "already_paused"
        case .nothingToToggle: return "nothing_to_toggle"
        }
    }

    public var message: String {
        switch self {
        case .workoutInProgress(let id, let activity):
            return "a \(activity.displayName.lowercased()) workout (\(id)) is already in progress; stop it first"
        case .noWorkout: return "no workout is in progress"
        case .saving(let id): return "workout \(id) is still being saved; try again in a moment"
        case .restoring: return "an interrupted workout is being restored; try again in a moment"
        case .notPaused: return "the workout is not paused"
        case .alreadyPaused: return "the workout is already paused"
        case .nothingToToggle: return "nothing to do while a workout is being saved or restored"
        }
    }
}
