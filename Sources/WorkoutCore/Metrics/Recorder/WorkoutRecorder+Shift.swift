extension WorkoutRecorder {
    /// The same workout with every date moved by `seconds` (its start, points and events): dated
    /// by a GPS receiver while the system clock is unsynchronized, or back (docs/time.md). Built
    /// again from the moved points and events (`rebuild`), so durations, distance and the phase
    /// (a pause in progress included) are those of the unmoved workout.
    public func shifted(by seconds: Double) -> WorkoutRecorder {
        guard seconds != 0, seconds.isFinite else { return self }
        let moved = points.map { p in
            var q = p
            q.fix.time += seconds
            return q
        }
        let events = events.map { e in
            var f = e
            f.time += seconds
            return f
        }
        return WorkoutRecorder.rebuild(id: id, activity: activity, startedAt: startedAt + seconds, settings: settings,
                                       points: moved, events: events)
    }
}
