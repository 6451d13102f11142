/// A reload (`reload`, SIGHUP) changed the configuration: the workout in progress follows the
/// changed metrics rules from that moment (docs/systemd.md, docs/config.md).
extension WorkoutLifecycle {
    /// New metrics settings at the daemon's `now`. The workout in progress (recording, paused or
    /// auto-paused) takes the live rules from the workout's time at `now` on
    /// (`WorkoutRecorder.changeSettings`); a replayed device track keeps its import rules on top.
    /// Logs what changed and what waits for the next workout. No workout, or nothing changed: no
    /// action (the next workout starts with the settings the shell passes to `start`).
    public mutating func settingsChanged(_ settings: MetricsSettings, at now: Double) -> [LifecycleAction] {
        withWorkout { w in
            let changes = w.baseSettings.changes(to: settings)
            guard !changes.isEmpty else { return [] }
            // A device's track (simulated, or restored from such a journal) is measured with the
            // import rules derived from the settings (`TrackOrigin.device`).
            let origin = w.replay?.origin ?? w.origin
            let from = w.baseSettings.live, t = w.time(at: now)
            w.baseSettings = settings
            let events = w.recorder.changeSettings(to: origin.settings(settings), at: t)
            // Journaled, so a restore replays the change where it happened.
            let journal: [LifecycleAction] = from == settings.live ? [] : [.journal(.settings(time: t, from: from, to: settings.live))]
            return journal + [.log(.settingsChanged(w.id, changes))]
                + events.compactMap { RecorderLogEvent($0, id: w.id, activity: w.activity, units: w.recorder.settings.splitUnit.units).map(LifecycleAction.logRecorder) } + [.publish]
        } ?? []
    }
}
