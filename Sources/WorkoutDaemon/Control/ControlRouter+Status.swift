import WorkoutCore

/// The status the daemon shows: `status` replies, `watch` events, the systemd STATUS line.
/// Rendered from questions on the lifecycle, never by matching its cases.
extension ControlRouter {
    /// The splits and laps a status line carries: the most recent ones, with their counts.
    static let statusIntervalLimit = 20

    /// The status now (docs/protocol.md): rendered from questions on the lifecycle.
    /// `personalBests`: the bests a workout just stopped set (the `stop` reply only).
    func statusReply(personalBests: [PersonalBest]? = nil) -> StatusReply {
        let lifecycle = recording.lifecycle
        return StatusReply(state: lifecycle.stateName, workout: lifecycle.summary(now: context.now()).map { .summary($0) },
                           gps: gpsStatus().reply(nowMonotonic: context.loop.now()), sensors: recording.sensors?.json().arrayValue ?? [],
                           action: lifecycle.actionTitle(defaultActivity: config.defaultActivity),
                           saveError: lifecycle.saveError ?? recording.journal.lastError?.description,
                           sleepInhibitor: integrations.sleepInhibitorReply(),
                           dateSource: lifecycle.dateSource.describe(sync: context.clock.sync ?? .unknown),
                           units: config.units, pause: pauseReply(), personalBests: personalBests.map { $0.map(PersonalBestReply.init) },
                           plan: planReply())
    }

    /// Where the plan stands (`status.plan`), nil without one.
    func planReply() -> PlanReply? {
        let lifecycle = recording.lifecycle
        return recording.plan?.status(at: lifecycle.workoutTime(at: context.now()), distance: lifecycle.distanceMeters ?? 0).map(PlanReply.init)
    }

    /// The status as compact JSON text (`StatusReply`), written straight to bytes; the
    /// workout's closed splits and laps are copied from `statusCache`, not encoded again.
    func encodedStatus(_ line: StatusReply.Line, personalBests: [PersonalBest]? = nil) -> [UInt8] {
        let reply = statusReply(personalBests: personalBests)
        var w = JSONWriter(capacity: 1024)
        reply.write(to: &w, line: line, cache: &statusCache, recent: ControlRouter.statusIntervalLimit)
        if reply.workout == nil { statusCache = SummaryJSONCache() }  // no workout: keep no bytes of the last one
        return w.bytes
    }

    /// Why the workout is paused, from the recorder's pause (`reason`: `manual`, or `recovered`
    /// when it came back paused after the daemon stopped), or nil when it is not paused.
    func pauseReply() -> PauseReply? {
        guard let p = recording.lifecycle.userPause else { return nil }
        let restoredAt: Double?
        switch p.cause {
        case .recovered: restoredAt = recording.lifecycle.restoredAt
        case .manual, .auto, .signalLost, .device: restoredAt = nil
        }
        return PauseReply(reason: p.cause.rawValue, since: p.since, restoredAt: restoredAt)
    }

    /// The GPS side of `status`: the feeds' status with the receiver clock's as the workout in
    /// progress measures it (the core owns the receiver's clock).
    func gpsStatus() -> GPSStatus {
        var gps = recording.feeds?.status ?? GPSStatus()
        gps.clockProblem = recording.lifecycle.receiverClockProblem
        gps.clockOffsetSeconds = recording.lifecycle.receiverClockOffset
        return gps
    }

    /// One line for `systemctl status` (sd_notify STATUS=).
    func statusLine() -> String {
        recording.lifecycle.headline(now: context.now(), savedWorkouts: history.store.count, gpsFix: recording.gpsFix)
    }

    /// Tells `watch` subscribers the current status.
    func publish() {
        guard let server, server.watcherCount > 0 else { return }
        server.broadcast(encoded: encodedStatus(.event))
    }
}
