/// Why a saved workout cannot be written in the requested format (`Exporter.refusal`).
public enum ExportRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// GPX holds positions only (a `trkpt` must have lat/lon): a workout without a track (yoga,
    /// strength, treadmill) would be an empty file, its heart rate lost. TCX and FIT carry it.
    case gpxNeedsPositions(activity: ActivityType, hasHeartRate: Bool)

    /// The protocol's error code (docs/protocol.md).
    public var code: String { "not_exportable" }

    public var description: String {
        switch self {
        case .gpxNeedsPositions(let a, let hr):
            let what = hr ? "heart rate only" : "no track"
            return "GPX holds positions and this \(a.displayName.lowercased()) workout has none (\(what)): export it as TCX or FIT (--format tcx|fit)"
        }
    }
}
