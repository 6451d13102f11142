/// Sum, count and maximum of whole-number samples that fixes carry: power (W) and cadence
/// (rpm or strides per minute) from imported files and feed lines.
public struct SampleStats: Sendable, Equatable {
    public private(set) var sum = 0
    public private(set) var count = 0
    public private(set) var maximum: Int?

    public init() {}

    /// Watts a fix may carry into the figures (track sprinters peak near 2,500 W).
    public static let plausiblePower = 0...3000

    /// Power counts every sample, zeros (coasting) included, as bike computers average it.
    mutating func add(power w: Int?) {
        if let w = SampleStats.counted(power: w) { add(w) }
    }

    /// Cadence leaves zeros out (coasting, standing), as bike computers average it.
    mutating func add(cadence c: Int?) {
        if let c = SampleStats.counted(cadence: c) { add(c) }
    }

    /// The power a fix brings into the figures (nil: none, or implausible).
    @inline(__always)
    static func counted(power w: Int?) -> Int? {
        guard let w, SampleStats.plausiblePower.contains(w) else { return nil }
        return w
    }

    /// The cadence a fix brings into the figures (nil: none, zero, or implausible).
    @inline(__always)
    static func counted(cadence c: Int?) -> Int? {
        guard let c, c > 0, FixBounds.cadence.contains(c) else { return nil }
        return c
    }

    mutating func add(_ v: Int) {
        sum += v; count += 1; maximum = Swift.max(maximum ?? v, v)
    }

    /// Mean of the samples; nil without any.
    public var average: Double? { count > 0 ? Double(sum) / Double(count) : nil }
    /// The mean rounded to a whole number (laps and splits).
    public var roundedAverage: Int? { average.map { Int($0.rounded()) } }
}
