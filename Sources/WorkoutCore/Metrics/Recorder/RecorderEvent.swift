/// What happened when the recorder was told something.
public enum RecorderEvent: Sendable, Equatable {
    /// The fix was accepted into the track (see `summary` for the distance).
    case accepted
    /// The fix was kept with this reason and adds nothing.
    case rejected(RejectionReason)
    /// The fix arrived while the workout was paused by the user: not recorded.
    case ignoredWhilePaused
    /// A new track segment began (its index).
    case segmentStarted(Int)
    /// An entry of the workout's timeline (motion paused/resumed, signal lost/regained, pause,
    /// resume, lap, marker, segment, recovered), exactly as appended to `events`.
    case timeline(WorkoutEvent)
    /// A split (every km or mile) closed.
    case splitCompleted(LapSummary)
    /// A lap (manual, automatic by distance, or the last one at the end) closed.
    case lapCompleted(LapSummary)
    /// Fixes arrive far faster than the activity allows (once per workout).
    case tooFastForActivity(SpeedWarning)
}
