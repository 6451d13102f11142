import WorkoutCore

/// The status the daemon shows: `status` replies, `watch` events, the systemd STATUS line.
/// Rendered from the recording service's snapshot (`RecordingSnapshot`), a value.
extension ControlRouter {
    /// The splits and laps a status line carries: the most recent ones, with their counts.
    static let statusIntervalLimit = 20

    /// The status of `snapshot` (docs/protocol.md). `personalBests`: the bests a workout just
    /// stopped set (the `stop` reply only).
    func statusReply(_ snapshot: RecordingSnapshot, personalBests: [PersonalBest]? = nil) -> StatusReply {
        StatusReply(state: snapshot.state, workout: snapshot.workout.map { .summary($0) },
                    gps: snapshot.gps.reply(nowMonotonic: context.loop.now()), sensors: snapshot.sensors,
                    action: snapshot.action, saveError: snapshot.saveError,
                    sleepInhibitor: routes.sleepInhibitor(), dateSource: snapshot.dateSource,
                    units: config.units, pause: snapshot.pause, personalBests: personalBests.map { $0.map(PersonalBestReply.init) },
                    plan: snapshot.plan)
    }

    /// The status as compact JSON text (`StatusReply`), written straight to bytes; the
    /// workout's closed splits and laps are copied from `statusCache`, not encoded again.
    func encodedStatus(_ line: StatusReply.Line, _ snapshot: RecordingSnapshot? = nil, personalBests: [PersonalBest]? = nil) -> [UInt8] {
        let reply = statusReply(snapshot ?? routes.snapshot(), personalBests: personalBests)
        var w = JSONWriter(capacity: 1024)
        reply.write(to: &w, line: line, cache: &statusCache, recent: ControlRouter.statusIntervalLimit)
        if reply.workout == nil { statusCache = SummaryJSONCache() }  // no workout: keep no bytes of the last one
        return w.bytes
    }

    /// Tells `watch` subscribers the current status.
    func publish() {
        guard let server, server.watcherCount > 0 else { return }
        server.broadcast(encoded: encodedStatus(.event))
    }
}
