/// A workout built from an imported file, with what the user should know about it: each
/// warning is one sentence (the track's own notes, times that run backwards, a track far
/// faster than its activity allows), put in the import result's `"warnings"` and the log.
public struct ImportedWorkout: Sendable {
    public var workout: Workout
    public var warnings: [String]

    public init(workout: Workout, warnings: [String] = []) {
        self.workout = workout
        self.warnings = warnings
    }
}
