/// The workout's measured distance up to each point of its track, as the recorder counted it:
/// an accepted point adds its distance from the previous accepted point of the same segment (a
/// new segment adds nothing), and every other point (stationary jitter, rejected fixes) adds
/// nothing. Fed the points in their stored order with the recorder's geodesic, the figure at the
/// last point is the workout's `distanceMeters` exactly (the same additions in the same order);
/// it is what the TCX `DistanceMeters` and the FIT `record.distance` of each point carry.
public struct MeasuredDistance: Sendable {
    private var anchor: TrackPoint?
    /// Metres measured up to the last point added.
    public private(set) var total = 0.0

    public init() {}

    /// Adds the next point of the workout (in stored order) and returns the distance measured up
    /// to it, measuring between accepted points with `distance`.
    @discardableResult
    public mutating func add(_ p: TrackPoint, distance: (Fix, Fix) -> Double = MeasuredDistance.geodesic) -> Double {
        guard p.isAccepted else { return total }
        if let a = anchor, a.segment == p.segment {
            let d = distance(a.fix, p.fix)
            if d.isFinite { total += d }
        }
        anchor = p
        return total
    }

    /// The recorder's distance between two fixes: the WGS84 geodesic.
    public static func geodesic(_ a: Fix, _ b: Fix) -> Double {
        Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    }
}
