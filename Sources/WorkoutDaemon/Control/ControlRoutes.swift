import WorkoutCore

/// What the control router asks of the other services, as closures the daemon wires
/// (`Daemon.controlRoutes`): the router holds no service. The recording service shows itself
/// as a snapshot (a value) the router renders; each other request goes to the closure of the
/// service that answers it.
struct ControlRoutes {
    // The recording service.
    /// The recording's state now (`status`, `watch`, every workout command's reply).
    var snapshot: () -> RecordingSnapshot
    /// The workout commands: nil when done, else the refusal.
    var start: (ActivityType) -> LifecycleRefusal?
    var startPlanned: (ActivityType, PlanFile) -> ProtocolError?
    var next: () -> ProtocolError?
    var pause: () -> LifecycleRefusal?
    var resume: () -> LifecycleRefusal?
    var lap: () -> LifecycleRefusal?
    var marker: (String?) -> LifecycleRefusal?
    var stop: () -> LifecycleRefusal?
    var toggle: () -> LifecycleRefusal?
    /// Every feed line sent before the request counts in it.
    var catchUpFeeds: () -> Void

    // The history service.
    /// The newest saved workout and the one deleted last (`last`).
    var newestID: () -> WorkoutID?
    var lastDeletedID: () -> WorkoutID?
    /// The personal bests a workout set, judged against the history.
    var personalBests: (WorkoutSummary) -> [PersonalBest]
    var list: (ListFilter) -> ControlReply
    var show: (WorkoutID) -> ControlReply
    /// `export`, into the reply or into the descriptor the request carried.
    var export: (WorkoutID, ExportFormat, Int32?) -> ControlReply
    /// `import`: the files, the activity, whether results stream as events (descriptors).
    var importFiles: ([ImportBatch.Item], ActivityType?, Bool) -> ControlReply
    var edit: (WorkoutID, WorkoutEdit) -> ControlReply
    var recompute: (WorkoutID, [MetricsOverride], Bool) -> ControlReply
    var delete: (WorkoutID) -> ControlReply
    var undelete: (WorkoutID) -> ControlReply
    var charts: (WorkoutID, Int) -> ControlReply
    /// `fitness`, `power-curve`, `records`, in the streaks' zone, at `now`.
    var analytics: (AnalyticsRequest, ZoneRules, Double) -> ControlReply

    // The reminders service.
    var streak: () -> JSON
    var totals: (TotalsPeriod, ActivityType?) -> JSON
    /// The zone streak days are counted in.
    var streakZone: () -> ZoneRules

    // The integrations and web services.
    /// The lock on sleep as `status` shows it.
    var sleepInhibitor: () -> SleepInhibitorReply
    /// `web`: the URL that opens the pages.
    var webURL: (WorkoutID?) -> ControlReply
}
