/// The values a fix may carry from a receiver (docs/gps-decoding.md, "Bounds"). A fix with a
/// field outside them is rejected whole at decode time (NMEA, gpsd JSON, feed JSON) and counted
/// under `implausible_<field>`: a receiver that reports an altitude of 1e15 m is not to be
/// believed about anything else in that fix either.
public enum FixBounds {
    /// Metres. Below the Dead Sea shore (-430 m) with margin; up to the 18 km export-control
    /// ceiling of civil GPS receivers (CoCom).
    public static let altitude = -1_000.0...18_000.0
    /// m/s: the CoCom speed ceiling (1,000 knots).
    public static let speed = 0.0...515.0
    /// Degrees from true north.
    public static let course = 0.0...360.0
    /// Metres (a coarse cell-tower position is a few km).
    public static let horizontalAccuracy = 0.0...100_000.0
    /// NMEA writes 99.99 for "unknown".
    public static let hdop = 0.0...100.0
    public static let satellites = 0...255
    /// Beats per minute.
    public static let heartRate = 0...300
    /// Revolutions or steps per minute.
    public static let cadence = 0...300
    /// Watts (the summaries count up to `SampleStats.plausiblePower`).
    public static let power = 0...4000

    /// The first field of `fix` out of bounds (as named in rejection keys), or nil.
    public static func violation(_ fix: Fix) -> String? {
        guard fix.time.isFinite else { return "time" }
        guard (-90.0...90.0).contains(fix.latitude) else { return "latitude" }
        guard (-180.0...180.0).contains(fix.longitude) else { return "longitude" }
        if let v = fix.altitude, !altitude.contains(v) { return "altitude" }
        if let v = fix.speed, !speed.contains(v) { return "speed" }
        if let v = fix.course, !course.contains(v) { return "course" }
        if let v = fix.horizontalAccuracy, !horizontalAccuracy.contains(v) { return "accuracy" }
        if let v = fix.hdop, !hdop.contains(v) { return "hdop" }
        if let v = fix.satellites, !satellites.contains(v) { return "satellites" }
        if let v = fix.heartRate, !heartRate.contains(v) { return "heart_rate" }
        if let v = fix.cadence, !cadence.contains(v) { return "cadence" }
        if let v = fix.power, !power.contains(v) { return "power" }
        return nil
    }
}
