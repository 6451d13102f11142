/// Where a workout's distance comes from (`WorkoutSummary.distanceSource`, JSON
/// `distanceSource`).
public enum DistanceSource: String, Sendable, Equatable, CaseIterable {
    /// The geodesic length of the GPS track (live recording, GPX, TCX, NMEA, a FIT file without
    /// a distance of its own).
    case gps
    /// The recording device's own distance: a FIT file's record and session distance, or the
    /// lengths of a pool swim (what the head unit or the watch showed).
    case device
    /// A wheel or foot sensor (an indoor ride or run).
    case sensor
}
