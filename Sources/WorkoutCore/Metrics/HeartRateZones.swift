/// Heart-rate zones as lower bounds in bpm: zone k (1-based) is `[bounds[k-1], bounds[k])`, the
/// last zone is open above, and a rate below the first bound is zone 0 ("below the zones").
///
/// From the configuration: explicit bounds, or five zones at 50/60/70/80/90 % of the maximum
/// heart rate, or of the heart-rate reserve (Karvonen) when a resting rate is given.
public struct HeartRateZones: Sendable, Equatable {
    /// Increasing lower bounds of zones 1...n.
    public let lowerBounds: [Int]

    /// Fractions at which zones 1-5 begin.
    public static let defaultFractions = [0.5, 0.6, 0.7, 0.8, 0.9]

    /// nil unless the bounds are positive and strictly increasing (at least one zone).
    public init?(lowerBounds: [Int]) {
        guard let first = lowerBounds.first, first > 0,
              zip(lowerBounds, lowerBounds.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        self.lowerBounds = lowerBounds
    }

    /// Zones from the maximum heart rate, and the resting one for Karvonen's reserve method:
    /// bound = resting + fraction x (maximum - resting), rounded to whole bpm.
    public init?(maximum: Int, resting: Int? = nil) {
        let rest = resting ?? 0
        guard maximum > rest, rest >= 0 else { return nil }
        self.init(lowerBounds: HeartRateZones.defaultFractions.map { Int((Double(rest) + $0 * Double(maximum - rest)).rounded()) })
    }

    /// Number of zone slots including zone 0 (below the zones).
    public var slotCount: Int { lowerBounds.count + 1 }

    /// The zone of a heart rate: 0 below the first bound, else 1...n.
    public func zone(of bpm: Int) -> Int {
        var z = 0
        for b in lowerBounds where bpm >= b { z += 1 }
        return z
    }

    /// Tanaka, Monahan & Seals (2001): HRmax = 208 - 0.7 x age, for a configured age without
    /// a configured maximum.
    public static func estimatedMaximum(age: Int) -> Int { Int((208 - 0.7 * Double(age)).rounded()) }
}
