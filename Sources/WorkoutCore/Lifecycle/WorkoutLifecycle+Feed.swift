/// Events from the GPS side other than fixes: which source feeds the workout, and the end of a
/// simulation. Only the feeding source is reported (one source feeds a workout at a time), so
/// a `SIMULATION` header on another connection never reaches the workout's clock.
extension WorkoutLifecycle {
    /// The source feeding the workout changed: `replay` is set when it is a simulation feed
    /// (its fixes then move the workout's clock), nil for a receiver. No workout: nothing.
    public mutating func feedSourceChanged(replay: FeedReplay?, at now: Double) -> [LifecycleAction] {
        withWorkout { w in w.replay = replay; return [] } ?? []
    }

    /// The simulation feeding the workout closed: the workout's clock stops at its last fix, so
    /// a stop sent later still ends the workout where the file ended.
    public mutating func replayEnded(at now: Double) -> [LifecycleAction] {
        withWorkout { w in
            w.replay = nil
            if case .feed(let t, _, _) = w.clock { w.clock = .feed(lastFixTime: t, receivedAt: now, speed: 0) }
            return []
        } ?? []
    }
}
