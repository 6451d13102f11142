/// The activity of a file that names none, judged from how its track moves: the median and the
/// 95th percentile of its moving speeds (steps of at least 0.5 m/s between consecutive fixes of
/// a segment) and its climb per kilometre. A reason in words goes with it (an import warning).
/// Nil when nothing can be said (too few moving steps, under a minute or 200 m of movement, or
/// under five minutes at a human pace: a clip that short is not a workout's pattern, and a
/// sailing boat's 148 s at 10 km/h reads like a run): the configured `defaultActivity` then
/// applies. A motor vehicle shows itself in a minute. Pure.
///
/// | median | 95th percentile | climb | activity |
/// |---|---|---|---|
/// | > 15 m/s (54 km/h) or p95 > 30 m/s | | | other (a motor vehicle: kept out of running and riding records) |
/// | >= 5 m/s (18 km/h: a run's median is slower) | | | cycling |
/// | 1.9-5 m/s | >= 7.5 m/s (a runner never holds 27 km/h) | | cycling |
/// | 1.9-5 m/s | < 7.5 m/s | | running |
/// | 0.5-1.9 m/s | | >= 40 m per km | hiking |
/// | 0.5-1.9 m/s | | < 40 m per km | walking |
public struct ActivityInference: Sendable, Equatable {
    public var activity: ActivityType
    /// Why, for the import's warning: "no activity in the file; it moves at 11 km/h (median) ...".
    public var reason: String

    /// Fewest moving steps, seconds and metres a guess needs.
    static let minimumSteps = 30
    static let minimumSeconds = 60.0
    static let minimumMeters = 200.0
    /// Fewest seconds of movement for a workout's activity (anything slower than a motor vehicle).
    static let minimumWorkoutSeconds = 300.0

    /// Judges `speeds` (m/s of the moving steps, any order) over `seconds` and `meters` of
    /// movement with `climb` metres of elevation gain.
    public init?(speeds: [Double], seconds: Double, meters: Double, climb: Double) {
        guard speeds.count >= ActivityInference.minimumSteps, seconds >= ActivityInference.minimumSeconds,
              meters >= ActivityInference.minimumMeters else { return nil }
        let sorted = speeds.sorted()
        let median = sorted[sorted.count / 2]
        let p95 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.down)))]
        let climbPerKm = meters > 0 ? climb / (meters / 1000) : 0
        let kmh = { (v: Double) in String(Int((v * 3.6).rounded())) }
        let moves = "it moves at \(kmh(median)) km/h (median; 95 % of the time under \(kmh(p95)) km/h)"
        let kind: ActivityType
        var why: String
        if median > 15 || p95 > 30 {
            kind = .other
            why = "too fast for a workout: likely a motor vehicle"
        } else if median >= 5 || (median >= 1.9 && p95 >= 7.5) {
            kind = .cycling
            why = median >= 5 ? "like a ride" : "with stretches faster than a runner holds: like a ride"
        } else if median >= 1.9 {
            kind = .running
            why = "like a run"
        } else if median >= 0.5 {
            kind = climbPerKm >= 40 ? .hiking : .walking
            why = climbPerKm >= 40 ? "at a walk, climbing \(Int(climbPerKm.rounded())) m per km: like a hike" : "like a walk"
        } else {
            return nil
        }
        guard kind == .other || seconds >= ActivityInference.minimumWorkoutSeconds else { return nil }
        activity = kind
        reason = "no activity in the file; \(moves), \(why): imported as \(kind.displayName.lowercased()) (`workoutctl edit ID --activity ACTIVITY` changes it)"
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

        mutating func add(_ f: Fix, segment s: Int) {
            let before = steps.movingCount
            steps.add(f, segment: s)
            if steps.movingCount > before, let p = previous, p.segment == s {
                seconds += f.time - p.time
                meters += steps.lastDistance
            }
            if let a = f.altitude, a.isFinite { elevation.add(a) }
            previous = (f.time, s)
        }

        var guess: ActivityInference? {
            ActivityInference(speeds: steps.movingSpeeds, seconds: seconds, meters: meters, climb: elevation.gain)
        }
    }
}
