/// Where fixes come from: a receiver's raw output (filtered live), or a track a device already
/// recorded and filtered (a GPX/TCX import or its replay), which is measured as the device drew it.
public enum TrackOrigin: String, Sendable, Equatable {
    case receiver
    case device

    /// The recorder settings for fixes of this origin.
    public func settings(_ base: MetricsSettings) -> MetricsSettings {
        switch self {
        case .receiver: return base
        case .device: return Importer.importSettings(base)
        }
    }

    /// The saved `source` of a workout recorded live from fixes of this origin: "recorded", or
    /// "recorded:device-track" for a device's track replayed by `simulate`
    /// (`Importer.origin(ofSource:)` reads it back).
    public var recordedSource: String {
        switch self {
        case .receiver: return "recorded"
        case .device: return "recorded:device-track"
        }
    }
}
