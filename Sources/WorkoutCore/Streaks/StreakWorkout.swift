/// What the streak and habit rules need of a workout, recorded or imported alike.
public struct StreakWorkout: Sendable, Equatable {
    /// Start instant, seconds since 1970 UTC. The workout counts for the streak day of its start.
    public var startedAt: Double
    /// Duration in seconds, compared with `StreakSettings.minimumWorkoutSeconds`.
    public var durationSeconds: Double
    /// The UTC offset (seconds east) in force where the workout was recorded, when the store kept
    /// it. When present it decides the workout's local date, so a trip to another zone does not
    /// move days already lived; when nil the configured zone's rules at `startedAt` decide.
    public var utcOffset: Int?
    /// The activity (nil: unknown; such a workout counts only for habits of any activity).
    public var activity: ActivityType?
    /// Distance in metres (habits with a minimum or a summed distance).
    public var distanceMeters: Double

    public init(startedAt: Double, durationSeconds: Double, utcOffset: Int? = nil, activity: ActivityType? = nil, distanceMeters: Double = 0) {
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.utcOffset = utcOffset
        self.activity = activity
        self.distanceMeters = distanceMeters
    }

    /// From a saved or imported summary: its start, its timer's time (manual pauses excluded),
    /// activity and distance.
    public init(_ summary: WorkoutSummary, utcOffset: Int? = nil) {
        self.init(startedAt: summary.startedAt, durationSeconds: summary.timerSeconds, utcOffset: utcOffset,
                  activity: summary.activity, distanceMeters: summary.distanceMeters)
    }
}
