/// One record of the journal of the workout in progress. Replaying the records of a journal
/// through a fresh recorder rebuilds the workout (the recorder is deterministic in its inputs).
public enum JournalRecord: Sendable, Equatable {
    case started(id: WorkoutID, activity: ActivityType, time: Double)
    case paused(time: Double, cause: PauseCause)
    case resumed(time: Double)
    case lap(time: Double)
    case marker(time: Double, text: String?)
    case fix(Fix)
    /// The user stopped the workout: a restore completes the save instead of resuming.
    case stopped(time: Double)
    /// The daemon was stopped (SIGTERM or SIGINT: a restart, an upgrade, a system shutdown) with
    /// the workout in progress, which it kept: the next start continues it as it was (active or
    /// paused), the gap marked, instead of restoring it paused as after a crash.
    case shutdown(time: Double)
    /// A reload changed the metrics rules the workout follows live (`MetricsSettings.live`) at
    /// `time`: `from` the ones in force before (so a replay starts with them), `to` the new ones.
    case settings(time: Double, from: LiveMetricsSettings, to: LiveMetricsSettings)
    /// The daemon restored the workout after an interruption that began at `gapFrom`.
    case recovered(time: Double, gapFrom: Double)
    /// A simulation feed moved the start of a workout without points to the feed's own time
    /// (and, for a replayed device track, to the import rules).
    case rebased(time: Double, origin: TrackOrigin)
    /// The machine was suspended from `time` to `until` (the workout's clock).
    case suspended(time: Double, until: Double)
    /// Written with every flush: the daemon was alive at `time` (bounds the gap after a crash,
    /// since fix times are the receiver's and may be far from the daemon's clock).
    case alive(time: Double)
    /// A heart-rate reading recorded beside the fixes (strap or feed line), with RR intervals.
    case heartRate(time: Double, bpm: Int, rr: [UInt16])
    /// The heart rate stopped (no contact, strap lost): a gap.
    case heartRateGap(time: Double)
    /// A power, speed/cadence or running sensor's reading, or its gap (`reading` nil).
    case sensor(SensorSample)
    /// The workout's dates moved by `by` seconds (dated by a GPS receiver while the system clock
    /// is unsynchronized, or back; docs/time.md): every earlier time moves, no duration changes.
    case shifted(by: Double)
    /// The workout follows `plan` (`start --plan`) from `time`: a restore resumes it.
    case plan(time: Double, plan: Plan)
    /// Step `index` of the plan began at `time`, the workout at `distance` meters, `timer`
    /// seconds of running time and `laps` laps closed (`PlanJournal`).
    case planStep(time: Double, index: Int, distance: Double, timer: Double, laps: Int)
}

extension JournalRecord {
    /// The daemon's clock when this `alive` mark was written (control records are dated on the
    /// workout's clock, which follows the feed during a simulation; fixes on the receiver's).
    public var aliveTime: Double? {
        switch self {
        case .alive(let t): return t
        case .started, .paused, .resumed, .lap, .marker, .stopped, .shutdown, .settings, .recovered, .rebased, .fix, .suspended, .heartRate, .heartRateGap,
             .sensor, .shifted, .plan, .planStep: return nil
        }
    }
}
