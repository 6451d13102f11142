/// A workout built from an imported file, with what the user should know about it: each
/// warning is one sentence (the track's own notes, times that run backwards, a track far
/// faster than its activity allows, a stretch its activity could not have done), put in the import result's `"warnings"` and the log.
/// The workout's points stay in the recorder's compact store (`recorded`): a long import is
/// saved from it without a copy of every point (`workout` builds the plain one when needed).
public struct ImportedWorkout: Sendable {
    public var recorded: RecordedWorkout
    public var warnings: [String]
    /// Which leg of a multisport file it is (1-based) and of how many; nil: the file's only workout.
    public var leg: (number: Int, of: Int)?

    /// `warnings` are the importer's; the workout's implausible stretches are named after them
    /// (when, how long, how fast: `ImplausibleStretch.warnings`), whichever importer built it.
    public init(recorded: RecordedWorkout, warnings: [String] = [], leg: (number: Int, of: Int)? = nil) {
        self.recorded = recorded
        self.warnings = warnings + ImplausibleStretch.warnings(recorded.summary.implausible, activity: recorded.summary.activity)
        self.leg = leg
    }

    public init(workout: Workout, warnings: [String] = []) {
        self.init(recorded: RecordedWorkout(workout), warnings: warnings)
    }

    /// The workout with its points as an array (a copy of every point).
    public var workout: Workout {
        get { recorded.workout }
        set { recorded = RecordedWorkout(newValue) }
    }
}

extension RecordedWorkout {
    /// A plain workout's points in the compact store.
    public init(_ w: Workout) { self = w.mapPoints(TrackPointStore.init) }
}
