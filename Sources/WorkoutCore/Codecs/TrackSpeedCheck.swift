#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How fast a recorded track moves, against the activity named for it: a device's track far
/// faster than its activity allows (a ride imported as a hike) keeps its distance
/// (`SpeedLimit.anyActivity`), and the import says so, naming the speed and a likely activity.
struct TrackSpeedCheck {
    /// Median speed (m/s) of the steps that move (at least `movingSpeed`), or nil with too few.
    let medianMovingSpeed: Double?

    /// A step slower than this (m/s) is standing still and does not count.
    static let movingSpeed = 0.5
    /// Fewer moving steps than this say nothing.
    static let minimumSteps = 10

    /// Steps between consecutive fixes of the same segment with a later time.
    init(fixes: some Sequence<Fix>, segments: some Sequence<Int>) {
        var speeds: [Double] = []
        var previous: (fix: Fix, segment: Int)?
        for (f, s) in zip(fixes, segments) {
            defer { previous = (f, s) }
            guard let p = previous, p.segment == s, f.time > p.fix.time, FixFilter.qualityRejection(f, settings: MetricsSettings()) == nil,
                  FixFilter.qualityRejection(p.fix, settings: MetricsSettings()) == nil else { continue }
            let v = MeasuredDistance.geodesic(p.fix, f) / (f.time - p.fix.time)
            if v.isFinite, v >= TrackSpeedCheck.movingSpeed { speeds.append(v) }
        }
        guard speeds.count >= TrackSpeedCheck.minimumSteps else { medianMovingSpeed = nil; return }
        speeds.sort()
        let n = speeds.count
        medianMovingSpeed = n % 2 == 1 ? speeds[n / 2] : (speeds[n / 2 - 1] + speeds[n / 2]) / 2
    }

    /// The import's warning for a whole track (`warning(activity:distance:)` of the check over
    /// `fixes`), without measuring every step when the answer is certain anyway: an activity
    /// without GPS never warns, and a track whose steps are, by cheap bounds, mostly at or
    /// below the activity's limit cannot have a median above it. Only a track that might warn
    /// is measured step by step (Karney's geodesic, as always). Same answer for every input
    /// (`TrackSpeedCheckTests`); the exact pass cost ~15 % of a FIT batch's import CPU.
    static func warning<F: Collection<Fix>, S: Collection<Int>>(fixes: F, segments: S, activity: ActivityType, distance: Double) -> String? {
        guard activity.supportsGPS else { return nil }
        if SpeedBounds.medianCannotExceed(activity.maxPlausibleSpeed, fixes: fixes, segments: segments) { return nil }
        return TrackSpeedCheck(fixes: fixes, segments: segments).warning(activity: activity, distance: distance)
    }

    /// The activity a typical moving speed (m/s) suggests, or nil beyond any (a vehicle).
    static func likelyActivity(speed v: Double) -> ActivityType? {
        if v < 2.0 { return .walking }       // < 7.2 km/h
        if v < 5.0 { return .running }       // < 18 km/h
        if v < 12.5 { return .cycling }      // < 45 km/h
        return nil
    }

    /// The warning when the track's median moving speed is above the highest `activity` allows.
    func warning(activity: ActivityType, distance: Double) -> String? {
        guard activity.supportsGPS, let v = medianMovingSpeed, v > activity.maxPlausibleSpeed else { return nil }
        let kmh = { (x: Double) in String(Int((x * 3.6).rounded())) }
        let likely = TrackSpeedCheck.likelyActivity(speed: v).map { "likely " + $0.displayName.lowercased() } ?? "likely a motor vehicle"
        return "moves at \(kmh(v)) km/h median, far faster than \(activity.displayName.lowercased()) allows (\(kmh(activity.maxPlausibleSpeed)) km/h); "
            + "\(likely); distance kept as recorded (\(formatFixed(distance / 1000, decimals: 2)) km)"
    }
}

/// Cheap, certain bounds on the speed of a step, for `TrackSpeedCheck.warning`: the straight
/// line through the earth (the chord between the two points on the WGS84 ellipsoid) is never
/// longer than the geodesic, and a geodesic no longer than `π/κ` (κ: the ellipsoid's largest
/// curvature, a/b²) is at most `(2/κ)·asin(κ·chord/2)` (Schur's comparison theorem: its
/// curvature as a space curve is at most κ), under `chord·(1 + 2e-5)` for chords up to 100 km.
/// Margins far above the rounding of either computation (chord ~1e-7 m, Karney ~1e-8 m) are
/// added; a step the bounds cannot place (longer hops, a speed near a threshold, anything
/// not finite) counts against the shortcut, so the exact pass decides.
enum SpeedBounds {
    static let a = 6378137.0
    static let f = 1 / 298.257223563
    static let e2 = f * (2 - f)
    /// Longest chord (m) the upper bound is used for.
    static let maxChord = 100_000.0

    /// Earth-centred coordinates of a point on the ellipsoid (height 0).
    static func ecef(latitude: Double, longitude: Double) -> (Double, Double, Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        let sphi = sin(phi), cphi = cos(phi)
        let n = a / (1 - e2 * sphi * sphi).squareRoot()
        return (n * cphi * cos(lambda), n * cphi * sin(lambda), n * (1 - e2) * sphi)
    }

    /// True when the track's median moving speed (as `TrackSpeedCheck` measures it) is certainly
    /// at most `limit`: the steps certainly moving and certainly at most `limit` outnumber all
    /// the others that might be above it (so the middle value, or both middle values of an even
    /// count, are at most `limit`), or the track certainly has too few moving steps to say anything.
    static func medianCannotExceed<F: Collection<Fix>, S: Collection<Int>>(_ limit: Double, fixes: F, segments: S) -> Bool {
        guard limit.isFinite, limit >= TrackSpeedCheck.movingSpeed else { return false }
        let settings = MetricsSettings()
        var atMost = 0, maybeAbove = 0, maybeMoving = 0
        var previous: (fix: Fix, segment: Int, ok: Bool, p: (Double, Double, Double))?
        for (f, s) in zip(fixes, segments) {
            let ok = FixFilter.qualityRejection(f, settings: settings) == nil
            let p = ok ? ecef(latitude: f.latitude, longitude: f.longitude) : (0, 0, 0)
            defer { previous = (f, s, ok, p) }
            guard let q = previous, q.segment == s, f.time > q.fix.time, ok, q.ok else { continue }
            let dx = p.0 - q.p.0, dy = p.1 - q.p.1, dz = p.2 - q.p.2
            let chord = (dx * dx + dy * dy + dz * dz).squareRoot()
            let dt = f.time - q.fix.time
            let low = max(0, chord * (1 - 1e-9) - 1e-6) / dt
            let high = (chord * (1 + 2e-5) + 1e-6) / dt
            guard chord.isFinite, chord <= maxChord, low.isFinite, high.isFinite else { maybeAbove += 1; maybeMoving += 1; continue }
            if high < TrackSpeedCheck.movingSpeed { continue }  // certainly standing
            maybeMoving += 1
            if low >= TrackSpeedCheck.movingSpeed && high <= limit { atMost += 1 } else { maybeAbove += 1 }
        }
        return maybeMoving < TrackSpeedCheck.minimumSteps || atMost > maybeAbove
    }
}
