/// Where the recorder stands: the one place the workout's phase is stored (the lifecycle asks
/// the recorder whether the workout is paused; journal replay too). Each case carries the data
/// of that phase.
enum RecorderPhase: Sendable {
    /// No usable fix yet (a GPS activity at the start, or after a resume): time counts as
    /// signal lost. -> moving (a fix is accepted), paused
    case acquiring
    /// Moving (and, for an activity without GPS, always so while not paused).
    /// -> autoPaused (no movement), signalLost (no usable fix), paused
    case moving
    /// Stopped without the user pausing: where the stop is, and a departure candidate.
    /// -> moving (departure confirmed; or closed by a signal loss, then signalLost), paused
    case autoPaused(StopArea)
    /// No usable fix since `since` (the last usable fix). -> moving (a fix is accepted), paused
    case signalLost(since: Double)
    /// Paused by the user, or `.recovered` while the daemon was down. -> (resume) acquiring,
    /// signalLost (if it was lost when paused) or moving (activity without GPS)
    case paused(UserPause)

    /// The bucket this phase's time goes into.
    var bucket: TimeBuckets.Bucket {
        switch self {
        case .acquiring, .signalLost: return .signalLost
        case .moving: return .moving
        case .autoPaused: return .autoPaused
        case .paused: return .userPaused
        }
    }

    /// Whether a usable fix arrived recently (moving or standing still).
    var hasSignal: Bool {
        switch self {
        case .moving, .autoPaused: return true
        case .acquiring, .signalLost, .paused: return false
        }
    }

    var isAutoPaused: Bool {
        switch self {
        case .autoPaused: return true
        case .acquiring, .moving, .signalLost, .paused: return false
        }
    }

    var userPause: UserPause? {
        switch self {
        case .paused(let p): return p
        case .acquiring, .moving, .autoPaused, .signalLost: return nil
        }
    }
}

/// A pause by the user (or a restore), as the recorder holds it.
public struct UserPause: Sendable, Equatable {
    /// When the pause began, as recorded on the timeline (clamped, see `WorkoutRecorder.clamp`).
    public var since: Double
    public var cause: PauseCause
    /// Set when the signal was already lost at the pause: the loss continues after the resume.
    var signalLostSince: Double?
}

/// An auto-pause: the mean position of the stop and the first fix seen beyond the resume radius.
///
/// Resume rule: a fix at least `max(autoResumeDistance, 2 x radius)` from the mean position is a
/// candidate; the departure is confirmed by a fix at least 1 s later, still beyond, and farther
/// from the stop by `autoPauseSpeed` x the time between them. Any fix back inside the radius
/// cancels the candidate. This stops pause/resume loops on receiver noise. The resume is dated
/// at `departure`.
struct StopArea: Sendable {
    private var latitudeSum: Double
    private var longitudeSum: Double
    private var count: Double
    /// The departure candidate: the time of its fix, its distance from the stop, and the last
    /// evidence of standing still before it (where the resume is dated). Only the time of the
    /// fix is kept: the phase that holds this is read for every fix, and a whole `Fix` made it
    /// a 250-byte copy each time.
    private(set) var candidate: (time: Double, distance: Double, before: Double)?
    /// When the departure began, once confirmed: the candidate's time less the time its
    /// distance from the stop takes at the confirming speed, never before the last evidence of
    /// standing (a device that logs nothing while standing leaves a long gap before the
    /// candidate: the stop lasts until the runner left, not until the last fix of the stop).
    private(set) var departure: Double?

    /// A stop seen at `fix`, with the last accepted fix (where the runner stood) if any.
    init(at fix: Fix, lastAccepted: Fix?) {
        self.init(at: fix, anchor: lastAccepted.map(FixFilter.Position.init))
    }

    /// The same with the filter's kept position of the last accepted fix.
    init(at fix: Fix, anchor: FixFilter.Position?) {
        latitudeSum = fix.latitude; longitudeSum = fix.longitude; count = 1
        if let a = anchor { latitudeSum += a.latitude; longitudeSum += a.longitude; count += 1 }
    }

    /// Another fix showing no movement.
    mutating func add(_ fix: Fix) {
        latitudeSum += fix.latitude; longitudeSum += fix.longitude; count += 1
    }

    /// Whether `fix` confirms a departure (see the rule above). `radius` is the resume radius,
    /// `lastEvidence` the last fix that showed the runner standing.
    mutating func confirmsDeparture(_ fix: Fix, radius r: Double, speed: Double, lastEvidence: Double) -> Bool {
        guard count > 0 else { return true }
        let d = Geodesic.wgs84.distance(latitude1: latitudeSum / count, longitude1: longitudeSum / count,
                                        latitude2: fix.latitude, longitude2: fix.longitude)
        guard d >= r else { candidate = nil; return false }
        guard let c = candidate else { candidate = (fix.time, d, lastEvidence); return false }
        let dt = fix.time - c.time
        if dt >= 1 && d >= c.distance + speed * dt {
            let u = (d - c.distance) / dt
            departure = max(c.before, c.time - c.distance / u)
            return true
        }
        if d < c.distance { candidate = (fix.time, d, c.before) }
        return false
    }
}
