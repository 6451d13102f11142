/// The GPS week counter wraps every 1024 weeks (7168 days); receivers and daemons guess the era.
/// gpsd 3.22 moves any NMEA date before its pivot (2017-01-01) forward by exactly one 1024-week
/// era, so a 2006 capture comes back dated 2026. `NMEADecoder` never does this (it reports the
/// receiver's own date); this rule exists so that a consumer who wants gpsd's answer, such as the
/// oracle tests against gpsd's output, applies it explicitly.
public struct GPSWeekRollover: Sendable, Equatable {
    /// Times (seconds since 1970 UTC) before this are moved forward one era.
    public var pivot: Double

    public static let era: Double = 1024 * 7 * 86400

    /// gpsd 3.22 as packaged in Debian 12: pivot 2017-01-01T00:00:00Z.
    public static let gpsd322 = GPSWeekRollover(pivot: Double(CivilTime.daysFromCivil(year: 2017, month: 1, day: 1) * 86400))

    public init(pivot: Double) { self.pivot = pivot }

    public func apply(_ time: Double) -> Double { time < pivot ? time + GPSWeekRollover.era : time }
}
