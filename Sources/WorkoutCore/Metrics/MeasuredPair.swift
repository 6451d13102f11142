/// The last geodesic distance the fix filter measured, with the two positions it was measured
/// between: a later pass over the same pair of fixes (the importer's speed check steps from each
/// fix to the next, which is the filter's anchor-to-fix pair whenever the previous fix was
/// accepted) takes it instead of computing the same geodesic twice. Positions are compared bit
/// for bit, so a reused distance is exactly the one the geodesic would give.
public struct MeasuredPair: Sendable, Equatable {
    var latitude1 = Double.nan, longitude1 = Double.nan
    var latitude2 = Double.nan, longitude2 = Double.nan
    var meters = Double.nan

    /// Nothing measured yet (NaN positions match no fix).
    public static let none = MeasuredPair()

    /// Measures from `a` to `b` with the WGS84 geodesic (as `MeasuredDistance.geodesic`) and remembers it.
    static func measure(_ a: FixFilter.Position, _ b: FixFilter.Position) -> MeasuredPair {
        MeasuredPair(a, b, meters: Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude))
    }

    /// The distance from `a` to `b` if this is that pair (same bits, same order), else nil.
    func meters(from a: FixFilter.Position, to b: FixFilter.Position) -> Double? {
        guard latitude1.bitPattern == a.latitude.bitPattern, longitude1.bitPattern == a.longitude.bitPattern,
              latitude2.bitPattern == b.latitude.bitPattern, longitude2.bitPattern == b.longitude.bitPattern else { return nil }
        return meters
    }
}

extension MeasuredPair {
    /// The pair `a` to `b` with a distance already measured between them.
    init(_ a: FixFilter.Position, _ b: FixFilter.Position, meters: Double) {
        self.init(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude, meters: meters)
    }
}
