extension WorkoutRecorder {
    /// Rebuilds a recorder from a saved workout's points and events: the points are ingested
    /// again in their stored order, with the user's events (pause, resume, lap, marker,
    /// recovered) interleaved by time: an event goes before the first point stamped after it.
    /// The live recorder guarantees this order (user events are never stamped before a fix
    /// already recorded, and a late fix is kept as `late`, which `reingest` reproduces), so with
    /// the same settings the result equals the live recorder's. Derived events (auto-pause, signal, segments) are recomputed.
    public static func rebuild(id: WorkoutID, activity: ActivityType, startedAt: Double, settings: MetricsSettings = MetricsSettings(),
                               points: some Sequence<TrackPoint>, events: [WorkoutEvent]) -> WorkoutRecorder {
        var r = WorkoutRecorder(id: id, activity: activity, startedAt: startedAt, settings: settings)
        let user = events.filter { [.pause, .resume, .lap, .marker, .recovered, .suspended].contains($0.kind) }
            .enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var e = 0
        var lastPause: Double?
        func apply(_ ev: WorkoutEvent, to r: inout WorkoutRecorder) {
            switch ev.kind {
            case .pause: r.pause(at: ev.time, cause: ev.cause ?? .manual); lastPause = ev.time
            case .resume: r.resume(at: ev.time)
            case .lap: r.lap(at: ev.time)
            case .marker: r.marker(at: ev.time, text: ev.text)
            case .recovered: r.recovered(at: ev.time, gapFrom: lastPause ?? ev.time)
            case .suspended: _ = r.markSuspended(at: ev.time, text: ev.text)
            case .motionPaused, .motionResumed, .segment, .signalLost, .signalRegained: break  // derived from the points
            }
        }
        for p in points {
            let t = p.fix.time
            while e < user.count, t.isFinite, user[e].time < t {
                apply(user[e], to: &r); e += 1
            }
            r.reingest(p)
        }
        while e < user.count { apply(user[e], to: &r); e += 1 }
        return r
    }

    /// The summary of a saved or imported workout recomputed with `settings`, ended at `endedAt`
    /// (default: the later of the last point and the last event).
    public static func recompute(id: WorkoutID, activity: ActivityType, startedAt: Double, endedAt: Double? = nil,
                                 settings: MetricsSettings = MetricsSettings(), points: [TrackPoint],
                                 events: [WorkoutEvent] = []) -> Workout {
        let r = rebuild(id: id, activity: activity, startedAt: startedAt, settings: settings, points: points, events: events)
        let last = max(points.map(\.fix.time).filter(\.isFinite).max() ?? startedAt, events.map(\.time).max() ?? startedAt)
        return r.finish(at: endedAt ?? last)
    }
}
