import WorkoutCore

/// What the web server needs from the rest of the daemon, as values and closures it may call
/// from its own thread: the history store (thread-safe), a way to run a control request on the
/// loop (the edit form), the live workout, and the settings pages are drawn with.
struct WebBackend: Sendable {
    let store: HistoryStore
    /// Runs a control request on the daemon's loop; the reply (`{"ok": ...}`) arrives on any thread.
    let request: @Sendable (ControlRequest, @escaping @Sendable (JSON) -> Void) -> Void
    /// The live workout's news since the web thread's copy (`LiveRequest`); the answer arrives
    /// on any thread.
    let live: @Sendable (LiveRequest, @escaping @Sendable (LiveDelta) -> Void) -> Void
    /// The settings pages are drawn with (units, zone, week, habits), current after a reload.
    let settings: @Sendable () -> WebSettings
    /// Routes of `/heatmap`, kept once read.
    let routes = RouteSketchCache()
}

/// The rendering settings, copied from the configuration.
struct WebSettings: Sendable {
    var units: UnitFormatter
    var calendar: StreakCalculator
    var habits: [Habit]
    var version: String
    /// `web.tiles`: the base map, and the one origin the pages' CSP lets images come from.
    var tiles: TileLayer?
}

/// What the web thread's copy of the live workout holds: the workout's ID and how many of its
/// points and events it has.
struct LiveRequest: Sendable {
    var id: WorkoutID?
    var points: Int
    var events: Int
}

/// The live workout's news: state, summary, and the points and events after those the web
/// thread had (all of them when the workout changed: `reset`).
struct LiveDelta: Sendable {
    var state: String
    var id: WorkoutID?
    var summary: WorkoutSummary?
    var reset: Bool
    var points: [TrackPoint]
    var events: [WorkoutEvent]
    var fix: String
    /// The plan's place now, nil without a plan.
    var plan: PlanStatus? = nil
}

/// The web thread's copy of the live workout, grown by each `LiveDelta`.
struct LiveMirror {
    private(set) var snapshot = LiveSnapshot(state: "idle", summary: nil)
    private(set) var id: WorkoutID?

    var request: LiveRequest { LiveRequest(id: id, points: snapshot.points.count, events: snapshot.events.count) }

    mutating func apply(_ d: LiveDelta) {
        if d.reset || d.id != id {
            snapshot.points = []
            snapshot.events = []
        }
        id = d.id
        snapshot.state = d.state
        snapshot.summary = d.summary
        snapshot.fix = d.fix
        snapshot.plan = d.plan
        snapshot.points.append(contentsOf: d.points)
        snapshot.events.append(contentsOf: d.events)
        if d.id == nil { snapshot.points = []; snapshot.events = [] }
    }
}

extension WorkoutLifecycle {
    /// The live workout's news since `r` (for the web pages): everything when `r` is about
    /// another workout.
    func liveDelta(since r: LiveRequest, now: Double, fix: String) -> LiveDelta {
        guard let id = currentWorkoutID, let track = liveTrack else {
            return LiveDelta(state: stateName, id: nil, summary: nil, reset: true, points: [], events: [], fix: fix)
        }
        let same = r.id == id && r.points <= track.points.count && r.events <= track.events.count
        let p0 = same ? r.points : 0, e0 = same ? r.events : 0
        return LiveDelta(state: stateName, id: id, summary: summary(now: now), reset: !same,
                         points: Array(track.points[p0...]), events: Array(track.events[e0...]), fix: fix)
    }
}
