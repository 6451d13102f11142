extension WorkoutLifecycle {
    /// The points and events of the workout in progress (or being saved), for the live page.
    public var liveTrack: (points: TrackPointStore, events: [WorkoutEvent])? {
        switch state {
        case .recording(let w): return (w.recorder.points, w.recorder.events)
        case .saving(let job): return (job.workout.points, job.workout.events)
        case .idle, .restoring, .modifying: return nil
        }
    }
}
