/// Transitions. Each is a `mutating func` named after what happened; it returns the actions for
/// the shell, or a `LifecycleRefusal` when the command does not fit the state.
///
/// Policy for odd inputs: a user command that does not fit is refused (ordinary input); expected
/// races (a fix after stop, a save result for a workout no longer saving) are documented no-ops.
extension WorkoutLifecycle {
    public typealias Outcome = Result<[LifecycleAction], LifecycleRefusal>

    /// Refusal for commands that need a workout in progress, by state.
    private var refusalWithoutWorkout: LifecycleRefusal {
        switch self {
        case .saving(let job): return .saving(job.workout.id)
        case .restoring: return .restoring
        case .idle, .active, .paused: return .noWorkout
        }
    }

    public mutating func start(_ activity: ActivityType, id: WorkoutID, at now: Double, settings: MetricsSettings) -> Outcome {
        switch self {
        case .idle:
            let recorder = WorkoutRecorder(id: id, activity: activity, startedAt: now, settings: settings)
            self = .active(ActiveWorkout(recorder: recorder))
            var actions: [LifecycleAction] = [.journal(.started(id: id, activity: activity, time: now)), .log(.started(id, activity))]
            if activity.supportsGPS { actions.append(.openGPS) }
            return .success(actions)
        case .active(let w), .paused(let w, _):
            return .failure(.workoutInProgress(w.id, w.activity))
        case .saving(let job):
            return .failure(.saving(job.workout.id))
        case .restoring:
            return .failure(.restoring)
        }
    }

    public mutating func pause(at now: Double) -> Outcome {
        switch self {
        case .active(var w):
            self = .restoring  // release the payload so the recorder is mutated in place
            w.recorder.pause(at: now, cause: .manual)
            let elapsed = w.recorder.summary(now: now).elapsedSeconds
            self = .paused(w, PausedInfo(since: now, cause: .manual))
            var actions: [LifecycleAction] = [.journal(.paused(time: now, cause: .manual)), .log(.paused(w.id, .manual, elapsed: elapsed))]
            if w.activity.supportsGPS { actions.append(.closeGPS) }
            return .success(actions)
        case .paused:
            return .failure(.alreadyPaused)
        case .idle, .restoring, .saving:
            return .failure(refusalWithoutWorkout)
        }
    }

    public mutating func resume(at now: Double) -> Outcome {
        switch self {
        case .paused(var w, let info):
            self = .restoring
            w.recorder.resume(at: now)
            self = .active(w)
            var actions: [LifecycleAction] = [.journal(.resumed(time: now)), .log(.resumed(w.id, after: max(0, now - info.since)))]
            if w.activity.supportsGPS { actions.append(.openGPS) }
            return .success(actions)
        case .active:
            return .failure(.notPaused)
        case .idle, .restoring, .saving:
            return .failure(refusalWithoutWorkout)
        }
    }

    public mutating func lap(at now: Double) -> Outcome {
        switch self {
        case .active(var w):
            self = .restoring
            let lap = w.recorder.lap(at: now)
            self = .active(w)
            return .success([.journal(.lap(time: now)), .log(.lap(w.id, lap))])
        case .paused(var w, let info):
            self = .restoring
            let lap = w.recorder.lap(at: now)
            self = .paused(w, info)
            return .success([.journal(.lap(time: now)), .log(.lap(w.id, lap))])
        case .idle, .restoring, .saving:
            return .failure(refusalWithoutWorkout)
        }
    }

    public mutating func marker(_ text: String?, at now: Double) -> Outcome {
        switch self {
        case .active(var w):
            self = .restoring
            w.recorder.marker(at: now, text: text)
            self = .active(w)
            return .success([.journal(.marker(time: now, text: text)), .log(.marker(w.id, text))])
        case .paused(var w, let info):
            self = .restoring
            w.recorder.marker(at: now, text: text)
            self = .paused(w, info)
            return .success([.journal(.marker(time: now, text: text)), .log(.marker(w.id, text))])
        case .idle, .restoring, .saving:
            return .failure(refusalWithoutWorkout)
        }
    }

    /// Ends the workout and hands its snapshot to the saver. Also used for a graceful shutdown.
    public mutating func stop(at now: Double) -> Outcome {
        switch self {
        case .active(let w), .paused(let w, _):
            let wasActive = wantsGPS
            let workout = w.recorder.finishRecording(at: now)
            self = .saving(SaveJob(workout: workout))
            var actions: [LifecycleAction] = [.journal(.stopped(time: now))]
            if wasActive { actions.append(.closeGPS) }
            actions += [.log(.stopped(workout.summary)), .save(workout)]
            return .success(actions)
        case .idle, .restoring, .saving:
            return .failure(refusalWithoutWorkout)
        }
    }

    /// The one-button action: asks `primaryAction` what to do and does it.
    public mutating func toggle(defaultActivity: ActivityType, id: WorkoutID, at now: Double, settings: MetricsSettings) -> Outcome {
        switch primaryAction(defaultActivity: defaultActivity) {
        case .start(let activity): return start(activity, id: id, at: now, settings: settings)
        case .stop: return stop(at: now)
        case .resume: return resume(at: now)
        case .unavailable:
            return .failure(refusalWithoutWorkout)
        }
    }

    /// A fix from the GPS source. Returns the recorder's events, or nil when no workout is
    /// recording (an expected race: a fix that was in flight when the workout paused or stopped).
    public mutating func fixReceived(_ fix: Fix) -> [RecorderEvent]? {
        switch self {
        case .active(var w):
            self = .restoring
            let events = w.recorder.ingest(fix)
            self = .active(w)
            return events
        case .idle, .restoring, .paused, .saving:
            return nil
        }
    }

    /// A simulation feed replays a file with its own timestamps: the start of a workout that has
    /// no points yet moves to the feed's first fix, so durations are the file's (docs/protocol.md).
    /// A no-op once the workout has points, or when not active.
    public mutating func rebaseStart(to start: Double, origin: TrackOrigin, settings base: MetricsSettings) -> [LifecycleAction] {
        let settings = origin.settings(base)
        switch self {
        case .active(let w) where w.recorder.points.isEmpty && (w.recorder.startedAt != start || w.recorder.settings != settings):
            self = .active(ActiveWorkout(recorder: WorkoutRecorder(id: w.id, activity: w.activity, startedAt: start, settings: settings)))
            return [.journal(.rebased(time: start, origin: origin))]
        case .idle, .restoring, .active, .paused, .saving:
            return []
        }
    }

    /// The machine was suspended from `from` to `to` (the workout's clock): a gap on the
    /// timeline of the workout in progress (`WorkoutRecorder.suspended`), journaled.
    public mutating func suspended(from: Double, to: Double) -> (actions: [LifecycleAction], events: [RecorderEvent]) {
        switch self {
        case .active(var w):
            self = .restoring
            let events = w.recorder.suspended(from: from, to: to)
            self = .active(w)
            return ([.journal(.suspended(time: from, until: to))], events)
        case .paused(var w, let info):
            self = .restoring
            let events = w.recorder.suspended(from: from, to: to)
            self = .paused(w, info)
            return ([.journal(.suspended(time: from, until: to))], events)
        case .idle, .restoring, .saving:
            return ([], [])
        }
    }

    /// Periodic clock tick: lets the recorder notice signal loss when no fix arrives.
    public mutating func tick(now: Double) -> [RecorderEvent] {
        switch self {
        case .active(var w):
            self = .restoring
            let events = w.recorder.tick(now: now)
            self = .active(w)
            return events
        case .idle, .restoring, .paused, .saving:
            return []
        }
    }

    /// The saver wrote the workout durably.
    public mutating func saveSucceeded(_ id: WorkoutID) -> [LifecycleAction] {
        switch self {
        case .saving(let job) where job.workout.id == id:
            self = .idle(lastActivity: job.workout.activity)
            return [.removeJournal(id), .announceSaved(job.workout)]
        case .idle, .restoring, .active, .paused, .saving:
            // A late result for a workout no longer being saved: nothing to do.
            return []
        }
    }

    /// The saver could not write the workout. It stays in `saving` (and in the journal) and is
    /// retried with exponential backoff: 1, 2, 4 ... 60 s.
    public mutating func saveFailed(_ id: WorkoutID, error: String) -> [LifecycleAction] {
        switch self {
        case .saving(var job) where job.workout.id == id:
            job.failures += 1
            job.lastError = error
            let delay = SaveJob.retryDelay(afterFailures: job.failures)
            self = .saving(job)
            return [.log(.saveFailed(id, error: error, attempt: job.failures, retryIn: delay)), .retrySave(after: delay)]
        case .idle, .restoring, .active, .paused, .saving:
            return []
        }
    }

    /// The retry timer fired: hand the same snapshot to the saver again.
    public func retrySave() -> [LifecycleAction] {
        switch self {
        case .saving(let job): return [.save(job.workout)]
        case .idle, .restoring, .active, .paused: return []
        }
    }

    /// A journal was found at start-up.
    public mutating func beginRestore() -> Outcome {
        switch self {
        case .idle:
            self = .restoring
            return .success([])
        case .restoring, .active, .paused, .saving:
            return .failure(.restoring)
        }
    }

    /// The journal was read back. Replays its records; a workout that was stopped completes its
    /// save, any other comes back paused with a `recovered` event and the gap marked (or active
    /// when `autoResume`). With no usable record the state returns to idle.
    public mutating func restored(_ records: [JournalRecord], at now: Double, autoResume: Bool, settings: MetricsSettings) -> [LifecycleAction] {
        switch self {
        case .restoring:
            break
        case .idle, .active, .paused, .saving:
            return []
        }
        guard let replay = JournalReplay(records: records, settings: settings) else {
            self = .idle(lastActivity: nil)
            return []
        }
        var recorder = replay.recorder
        let id = recorder.id
        if let stoppedAt = replay.stoppedAt {
            let workout = recorder.finishRecording(at: stoppedAt)
            self = .saving(SaveJob(workout: workout))
            return [.log(.restoreCompletingStop(id)), .save(workout)]
        }
        let gapFrom = replay.lastTime
        if !replay.phase.isPaused { recorder.pause(at: gapFrom, cause: .recovered) }
        recorder.recovered(at: now, gapFrom: gapFrom)
        var actions: [LifecycleAction] = [
            .journal(.recovered(time: now, gapFrom: gapFrom)),
            .log(.restored(id, recorder.activity, gapSeconds: max(0, now - gapFrom), points: recorder.summary(now: now).pointCount)),
        ]
        if !replay.phase.isPaused { actions.insert(.journal(.paused(time: gapFrom, cause: .recovered)), at: 0) }
        self = .paused(ActiveWorkout(recorder: recorder), PausedInfo(since: gapFrom, cause: .recovered))
        if autoResume, case .success(let more) = resume(at: now) { actions += more }
        return actions
    }
}

extension SaveJob {
    /// Backoff between save attempts: 1, 2, 4, 8 ... capped at 60 seconds.
    public static func retryDelay(afterFailures n: Int) -> Double {
        min(60, Double(1 << min(max(n - 1, 0), 6)))
    }
}
