import WorkoutCore

/// What the recording service publishes: values for the router, the web pages and the
/// service manager, taken from its parts on the loop.
extension RecordingService {
    /// The status now (docs/protocol.md), asked by the router for each reply and `watch` event.
    func snapshot() -> RecordingSnapshot {
        let now = context.now()
        var gps = feeds?.status ?? GPSStatus()
        gps.clockProblem = lifecycle.receiverClockProblem
        gps.clockOffsetSeconds = lifecycle.receiverClockOffset
        return RecordingSnapshot(
            state: lifecycle.stateName, workout: lifecycle.summary(now: now), gps: gps, sensors: sensors?.json().arrayValue ?? [],
            action: lifecycle.actionTitle(defaultActivity: config.defaultActivity),
            saveError: lifecycle.saveError ?? journal.lastError?.description,
            dateSource: lifecycle.dateSource.describe(sync: context.clock.sync ?? .unknown),
            pause: pauseReply(), plan: planStatus(now: now).map(PlanReply.init))
    }

    /// Where the plan stands at `now`, nil without one.
    private func planStatus(now: Double) -> PlanStatus? {
        plan?.status(at: lifecycle.workoutTime(at: now), distance: lifecycle.distanceMeters ?? 0)
    }

    /// Why the workout is paused, from the recorder's pause (`reason`: `manual`, or `recovered`
    /// when it came back paused after the daemon stopped), or nil when it is not paused.
    private func pauseReply() -> PauseReply? {
        guard let p = lifecycle.userPause else { return nil }
        let restoredAt: Double?
        switch p.cause {
        case .recovered: restoredAt = lifecycle.restoredAt
        case .manual, .auto, .signalLost, .device: restoredAt = nil
        }
        return PauseReply(reason: p.cause.rawValue, since: p.since, restoredAt: restoredAt)
    }

    /// One line for `systemctl status` (sd_notify STATUS=).
    func headline() -> String {
        lifecycle.headline(now: context.now(), savedWorkouts: store.count, gpsFix: gpsFix)
    }

    /// The live workout's news since `since` (the web pages' `/live`), with the plan's step.
    func liveDelta(since: LiveRequest) -> LiveDelta {
        let now = context.now()
        var delta = lifecycle.liveDelta(since: since, now: now, fix: gpsFix)
        delta.plan = planStatus(now: now)
        return delta
    }

    /// Whether a workout is in progress (the stop's STATUS line says it is kept).
    var hasWorkoutInProgress: Bool { lifecycle.hasWorkoutInProgress }
}
