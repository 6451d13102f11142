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

/// Cheap, certain bounds on the length of a step, for `TrackSpeedCheck.warning`, without
/// trigonometry. On the WGS84 ellipsoid the line element is `ds² = M²dφ² + p²dλ²` (M the
/// meridian radius, between b²/a and a²/b; p = N·cos φ the parallel's radius, at most
/// (a²/b)·cos φ). So the geodesic (the shortest path) is at most the length of the path
/// straight in (φ, λ): `(a²/b)·√(Δφ² + (cosmax·Δλ)²)`, cosmax an upper bound of cos φ over the
/// latitudes between the two ends (`1 − x²/2 + x⁴/24 ≥ cos x`, at the end nearer the equator,
/// or 1 across it); and at least `(b²/a)·|Δφ|` (no path changes latitude faster). Margins far
/// above the rounding of either side (Karney's, or the short-line formula's, ~1e-8 m) are added.
enum SpeedBounds {
    static let a = 6378137.0
    static let b = a * (1 - 1 / 298.257223563)
    static let radians = Double.pi / 180

    /// Metres, at least the geodesic between the two points.
    @inline(__always) static func upper(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let dphi = abs(lat2 - lat1) * radians
        var dl = abs(lon2 - lon1)
        if dl > 180 { dl = 360 - dl }
        let x = (lat1 * lat2 <= 0 ? 0 : min(abs(lat1), abs(lat2))) * radians
        let x2 = x * x
        let cosmax = min(1, 1 - x2 / 2 + x2 * x2 / 24)
        let dlambda = dl * radians * cosmax
        return (a * a / b) * (dphi * dphi + dlambda * dlambda).squareRoot() * (1 + 1e-9) + 1e-6
    }

    /// Metres, at most the geodesic between the two points.
    @inline(__always) static func lower(_ lat1: Double, _ lat2: Double) -> Double {
        max(0, (b * b / a) * abs(lat2 - lat1) * radians * (1 - 1e-9) - 1e-6)
    }

    /// True when the track's median moving speed (as `TrackSpeedCheck` measures it) is certainly
    /// at most `limit`. A step whose bound may exceed `limit` is measured exactly (the same
    /// division of the same geodesic as `TrackSpeedCheck`), so the steps above `limit` are
    /// counted exactly; then none above, or more steps certainly moving and at most `limit`
    /// than above (the middle value, or both middle values of an even count, are then at most
    /// `limit`), or certainly too few moving steps to say anything, settles it.
    static func medianCannotExceed<F: Collection<Fix>, S: Collection<Int>>(_ limit: Double, fixes: F, segments: S) -> Bool {
        guard limit.isFinite, limit >= TrackSpeedCheck.movingSpeed else { return false }
        let settings = MetricsSettings()
        var atMost = 0, above = 0, maybeMoving = 0
        var previous: (fix: Fix, segment: Int, ok: Bool)?
        for (f, s) in zip(fixes, segments) {
            let ok = FixFilter.qualityRejection(f, settings: settings) == nil
            defer { previous = (f, s, ok) }
            guard let q = previous, q.segment == s, f.time > q.fix.time, ok, q.ok else { continue }
            let dt = f.time - q.fix.time
            let high = upper(q.fix.latitude, q.fix.longitude, f.latitude, f.longitude) / dt
            if high < TrackSpeedCheck.movingSpeed { continue }  // certainly standing
            maybeMoving += 1
            if high <= limit {
                if lower(q.fix.latitude, f.latitude) / dt >= TrackSpeedCheck.movingSpeed { atMost += 1 }
                continue
            }
            let v = MeasuredDistance.geodesic(q.fix, f) / dt
            if v.isFinite, v >= TrackSpeedCheck.movingSpeed {
                if v > limit { above += 1 } else { atMost += 1 }
            }
        }
        return maybeMoving < TrackSpeedCheck.minimumSteps || above == 0 || atMost > above
    }
}
