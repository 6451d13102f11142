/// How a track gets going after its stops, against a rider (docs/metrics.md, "Activity
/// inference"): from the last fix of each stop (a step under `TrackSpeedCheck.movingSpeed`), the
/// distance covered in the next `span` seconds (interpolated between fixes) against the
/// farthest a rider goes from a standstill in that time (`PlausibilityCheck.reach` at cycling's
/// acceleration, up to its top speed on the flat) plus `margin` metres of position noise. A
/// car leaving the lights at 2-3 m/s² goes beyond; a rider (1-1.5 m/s²) does not. Measuring
/// from the stop's last fix, before the departure itself, only ever shortens the distance.
/// O(1) per fix. Pure.
struct LaunchCount: Sendable {
    /// Seconds after a stop the distance is measured over.
    static let span = 8.0
    /// Position noise allowed (m), as the plausibility check's.
    static let margin = PlausibilityCheck.margin
    /// Launches followed for `span` seconds, and those beyond a rider.
    private(set) var launches = 0
    private(set) var beyondARider = 0
    /// The farthest a rider goes in `span` seconds from a standstill, plus the margin (m).
    let limit: Double

    private var previous: (time: Double, distance: Double, segment: Int)?
    /// Since when the steps have been slow (the first fix of the first slow step).
    private var slowSince: Double?
    /// The last fix of the current stop (slow for at least `stopSeconds`), until `span`
    /// seconds after it are measured.
    private var stop: (time: Double, distance: Double)?
    /// How long the steps must stay slow to be a stop (s): a duplicated position is none.
    static let stopSeconds = 3.0

    init(bounds: PlausibilityBounds = ActivityType.cycling.plausibility) {
        limit = PlausibilityCheck.reach(from: 0, seconds: LaunchCount.span, acceleration: bounds.acceleration, top: bounds.flatSpeed)
            + LaunchCount.margin
    }

    /// The next usable fix: its time, the track's distance there (m) and its segment.
    mutating func add(time t: Double, distance d: Double, segment s: Int) {
        defer { previous = (t, d, s) }
        guard let p = previous, p.segment == s, t > p.time else { stop = nil; slowSince = nil; return }
        if let o = stop, t >= o.time + LaunchCount.span {
            // The distance at `span` seconds after the stop, between the fixes around it.
            let at = o.time + LaunchCount.span
            let phi = (at - p.time) / (t - p.time)
            let covered = p.distance + max(0, min(1, phi)) * (d - p.distance) - o.distance
            launches += 1
            if covered > limit { beyondARider += 1 }
            stop = nil
        }
        if (d - p.distance) / (t - p.time) < TrackSpeedCheck.movingSpeed {
            let since = slowSince ?? p.time
            slowSince = since
            if t - since >= LaunchCount.stopSeconds { stop = (t, d) }
        } else {
            slowSince = nil
        }
    }

    /// A fix without a usable step (a new segment, a refused fix): nothing is measured across it.
    mutating func breakOff() {
        previous = nil
        slowSince = nil
        stop = nil
    }

    /// Whether it gets going like a motor vehicle: at least `minimum` launches beyond a rider,
    /// and at least half of all its launches.
    static let minimum = 2
    var likeAMotorVehicle: Bool { beyondARider >= LaunchCount.minimum && 2 * beyondARider >= launches }
}
