/// Rebuilds a workout from its journal records by replaying them through a fresh recorder
/// (which alone knows whether the replayed workout ended paused: `recorder.isPaused`).
struct JournalReplay {
    var recorder: WorkoutRecorder
    /// Set when the journal holds a stop: the save must complete.
    var stoppedAt: Double?
    /// Time of the last record: where the interruption began.
    var lastTime: Double
    /// Set when the daemon was stopped with the workout kept (`shutdown` is the journal's last
    /// record but for `alive` marks): the workout continues as it was.
    var shutdownAt: Double?
    /// The settings the workout followed at the end of the journal: the restore's, with the live
    /// rules of the last journaled reload.
    var settings: MetricsSettings
    /// What the journaled fixes are (a `rebased` record names a replayed device track).
    var origin: TrackOrigin

    /// nil when the records do not begin with `started` (nothing to restore).
    init?(records: [JournalRecord], settings: MetricsSettings) {
        guard case .started(let id, let activity, let t0)? = records.first else { return nil }
        // A reload during the workout journaled the live rules in force before it: the replay
        // begins with those, and follows each change at its time, as the live workout did.
        var current = settings
        for case .settings(_, let from, _) in records { current = settings.taking(from); break }
        var origin = TrackOrigin.receiver
        var recorder = WorkoutRecorder(id: id, activity: activity, startedAt: t0, settings: current)
        var last = t0
        var stopped: Double?
        var shutdown: Double?
        var scratch: [RecorderEvent] = []  // what `ingest` reports, unused here: one array for all
        for record in records.dropFirst() {
            switch record {
            case .alive, .shutdown: break
            case .started, .paused, .resumed, .lap, .marker, .fix, .heartRate, .heartRateGap, .sensor, .stopped, .shifted, .rebased, .suspended,
                 .recovered, .settings, .plan, .planStep:
                shutdown = nil  // something happened after the shutdown record: it is history
            }
            switch record {
            case .started:
                continue  // a second start cannot be written by the daemon; ignore it
            case .paused(let t, let cause):
                recorder.pause(at: t, cause: cause); last = max(last, t)
            case .resumed(let t):
                recorder.resume(at: t); last = max(last, t)
            case .lap(let t):
                _ = recorder.lap(at: t); last = max(last, t)
            case .marker(let t, let text):
                recorder.marker(at: t, text: text); last = max(last, t)
            case .fix(let fix):
                scratch.removeAll(keepingCapacity: true)
                recorder.ingest(fix, into: &scratch)
            case .heartRate(let t, let bpm, let rr):
                recorder.heartRate(time: t, bpm: bpm, rr: rr)
            case .heartRateGap(let t):
                recorder.heartRateGap(at: t)
            case .sensor(let s):
                if let r = s.reading { recorder.sensorReading(time: s.time, source: s.source, reading: r) } else { recorder.sensorGap(at: s.time, source: s.source) }
            case .stopped(let t):
                stopped = t
            case .shutdown(let t):
                shutdown = t; last = max(last, t)
            case .settings(let t, _, let to):
                current = current.taking(to)
                recorder.changeSettings(to: origin.settings(current), at: t); last = max(last, t)
            case .alive(let t):
                last = max(last, t)
            case .shifted(let s):
                recorder = recorder.shifted(by: s); last += s
            case .rebased(let t, let o):
                if recorder.points.isEmpty {
                    origin = o
                    recorder = WorkoutRecorder(id: recorder.id.startingAt(t), activity: activity, startedAt: t, settings: o.settings(current))
                }
            case .suspended(let t, let until):
                recorder.suspended(from: t, to: until); last = max(last, until)
            case .recovered(let t, let gapFrom):
                recorder.recovered(at: t, gapFrom: gapFrom); last = max(last, t)
            case .plan, .planStep:
                break  // the plan's own (`PlanJournal`)
            }
        }
        self.recorder = recorder
        self.origin = origin
        self.stoppedAt = stopped
        self.lastTime = last
        self.shutdownAt = shutdown
        self.settings = current
    }
}
