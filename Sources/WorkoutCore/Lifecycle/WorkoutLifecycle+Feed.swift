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

extension WorkoutLifecycle {
    /// The feeding source broke its track here (a `SEGMENT` line: `simulate` sends one between
    /// the `<trkseg>`s of a GPX file and the `<Track>`s of a TCX file). As `import` reads such a
    /// file, the time from the last fix before the break to the first fix after it is a pause
    /// (the device's timer was stopped) and no distance joins the two: the next fix pauses the
    /// workout at the last fix and resumes it just before itself (`endSegmentBreak`), both
    /// journaled, so a restore and a recompute find the same. Before any fix, while paused, or
    /// with no workout: nothing (a pause breaks the track anyway).
    public mutating func segmentBreakReceived(at now: Double) -> [LifecycleAction] {
        withWorkout { w in
            guard !w.recorder.isPaused, let last = w.recorder.latestFixTime else { return [] }
            w.segmentBreak = last
            return []
        } ?? []
    }
}

extension WorkoutInProgress {
    /// Ends a pending segment break before a fix stamped `t` (`segmentBreakReceived`): pauses
    /// at the break and resumes just before `t` (as `Importer.workout` does between segments).
    /// Returns the journal records; nothing without a break or for a fix not after it.
    mutating func endSegmentBreak(before t: Double) -> [LifecycleAction] {
        guard let from = segmentBreak, !recorder.isPaused, t > from else { return [] }
        segmentBreak = nil
        let resume = max(from, t - min(0.001, (t - from) / 2))
        recorder.pause(at: from, cause: .manual)
        recorder.resume(at: resume)
        return [.journal(.paused(time: from, cause: .manual)), .journal(.resumed(time: resume))]
    }
}
