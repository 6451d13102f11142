import func Glibc.cos

/// A workout's route thinned for the heat map of every route (`/heatmap`): the accepted fixes
/// with a position, in pieces where a segment or a gap breaks the track, keeping a point only
/// once it is `spacingMeters` from the last one kept (and each piece's last), at most
/// `maximumPoints` in all. Pure; Float32 degrees (about 1 m) keep a kept route small.
public struct RouteSketch: Sendable, Equatable {
    public var activity: ActivityType
    /// Pieces of (latitude, longitude) in degrees.
    public var pieces: [[SIMD2<Float>]]

    public static let spacingMeters = 25.0
    public static let maximumPoints = 600

    public init(activity: ActivityType, pieces: [[SIMD2<Float>]]) { self.activity = activity; self.pieces = pieces }

    /// The sketch of `w`; nil without two positions on its track.
    public init?(_ w: Workout) {
        var pieces: [[SIMD2<Float>]] = []
        var piece: [SIMD2<Float>] = []
        var last: (lat: Double, lon: Double)?
        var pending: SIMD2<Float>?  // the last point seen and not kept: each piece ends with it
        var segment = Int.min
        let spacing = Self.spacingMeters
        for p in w.points where p.isAccepted && p.fix.latitude.isFinite && p.fix.longitude.isFinite {
            let lat = p.fix.latitude, lon = p.fix.longitude
            let point = SIMD2(Float(lat), Float(lon))
            if p.segment != segment {
                if let q = pending { piece.append(q) }
                if piece.count > 1 { pieces.append(piece) }
                piece = [point]
                pending = nil
                segment = p.segment
                last = (lat, lon)
                continue
            }
            let l = last!
            let dy = (lat - l.lat) * 111_195, dx = (lon - l.lon) * 111_195 * cos(lat * .pi / 180)
            if dx * dx + dy * dy >= spacing * spacing {
                piece.append(point)
                last = (lat, lon)
                pending = nil
            } else {
                pending = point
            }
        }
        if let q = pending { piece.append(q) }
        if piece.count > 1 { pieces.append(piece) }
        let count = pieces.reduce(0) { $0 + $1.count }
        guard count >= 2 else { return nil }
        if count > Self.maximumPoints {
            let step = (count + Self.maximumPoints - 1) / Self.maximumPoints
            pieces = pieces.map { p in p.enumerated().filter { $0.offset % step == 0 || $0.offset == p.count - 1 }.map(\.element) }
        }
        self.init(activity: w.activity, pieces: pieces)
    }

    /// Number of points kept.
    public var pointCount: Int { pieces.reduce(0) { $0 + $1.count } }
}
