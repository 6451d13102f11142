/// Why a workout stopped counting time. Signal loss is a gap of its own, never a movement pause.
public enum PauseCause: String, Sendable, Codable, CaseIterable {
    case manual
    case auto
    case signalLost = "signal_lost"
    /// the daemon stopped (crash, kill, power loss) and restored the workout from its journal
    case recovered
    /// an imported file's device stopped its timer (FIT timer stop -> start): the time is left
    /// out like a user pause, but the track goes on: the resume measures the distance from the
    /// last fix before the stop (the device moved; docs/formats.md)
    case device
}

/// What happened during a workout, in HealthKit's vocabulary plus the gaps a daemon meets.
public enum WorkoutEventKind: String, Sendable, Codable, CaseIterable {
    case pause
    case resume
    case lap
    case marker
    case motionPaused = "motion_paused"
    case motionResumed = "motion_resumed"
    case segment
    case signalLost = "signal_lost"
    case signalRegained = "signal_regained"
    case recovered
    /// The machine was suspended (laptop lid, phone asleep): a gap on the timeline that counts in
    /// elapsed time, with no fixes, no moving time and no distance (docs/time.md).
    case suspended
}

/// One event of a workout's timeline.
public struct WorkoutEvent: Sendable, Equatable {
    public var kind: WorkoutEventKind
    /// UTC seconds since 1970, on the workout's clock.
    public var time: Double
    public var cause: PauseCause?
    /// Marker text, or a note ("gap of 42 s while the daemon was down").
    public var text: String?

    public init(kind: WorkoutEventKind, time: Double, cause: PauseCause? = nil, text: String? = nil) {
        self.kind = kind
        self.time = time
        self.cause = cause
        self.text = text
    }
}
