/// The recorder's motion: its phase (`RecorderPhase`: acquiring, moving, auto-paused, signal
/// lost, paused by the user), where each second goes (`TimeBuckets`), and the evidence the
/// auto-pause rules read (docs/metrics.md): the last usable fix, the last movement and where it
/// was shown. `WorkoutRecorder` feeds it each fix's verdict and writes the timeline from what it
/// answers; this decides when a stop begins and ends. Pure, O(1) per fix.
struct AutoPause: Sendable {
    /// The one place the workout's phase is stored.
    private(set) var phase: RecorderPhase
    private(set) var time: TimeBuckets
    /// Last fix showing a usable position (accepted or stationary jitter).
    private(set) var lastEvidence: Double
    /// Last accepted fix that moved (start of a potential stop).
    private(set) var lastMove: Double
    /// Where movement was last shown (`showsMovement`): the stop rule measures from here.
    private(set) var anchor: FixFilter.Position?
    /// The activity's auto-pause speed (m/s; nil: it never auto-pauses).
    let speed: Double?
    /// The settings' auto-pause delay (s; nil: auto-pause off). A reload may change it.
    var delay: Double?
    /// Whether the activity records positions (without, it is moving whenever not paused).
    let supportsGPS: Bool

    init(startedAt: Double, supportsGPS: Bool, speed: Double?, delay: Double?) {
        self.supportsGPS = supportsGPS
        self.speed = speed
        self.delay = delay
        phase = supportsGPS ? .acquiring : .moving
        time = TimeBuckets(from: startedAt)
        lastEvidence = startedAt
        lastMove = startedAt
    }

    /// Whether stops are recognised at all.
    var isEnabled: Bool { supportsGPS && delay != nil && speed != nil }

    /// Seconds without movement that make a stop, for a given stationary radius.
    func stopDelay(radius: Double) -> Double {
        guard let d = delay, let v = speed, v > 0 else { return .infinity }
        return max(d, radius / v)
    }

    /// Whether a stop is due at `t` for a fix with stationary radius `radius`.
    func stopIsDue(at t: Double, radius: Double) -> Bool {
        isEnabled && t - lastMove >= stopDelay(radius: radius)
    }

    /// Whether an accepted fix shows movement: it lies at least `speed x max(delay, dt)` from
    /// where movement was last shown, dt seconds ago. So a stretch slower than the activity's
    /// auto-pause speed for the auto-pause delay is a stop whatever the stationary radius (a
    /// device's track is measured with none), and a long gap between two fixes a few metres
    /// apart (a device that stops logging while standing) is one too. `measured`: the pair the
    /// fix filter has just measured; moving steadily, the anchor is its last accepted fix and
    /// its metres are reused (the same bits in, the same metres out).
    func showsMovement(_ fix: Fix, measured: MeasuredPair? = nil) -> Bool {
        guard isEnabled, let a = anchor, let v = speed, let delay else { return true }
        let dt = fix.time - a.time
        let d = measured?.meters(from: a, to: FixFilter.Position(fix))
            ?? Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: fix.latitude, longitude2: fix.longitude)
        return d >= v * max(delay, dt)
    }

    /// Puts the time until `t` in the bucket of the current phase.
    mutating func account(until t: Double) {
        time.account(until: t, in: phase.bucket)
    }

    /// Evidence of a usable position at `t`.
    mutating func evidence(at t: Double) { lastEvidence = max(lastEvidence, t) }

    /// Movement shown by `fix`: the time until it is moving time; stops are measured from it.
    mutating func moved(_ fix: Fix) {
        account(until: fix.time)
        lastMove = fix.time
        anchor = FixFilter.Position(fix)
    }

    /// The distance (without positions) moved on at `t`: moving time until then.
    mutating func movedWithoutPosition(at t: Double) {
        account(until: t)
        lastMove = t
    }

    /// What ended when an accepted fix set a workout in motion (`start`).
    enum Start: Equatable {
        /// The first usable fix (at the start, after a resume).
        case acquired
        /// The first after a signal loss, at its time.
        case regained(at: Double)
        /// A departure from an auto-pause, dated by the stop's rule (`StopArea`).
        case resumed(at: Double)
    }

    /// An accepted fix sets a workout that is acquiring, without signal or auto-paused moving
    /// (a stop's time ends at its departure); nil when it is moving or paused already.
    mutating func start(_ fix: Fix) -> Start? {
        let t = fix.time
        let start: Start
        switch phase {
        case .acquiring:
            account(until: t)
            start = .acquired
        case .signalLost:
            account(until: t)
            start = .regained(at: t)
        case .autoPaused(let stop):
            let at = min(t, max(time.accountedUntil, stop.departure ?? stop.candidate?.before ?? lastEvidence))
            account(until: at)
            start = .resumed(at: at)
        case .moving, .paused:
            return nil
        }
        phase = .moving
        moved(fix)
        return start
    }

    /// A fix showing no movement (stationary jitter, a point inside a stop): evidence of signal,
    /// and of the stop if there is one. Returns whether a stop is due at it (`beginStop`).
    mutating func stationary(_ fix: Fix, radius: Double) -> Bool {
        switch phase {
        case .autoPaused(var stop):
            evidence(at: fix.time)
            stop.add(fix)
            phase = .autoPaused(stop)
            return false
        case .moving:
            evidence(at: fix.time)
            return stopIsDue(at: fix.time, radius: radius)
        case .acquiring, .signalLost, .paused:
            return false
        }
    }

    /// A stop recognised at `fix`: it began at the last movement, which is returned. Its area is
    /// centred on where movement was last shown, or on `fallback` (the last accepted fix).
    mutating func beginStop(at fix: Fix, fallback: FixFilter.Position?) -> Double {
        account(until: lastMove)
        phase = .autoPaused(StopArea(at: fix, anchor: anchor ?? fallback))
        return lastMove
    }

    /// While auto-paused: whether `fix` confirms the departure (`StopArea`), `radius` the resume
    /// radius. False in any other phase.
    mutating func confirmsDeparture(_ fix: Fix, radius: Double) -> Bool {
        guard case .autoPaused(var stop) = phase else { return false }
        let departs = stop.confirmsDeparture(fix, radius: radius, speed: speed ?? 0, lastEvidence: lastEvidence)
        phase = .autoPaused(stop)
        return departs
    }

    /// When the signal was lost, if at `t` a GPS workout that had it has seen no usable fix for
    /// more than `timeout` seconds; nil otherwise.
    func signalLoss(at t: Double, timeout: Double) -> Double? {
        guard supportsGPS, phase.hasSignal, t - lastEvidence > timeout else { return nil }
        return max(lastEvidence, time.accountedUntil)
    }

    /// Enters `.signalLost` at `t`; returns whether that closed an auto-pause.
    mutating func loseSignal(at t: Double) -> Bool {
        account(until: t)
        let closesStop = phase.isAutoPaused
        phase = .signalLost(since: t)
        return closesStop
    }

    /// The user pauses at `t`; returns the phase that ends (an auto-pause is closed; a signal
    /// loss goes on after the resume).
    mutating func pause(at t: Double, cause: PauseCause) -> RecorderPhase {
        account(until: t)
        let ended = phase
        var lostSince: Double?
        switch ended {
        case .signalLost(let since): lostSince = since
        case .acquiring, .moving, .autoPaused, .paused: break
        }
        phase = .paused(UserPause(since: t, cause: cause, signalLostSince: lostSince))
        return ended
    }

    /// The user's `pause` ends at `t`: acquiring again, or without signal if it was lost when
    /// paused (an activity without GPS is moving). Stops are measured from `t`.
    mutating func resume(_ pause: UserPause, at t: Double) {
        account(until: t)
        if !supportsGPS {
            phase = .moving
        } else if let since = pause.signalLostSince {
            phase = .signalLost(since: since)
        } else {
            phase = .acquiring
        }
        lastMove = t
        anchor = nil
        evidence(at: t)
    }

    /// With auto-pause turned off (`delay` nil) during an auto-pause, the stop ends at `t` (not
    /// before the accounted time): returns when, nil when no stop ended.
    mutating func endStopIfDisabled(at t: Double) -> Double? {
        guard !isEnabled, case .autoPaused = phase else { return nil }
        let end = max(t, time.accountedUntil)
        account(until: end)
        phase = .moving
        lastMove = end
        anchor = nil
        return end
    }
}
