/// Coggan's seven power zones from functional threshold power (FTP): active recovery up to 55 %
/// of FTP, endurance up to 75 %, tempo up to 90 %, threshold up to 105 %, VO2max up to 120 %,
/// anaerobic capacity up to 150 %, neuromuscular above. Each zone includes its upper bound.
public struct PowerZones: Sendable, Equatable {
    /// Watts.
    public let ftp: Double

    /// Upper bounds of zones 1-6 as fractions of FTP (zone 7 is open above).
    public static let upperFractions = [0.55, 0.75, 0.90, 1.05, 1.20, 1.50]
    /// The zones' names, 1 to 7.
    public static let names = ["Active recovery", "Endurance", "Tempo", "Threshold", "VO2max", "Anaerobic", "Neuromuscular"]
    /// Zones 1 to 7.
    public static let count = 7

    /// nil unless FTP is positive and finite.
    public init?(ftp: Double) {
        guard ftp.isFinite, ftp > 0 else { return nil }
        self.ftp = ftp
    }

    /// The zone (1...7) of a power in watts.
    public func zone(of watts: Double) -> Int {
        var z = 1
        for f in PowerZones.upperFractions where watts > f * ftp { z += 1 }
        return z
    }

    /// Lower bounds of zones 1-7 in whole watts (zone 1 from 0), for display: a power above the
    /// previous zone's bound (rounded here) is in the zone.
    public var lowerBounds: [Int] { [0] + PowerZones.upperFractions.map { Int(($0 * ftp).rounded()) } }
}
