import WorkoutCore

/// The recording side as the rest of the daemon sees it: a value taken on the loop when asked
/// (`RecordingService.snapshot()`), which the control router renders into `status` replies and
/// `watch` events. Nothing outside Recording/ reads the lifecycle, the feeds, the sensors, the
/// plan or the journal themselves.
struct RecordingSnapshot {
    /// The lifecycle's state name (`idle`, `recording`, `paused` ...).
    var state: String
    /// The workout in progress (or the one just stopped, until saved), measured now.
    var workout: WorkoutSummary?
    /// The feeds' status with the receiver clock's as the workout in progress measures it.
    var gps: GPSStatus
    /// The sensors' states (`status.sensors`).
    var sensors: [JSON]
    /// What `toggle` would do now, in words.
    var action: String
    /// Why the last save, or the journal's last write, failed.
    var saveError: String?
    /// Where the workout's dates come from, in words.
    var dateSource: String
    /// Why the workout is paused, or nil when it is not.
    var pause: PauseReply?
    /// Where the plan stands, nil without one.
    var plan: PlanReply?
}
