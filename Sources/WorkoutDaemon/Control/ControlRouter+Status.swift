import WorkoutCore

/// The status the daemon shows: `status` replies, `watch` events, the systemd STATUS line.
/// Rendered from questions on the lifecycle, never by matching its cases.
extension ControlRouter {
    /// Which status line to encode.
    enum StatusLine {
        /// The reply to `status` and to successful transitions: `{"ok":true,"state":...}`.
        case reply
        /// The reply to `watch`: the same with `"subscribed":true` at the end.
        case subscribedReply
        /// What `watch` subscribers receive after a change: `{"event":"status","state":...}`.
        case event
    }

    /// The splits and laps a status line carries: the most recent ones, with their counts.
    static let statusIntervalLimit = 20

    /// The status as compact JSON text (keys: docs/interface.md), written straight to bytes;
    /// the workout's closed splits and laps are copied from `statusCache`, not encoded again.
    /// `personalBests`: the bests a workout just stopped set (the `stop` reply only).
    func encodedStatus(_ line: StatusLine, personalBests: [PersonalBest]? = nil) -> [UInt8] {
        var w = JSONWriter(capacity: 1024)
        switch line {
        case .reply, .subscribedReply: w.raw("{\"ok\":true")
        case .event: w.raw("{\"event\":\"status\"")
        }
        w.raw(",\"state\":"); w.string(recording.lifecycle.stateName)
        w.raw(",\"workout\":")
        if let summary = recording.lifecycle.summary(now: context.now()) {
            summary.writeJSON(to: &w, cache: &statusCache, recent: ControlRouter.statusIntervalLimit)
        } else {
            w.null()
            statusCache = SummaryJSONCache()  // no workout: keep no bytes of the last one
        }
        w.raw(",\"gps\":"); w.value(recording.feeds?.status.json() ?? GPSStatus().json())
        w.raw(",\"sensors\":"); w.value(recording.sensors?.json() ?? .array([]))
        w.raw(",\"action\":"); w.string(recording.lifecycle.actionTitle(defaultActivity: config.defaultActivity))
        w.raw(",\"saveError\":"); w.string(recording.lifecycle.saveError ?? recording.journal.lastError?.description)
        w.raw(",\"sleepInhibitor\":"); w.value(integrations.sleepInhibitorJSON())
        w.raw(",\"dateSource\":"); w.string(recording.lifecycle.dateSource.describe(sync: context.clock.sync ?? .unknown))
        w.raw(",\"units\":"); w.string(config.units.rawValue)
        w.raw(",\"pause\":"); w.value(pauseJSON())
        if let personalBests { w.raw(",\"personalBests\":"); w.value(.array(personalBests.map { $0.json() })) }
        switch line {
        case .subscribedReply: w.raw(",\"subscribed\":true}")
        case .reply, .event: w.raw("}")
        }
        return w.bytes
    }

    /// Why the workout is paused, from the recorder's pause: `{"reason","since","restoredAt"?}`
    /// (`reason`: `manual`, or `recovered` when it came back paused after the daemon stopped),
    /// or null when it is not paused.
    func pauseJSON() -> JSON {
        guard let p = recording.lifecycle.userPause else { return .null }
        var o = JSONObject()
        o["reason"] = .string(p.cause.rawValue)
        o["since"] = .string(ISO8601.format(p.since, fractionDigits: 0))
        switch p.cause {
        case .recovered: o["restoredAt"] = .string(recording.lifecycle.restoredAt.map { ISO8601.format($0, fractionDigits: 0) })
        case .manual, .auto, .signalLost, .device: break
        }
        return .object(o)
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
