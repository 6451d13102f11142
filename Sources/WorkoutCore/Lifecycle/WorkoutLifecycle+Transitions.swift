/// Transitions. Each is a `mutating func` named after what happened; it returns the actions for
/// the shell, or a `LifecycleRefusal` when the command does not fit the state.
///
/// Policy for odd inputs: a user command that does not fit is refused (ordinary input); expected
/// races (a fix after stop, a save result for a workout no longer saving) are documented no-ops;
/// the `modifying` placeholder seen outside a transition is our bug (asserts in debug builds,
/// refused like `restoring` in release, the data kept).
extension WorkoutLifecycle {
    public typealias Outcome = Result<[LifecycleAction], LifecycleRefusal>

    /// Refusal for commands that need a workout in progress, by state.
    private var refusalWithoutWorkout: LifecycleRefusal {
        switch state {
        case .saving(let job): return .saving(job.workout.id)
        case .restoring: return .restoring
        case .idle, .recording: return .noWorkout
        case .modifying: assertionFailure("lifecycle observed while modifying"); return .restoring
        }
    }

    /// Starts a workout at the clocks' `reading`: its time base is taken from it (docs/time.md).
    /// While the previous one is still being saved (or retried after a failed write) it starts
    /// too: that workout moves to `unsaved`, its journal is set aside, and its save goes on in
    /// the background (docs/protocol.md).
    public mutating func start(_ activity: ActivityType, id: WorkoutID, clock reading: ClockReading, settings: MetricsSettings) -> Outcome {
        switch state {
        case .saving(let job):
            unsaved.append(job)
            state = .idle(lastActivity: job.workout.activity)
            guard case .success(let actions) = start(activity, id: id, clock: reading, settings: settings) else {
                preconditionFailure("start from idle is never refused")
            }
            return .success([.setJournalAside(job.workout.id)] + actions)
        case .idle:
            let base = WorkoutTimeBase(reading)
            let now = base.time(boottime: reading.boottime)
            let recorder = WorkoutRecorder(id: id, activity: activity, startedAt: now, settings: settings)
            state = .recording(WorkoutInProgress(recorder: recorder, timeBase: base, baseSettings: settings))
            var actions: [LifecycleAction] = [.journal(.started(id: id, activity: activity, time: now)), .log(.started(id, activity))]
            if activity.supportsGPS { actions.append(.openGPS) }
            if activity.usesHeartRateSensor { actions.append(.openSensors) }
            return .success(actions + [.inhibitSleep, .publish])
        case .recording(let w):
            return .failure(.workoutInProgress(w.id, w.activity))
        case .restoring, .modifying:
            return .failure(refusalWithoutWorkout)
        }
    }

    public mutating func pause(at now: Double) -> Outcome {
        let outcome: Outcome? = withWorkout { w in
            guard !w.recorder.isPaused else { return .failure(.alreadyPaused) }
            let t = w.time(at: now)
            w.recorder.pause(at: t, cause: .manual)
            w.segmentBreak = nil  // the pause breaks the track itself
            let elapsed = w.recorder.summary(now: t).elapsedSeconds
            var actions: [LifecycleAction] = [.journal(.paused(time: t, cause: .manual)), .log(.paused(w.id, .manual, elapsed: elapsed))]
            if w.activity.supportsGPS { actions.append(.closeGPS) }
            if w.activity.usesHeartRateSensor { actions.append(.closeSensors) }
            return .success(actions + [.allowSleep, .publish])
        }
        return outcome ?? .failure(refusalWithoutWorkout)
    }

    public mutating func resume(at now: Double) -> Outcome {
        let outcome: Outcome? = withWorkout { w in
            guard let pause = w.recorder.userPause else { return .failure(.notPaused) }
            let t = w.time(at: now)
            let events = w.recorder.resume(at: t)
            // The pause as the recorder dated both ends (clamped: docs/metrics.md), not the
            // times the commands arrived: the logged paused_s equals the workout's.
            let resumedAt = events.timelineTime(of: .resume) ?? t
            var actions: [LifecycleAction] = [.journal(.resumed(time: t)), .log(.resumed(w.id, after: max(0, resumedAt - pause.since)))]
            if w.activity.supportsGPS {
                w.receiver = ReceiverClock()  // learned afresh: the receiver may have changed during the pause
                actions.append(.openGPS)
            }
            if w.activity.usesHeartRateSensor { actions.append(.openSensors) }
            return .success(actions + [.inhibitSleep, .publish])
        }
        return outcome ?? .failure(refusalWithoutWorkout)
    }

    public mutating func lap(at now: Double) -> Outcome {
        let outcome: Outcome? = withWorkout { w in
            let t = w.time(at: now)
            let lap = w.recorder.lap(at: t)
            return .success([.journal(.lap(time: t)), .log(.lap(w.id, lap)), .publish])
        }
        return outcome ?? .failure(refusalWithoutWorkout)
    }

    public mutating func marker(_ text: String?, at now: Double) -> Outcome {
        let outcome: Outcome? = withWorkout { w in
            let t = w.time(at: now)
            w.recorder.marker(at: t, text: text)
            return .success([.journal(.marker(time: t, text: text)), .log(.marker(w.id, text)), .publish])
        }
        return outcome ?? .failure(refusalWithoutWorkout)
    }

    /// Ends the workout and hands its snapshot to the saver. Also used for a graceful shutdown.
    /// With `plan` (what was done of the plan the workout followed) the saved summary carries
    /// it, measured on the workout's laps.
    public mutating func stop(at now: Double, plan: PlanOutcome? = nil) -> Outcome {
        switch state {
        case .recording(let w):
            let gpsWasOpen = wantsGPS
            let sensorsWereOpen = wantsSensors
            let wasRecording = !w.recorder.isPaused
            let t = w.time(at: now)
            var workout = w.recorder.finishRecording(at: t)
            workout.source = w.origin.recordedSource
            if var p = plan {
                p.measure(workout.summary.laps)
                workout.summary.plan = p
            }
            state = .saving(SaveJob(workout: workout))
            var actions: [LifecycleAction] = [.journal(.stopped(time: t))]
            if gpsWasOpen { actions.append(.closeGPS) }
            if sensorsWereOpen { actions.append(.closeSensors) }
            if wasRecording { actions.append(.allowSleep) }
            actions += [.log(.stopped(workout.summary)), .save(workout), .publish]
            return .success(actions)
        case .idle, .restoring, .saving, .modifying:
            return .failure(refusalWithoutWorkout)
        }
    }

    /// The one-button action: asks `primaryAction` what to do and does it.
    public mutating func toggle(defaultActivity: ActivityType, id: WorkoutID, clock reading: ClockReading, settings: MetricsSettings,
                                plan: PlanOutcome? = nil) -> Outcome {
        let now = self.now(reading)
        switch primaryAction(defaultActivity: defaultActivity) {
        case .start(let activity): return start(activity, id: id, clock: reading, settings: settings)
        case .stop: return stop(at: now, plan: plan)
        case .resume: return resume(at: now)
        case .unavailable: return .failure(refusalWithoutWorkout)
        }
    }

    /// A fix from the feeding source as it arrived (`now`: its arrival), with the receiver's own
    /// time, never rewritten by the shell. A receiver's fix is placed on the workout's clock by
    /// its `ReceiverClock` (docs/time.md); a simulation's fix times drive the workout's clock
    /// instead. Returns the journal record of the placed fix and the log lines of what the
    /// recorder and the receiver's clock noticed. No workout, or paused: nothing (an expected
    /// race: a fix in flight when the workout paused or stopped; the recorder answers
    /// `ignoredWhilePaused`). During a simulation, the workout's start moves to the feed's first
    /// fix (while it has no points) and its clock follows the feed (docs/protocol.md).
    public mutating func fixReceived(_ received: Fix, at now: Double) -> [LifecycleAction] {
        withWorkout { w in
            var actions: [LifecycleAction] = []
            var fix = received
            if w.replay == nil {
                let placed = w.receiver.place(receiverTime: received.time, arrival: now)
                fix.time = placed.time
                actions += placed.events.map(LifecycleAction.logReceiverClock)
            } else {
                w.replayOffset = received.time - now
            }
            if let replay = w.replay, !w.recorder.isPaused {
                let settings = replay.origin.settings(w.baseSettings)
                if w.recorder.points.isEmpty && (w.recorder.startedAt != fix.time || w.recorder.settings != settings) {
                    w.recorder = WorkoutRecorder(id: w.id.startingAt(fix.time), activity: w.activity, startedAt: fix.time, settings: settings)
                    w.origin = replay.origin
                    actions.append(.journal(.rebased(time: fix.time, origin: replay.origin)))
                }
                w.clock = .feed(lastFixTime: fix.time, receivedAt: now, speed: max(replay.speed, 0.001))
            }
            actions += w.endSegmentBreak(before: fix.time)
            let events = w.recorder.ingest(fix)
            if events.first == .ignoredWhilePaused { return actions }
            actions.append(.journal(.fix(fix)))
            for e in events { if let line = RecorderLogEvent(e, id: w.id, activity: w.activity, units: w.recorder.settings.splitUnit.units) { actions.append(.logRecorder(line)) } }
            return actions
        } ?? []
    }

    /// Periodic clock tick: lets the recorder notice signal loss when no fix arrives, and tells
    /// watchers the numbers while recording (not while paused: nothing moves).
    public mutating func tick(at now: Double) -> [LifecycleAction] {
        withWorkout { w in
            guard !w.recorder.isPaused else { return [] }
            let events = w.recorder.tick(now: w.time(at: now))
            return events.compactMap { RecorderLogEvent($0, id: w.id, activity: w.activity, units: w.recorder.settings.splitUnit.units).map(LifecycleAction.logRecorder) } + [.publishProgress]
        } ?? []
    }

    /// The machine was suspended from `from` to `to` (the daemon's times, docs/time.md): a gap on
    /// the timeline of the workout in progress (`WorkoutRecorder.suspended`), journaled.
    public mutating func suspended(from: Double, to: Double) -> [LifecycleAction] {
        withWorkout { w in
            let f = w.time(at: from), t = w.time(at: to)
            let events = w.recorder.suspended(from: f, to: t)
            return [.journal(.suspended(time: f, until: t))]
                + events.compactMap { RecorderLogEvent($0, id: w.id, activity: w.activity, units: w.recorder.settings.splitUnit.units).map(LifecycleAction.logRecorder) } + [.publishProgress]
        } ?? []
    }

    /// The saver wrote the workout durably.
    public mutating func saveSucceeded(_ id: WorkoutID) -> [LifecycleAction] {
        if let i = unsaved.firstIndex(where: { $0.workout.id == id }) {
            let job = unsaved.remove(at: i)
            return [.removeSetAsideJournal(id), .announceSaved(job.workout), .publish]
        }
        switch state {
        case .saving(let job) where job.workout.id == id:
            state = .idle(lastActivity: job.workout.activity)
            return [.removeJournal(id), .announceSaved(job.workout), .publish]
        case .idle, .restoring, .recording, .saving, .modifying:
            // A late result for a workout no longer being saved: nothing to do.
            return [.publish]
        }
    }

    /// The saver could not write the workout. It stays in `saving` or `unsaved` (and in its
    /// journal) and is retried with exponential backoff: 1, 2, 4 ... 60 s.
    public mutating func saveFailed(_ id: WorkoutID, error: String) -> [LifecycleAction] {
        func failed(_ job: inout SaveJob) -> [LifecycleAction] {
            job.failures += 1
            job.lastError = error
            let delay = SaveJob.retryDelay(afterFailures: job.failures)
            return [.log(.saveFailed(id, error: error, attempt: job.failures, retryIn: delay)), .retrySave(id, after: delay), .publish]
        }
        if let i = unsaved.firstIndex(where: { $0.workout.id == id }) { return failed(&unsaved[i]) }
        switch state {
        case .saving(var job) where job.workout.id == id:
            let actions = failed(&job)
            state = .saving(job)
            return actions
        case .idle, .restoring, .recording, .saving, .modifying:
            return [.publish]
        }
    }

    /// The retry timer fired: hand the same snapshot to the saver again.
    public func retrySave(_ id: WorkoutID) -> [LifecycleAction] {
        if let job = unsaved.first(where: { $0.workout.id == id }) { return [.save(job.workout)] }
        switch state {
        case .saving(let job) where job.workout.id == id: return [.save(job.workout)]
        case .idle, .restoring, .recording, .saving, .modifying: return []
        }
    }

    /// A journal set aside for an unsaved workout was found at start-up: if it holds a stopped
    /// workout, save it in the background (whatever the state); otherwise nothing (the shell
    /// keeps the file for a person).
    public mutating func restoredSetAside(_ records: [JournalRecord], settings: MetricsSettings) -> [LifecycleAction] {
        guard let replay = JournalReplay(records: records, settings: settings), let stoppedAt = replay.stoppedAt else { return [] }
        let recorder = replay.recorder
        var workout = recorder.finishRecording(at: stoppedAt)
        workout.source = replay.origin.recordedSource
        workout.summary.plan = PlanJournal(records: records)?.outcome(laps: workout.summary.laps)
        guard !unsaved.contains(where: { $0.workout.id == workout.id }) else { return [] }
        unsaved.append(SaveJob(workout: workout))
        return [.log(.restoreCompletingStop(workout.id)), .save(workout), .publish]
    }

    /// A journal was found at start-up.
    public mutating func beginRestore() -> Outcome {
        switch state {
        case .idle:
            state = .restoring
            return .success([])
        case .restoring, .recording, .saving, .modifying:
            return .failure(.restoring)
        }
    }

    /// The journal could not be read at all: keep it aside for a person, start clean.
    public mutating func restoreFailed() -> [LifecycleAction] {
        switch state {
        case .restoring:
            state = .idle(lastActivity: nil)
            return [.keepJournalAside(reason: "unreadable", badBytes: 0)]
        case .idle, .recording, .saving, .modifying:
            return []
        }
    }

    /// The journal was read back. Replays its records; a workout that was stopped completes its
    /// save; one the daemon kept at its shutdown (`shutdown` record, `shutDown`) continues as it
    /// was, active or paused, the gap marked by a `recovered` event; any other comes back paused with a `recovered` event and the gap marked (or active
    /// when `autoResume`). With no usable record the journal is kept aside and the state returns
    /// to idle. `badBytes`: the damaged tail already moved aside (reported with a kept journal).
    ///
    /// `reading`: the clocks now. The restored workout's time base is the wall clock, or the
    /// journal's last `alive` mark if the wall clock is behind it (stepped back while the daemon
    /// was down), so its times keep increasing (`WorkoutTimeBase.restored`, docs/time.md).
    public mutating func restored(_ records: [JournalRecord], badBytes: Int = 0, clock reading: ClockReading, autoResume: Bool, settings: MetricsSettings) -> [LifecycleAction] {
        switch state {
        case .restoring:
            break
        case .idle, .recording, .saving, .modifying:
            return []
        }
        let base = WorkoutTimeBase.restored(reading, journalLast: records.compactMap(\.aliveTime).max())
        let now = base.time(boottime: reading.boottime)
        guard let replay = JournalReplay(records: records, settings: settings) else {
            // No start record: nothing to restore, but never delete what we could not read.
            state = .idle(lastActivity: nil)
            return [.keepJournalAside(reason: "unrestorable", badBytes: badBytes), .publish]
        }
        var recorder = replay.recorder
        let id = recorder.id
        if let stoppedAt = replay.stoppedAt {
            var workout = recorder.finishRecording(at: stoppedAt)
            workout.source = replay.origin.recordedSource
            workout.summary.plan = PlanJournal(records: records)?.outcome(laps: workout.summary.laps)
            state = .saving(SaveJob(workout: workout))
            return [.log(.restoreCompletingStop(id)), .save(workout), .publish]
        }
        let gapFrom = replay.lastTime
        var actions: [LifecycleAction] = []
        if replay.shutdownAt != nil {
            // Kept at a shutdown (restart, upgrade, system shutdown): continue as it was.
            recorder.recovered(at: now, gapFrom: gapFrom)
            let paused = recorder.isPaused
            actions += [
                .journal(.recovered(time: now, gapFrom: gapFrom)),
                .log(.continued(id, recorder.activity, gapSeconds: max(0, now - gapFrom), points: recorder.summary(now: now).pointCount, paused: paused)),
            ]
            state = .recording(WorkoutInProgress(recorder: recorder, timeBase: base, baseSettings: replay.settings, origin: replay.origin))
            actions += settingsChanged(settings, at: now)  // the configuration changed while the daemon was down
            if !paused {
                if recorder.activity.supportsGPS { actions.append(.openGPS) }
                if recorder.activity.usesHeartRateSensor { actions.append(.openSensors) }
                actions.append(.inhibitSleep)
            }
            return actions + [.publish]
        }
        if !recorder.isPaused {
            recorder.pause(at: gapFrom, cause: .recovered)
            actions.append(.journal(.paused(time: gapFrom, cause: .recovered)))
        }
        recorder.recovered(at: now, gapFrom: gapFrom)
        actions += [
            .journal(.recovered(time: now, gapFrom: gapFrom)),
            .log(.restored(id, recorder.activity, gapSeconds: max(0, now - gapFrom), points: recorder.summary(now: now).pointCount)),
        ]
        state = .recording(WorkoutInProgress(recorder: recorder, timeBase: base, baseSettings: replay.settings, origin: replay.origin))
        actions += settingsChanged(settings, at: now)  // the configuration changed while the daemon was down
        if autoResume, case .success(let more) = resume(at: now) { return actions + more }
        return actions + [.publish]
    }
}

extension SaveJob {
    /// Backoff between save attempts: 1, 2, 4, 8 ... capped at 60 seconds.
    public static func retryDelay(afterFailures n: Int) -> Double {
        min(60, Double(1 << min(max(n - 1, 0), 6)))
    }
}

extension Array where Element == RecorderEvent {
    /// The time of the first timeline entry of `kind` among these events.
    func timelineTime(of kind: WorkoutEventKind) -> Double? {
        for e in self { if case .timeline(let ev) = e, ev.kind == kind { return ev.time } }
        return nil
    }
}
