/// The activity of a file that names none, judged from how its track moves against the
/// activities' plausibility bounds (`PlausibilityBounds`, docs/metrics.md): the median and the
/// 95th percentile of its moving speeds (steps of at least 0.5 m/s between consecutive fixes of
/// a segment) and its climb per kilometre. A reason in words goes with it (an import warning).
/// Nil only when the track cannot tell: fewer than `minimumSteps` moving steps, under
/// `minimumSeconds` or `minimumMeters` of movement (a few points), or no movement at all; the
/// configured `defaultActivity` then applies. Never a run for what a runner cannot do. Pure.
///
/// | median | 95th percentile | climb | activity |
/// |---|---|---|---|
/// | > 15 m/s (54 km/h) or p95 > the ride's descent top speed (27.8 m/s) | | | other (a motor vehicle: kept out of running and riding records) |
/// | >= 5 m/s (18 km/h: a run's median is slower) | | | cycling |
/// | 1.9-5 m/s | >= the 1 km world record's pace (7.58 m/s: no runner holds it 5 % of a run) | | cycling |
/// | 1.9-5 m/s | below it | | running |
/// | 0.5-1.9 m/s | | >= 40 m per km | hiking |
/// | 0.5-1.9 m/s | | < 40 m per km | walking |
///
/// A track the table calls a run or a ride that gets going like a motor vehicle (`LaunchCount`:
/// at least 2 of its starts from a stop, and at least half, beyond a rider's reach) is other.
public struct ActivityInference: Sendable, Equatable {
    public var activity: ActivityType
    /// Why, for the import's warning: "no activity in the file; it moves at 11 km/h (median) ...".
    public var reason: String

    /// Fewest moving steps, seconds and metres a guess needs: a few points say nothing.
    static let minimumSteps = 10
    static let minimumSeconds = 20.0
    static let minimumMeters = 50.0

    /// The activity `median` and `p95` (m/s of the moving steps) and the climb say, with the
    /// words why; nil for no movement.
    static func classify(median: Double, p95: Double, climbPerKm: Double) -> (activity: ActivityType, why: String)? {
        let ride = ActivityType.cycling.plausibility, run = ActivityType.running.plausibility
        let runnersKilometre = 1000 / run.fastestSeconds(meters: 1000)
        if median > 15 || p95 > ride.descentSpeed {
            return (.other, "too fast for a workout: likely a motor vehicle")
        } else if median >= 5 {
            return (.cycling, "like a ride")
        } else if median >= 1.9 && p95 >= runnersKilometre {
            return (.cycling, "with stretches faster than a runner holds: like a ride")
        } else if median >= 1.9 {
            return (.running, "like a run")
        } else if median >= 0.5 {
            return climbPerKm >= 40 ? (.hiking, "at a walk, climbing \(Int(climbPerKm.rounded())) m per km: like a hike") : (.walking, "like a walk")
        }
        return nil
    }

    /// "it moves at 32 km/h (median; 95 % of the time under 45 km/h)".
    static func moves(median: Double, p95: Double) -> String {
        let kmh = { (v: Double) in String(Int((v * 3.6).rounded())) }
        return "it moves at \(kmh(median)) km/h (median; 95 % of the time under \(kmh(p95)) km/h)"
    }

    /// The median and 95th percentile of `speeds` (any order, not empty).
    static func quantiles(_ speeds: [Double]) -> (median: Double, p95: Double) {
        // The two order statistics of the sorted speeds, found by selection (a sort of a 24 h
        // log's 43,000 speeds was 27 M instructions): the 95th percentile's place first, then the
        // median's among the speeds below it. The same values as `sorted()` gives at those places.
        var v = speeds
        let n = v.count
        let high = min(n - 1, Int((Double(n) * 0.95).rounded(.down)))
        return v.withUnsafeMutableBufferPointer { b in
            select(b, high, 0, n)
            select(b, n / 2, 0, high + 1)
            return (b[n / 2], b[high])
        }
    }

    /// Moves the `k`-th smallest of `b[lo..<hi]` to `b[k]`, the smaller ones before it and the
    /// larger after (Hoare's selection, median-of-three pivots). `<` on the values: speeds are
    /// finite (`TrackSpeedCheck.Steps` keeps only finite ones).
    static func select(_ b: UnsafeMutableBufferPointer<Double>, _ k: Int, _ lo: Int, _ hi: Int) {
        var lo = lo, hi = hi - 1
        while hi > lo {
            let mid = lo + (hi - lo) / 2
            if b[mid] < b[lo] { b.swapAt(mid, lo) }
            if b[hi] < b[lo] { b.swapAt(hi, lo) }
            if b[hi] < b[mid] { b.swapAt(hi, mid) }
            let pivot = b[mid]
            var i = lo, j = hi
            while i <= j {
                while b[i] < pivot { i += 1 }
                while pivot < b[j] { j -= 1 }
                if i <= j { b.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return }
        }
    }

    /// Judges `speeds` (m/s of the moving steps, any order) over `seconds` and `meters` of
    /// movement with `climb` metres of elevation gain.
    public init?(speeds: [Double], seconds: Double, meters: Double, climb: Double) {
        self.init(speeds: speeds, seconds: seconds, meters: meters, climb: climb, launches: LaunchCount())
    }

    /// The same with how the track gets going after its stops (`LaunchCount`).
    init?(speeds: [Double], seconds: Double, meters: Double, climb: Double, launches: LaunchCount) {
        guard speeds.count >= ActivityInference.minimumSteps, seconds >= ActivityInference.minimumSeconds,
              meters >= ActivityInference.minimumMeters else { return nil }
        let (median, p95) = ActivityInference.quantiles(speeds)
        let climbPerKm = meters > 0 ? climb / (meters / 1000) : 0
        guard var (kind, why) = ActivityInference.classify(median: median, p95: p95, climbPerKm: climbPerKm) else { return nil }
        if kind == .cycling || kind == .running, launches.likeAMotorVehicle {
            (kind, why) = (.other, "but \(launches.beyondARider) of its \(launches.launches) starts from a stop go farther than a rider does "
                + "(\(Int(launches.limit.rounded())) m in \(Int(LaunchCount.span)) s): likely a motor vehicle")
        }
        activity = kind
        reason = "no activity in the file; \(ActivityInference.moves(median: median, p95: p95)), \(why): imported as \(kind.displayName.lowercased()) (`workoutctl edit ID --activity ACTIVITY` changes it)"
    }

    /// The warning when the median moving speed of a workout named `named` is above what the
    /// activity holds (`PlausibilityBounds.heldCeiling`: a drive or a ride named a run): the name
    /// is kept, and its stretches beyond the activity set no record. Nil when it is not.
    static func contradiction(named: ActivityType, median: Double) -> String? {
        guard named.supportsGPS, median > named.plausibility.heldCeiling else { return nil }
        let kmh = { (v: Double) in String(Int((v * 3.6).rounded())) }
        let likely = classify(median: median, p95: median, climbPerKm: 0).map { "; likely " + ($0.activity == .other ? "a motor vehicle" : $0.activity.displayName.lowercased()) } ?? ""
        let name = named.displayName.lowercased()
        return "named \(name), but it moves at \(kmh(median)) km/h median, faster than \(name) holds (\(kmh(named.plausibility.heldCeiling)) km/h)\(likely); "
            + "kept as \(name) (`workoutctl edit ID --activity ACTIVITY` changes it), its stretches beyond \(name) set no record"
    }

    /// The guess for a track's fixes in file order, with their file segments.
    public init?(fixes: [Fix], segments: [Int]) {
        var steps = Steps()
        for (f, s) in zip(fixes, segments) { steps.add(f, segment: s) }
        guard let guess = steps.guess else { return nil }
        self = guess
    }

    /// The import's warning for a file that names no activity: why `kind` was taken (the
    /// guess's reason, or that the configured default applied).
    public static func warning(_ guess: ActivityInference?, kind: ActivityType) -> String {
        guess?.reason ?? "no activity in the file and too little movement to tell: imported as \(kind.displayName.lowercased()) (defaultActivity)"
    }

    /// A track's fixes fed one at a time, in file order (the streaming FIT import feeds them
    /// from the file): memory stays bounded (`TrackSpeedCheck.Steps` samples a long track).
    struct Steps {
        private var steps = TrackSpeedCheck.Steps()
        private var elevation = ElevationAccumulator(window: 5, threshold: 5)
        private var seconds = 0.0, meters = 0.0
        private var previous: (time: Double, segment: Int)?
        /// How it gets going after its stops (`LaunchCount`), over the moving steps' distance.
        private(set) var launches = LaunchCount()
        private var launchDistance = 0.0
        /// The geodesic (m) from the fix before to the last one added, if it measured that step.
        var lastStep: Double? { steps.lastStep }

        mutating func add(_ f: Fix, segment s: Int) {
            let before = steps.movingCount
            steps.add(f, segment: s)
            let moved = steps.movingCount > before
            if moved, let p = previous, p.segment == s {
                seconds += f.time - p.time
                meters += steps.lastDistance
            }
            if let d = steps.lastStep {
                launchDistance += d
                launches.add(time: f.time, distance: launchDistance, segment: s)
            } else {
                launches.breakOff()
            }
            if let a = f.altitude, a.isFinite { elevation.add(a) }
            previous = (f.time, s)
        }

        var guess: ActivityInference? {
            ActivityInference(speeds: steps.movingSpeeds, seconds: seconds, meters: meters, climb: elevation.gain, launches: launches)
        }
    }
}
