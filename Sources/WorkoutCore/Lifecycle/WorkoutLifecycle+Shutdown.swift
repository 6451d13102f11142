/// The daemon is stopping (SIGTERM, SIGINT: `systemctl --user restart`, an upgrade, a system
/// shutdown). Stopping the daemon does not stop the workout: it stays in the journal, durable,
/// and the next start continues it as it was (`restored`, docs/reliability.md). A person who
/// wants it ended says `stop`.
extension WorkoutLifecycle {
    /// `journalWritable`: the journal took every record so far. When it did not (a failing
    /// disk), the workout cannot wait for the next start in it: it is stopped and saved now, as
    /// before this rule. In other states nothing happens (a save in flight is waited for).
    public mutating func shutDown(at now: Double, journalWritable: Bool) -> [LifecycleAction] {
        switch state {
        case .recording(let w):
            guard journalWritable else {
                guard case .success(let actions) = stop(at: now) else { return [] }
                return actions
            }
            let t = w.time(at: now)
            return [.journal(.shutdown(time: t)), .log(.keptForRestart(w.id, w.activity, paused: w.recorder.isPaused)), .publish]
        case .idle, .restoring, .saving, .modifying:
            return []
        }
    }
}
