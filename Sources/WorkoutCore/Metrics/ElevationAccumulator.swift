/// GPS-derived elevation gain and loss: a trailing moving average of the last `window`
/// altitudes, then hysteresis: a change counts only once the smoothed altitude has moved
/// `threshold` metres from the last counted level, and then counts in full. Noise smaller than
/// the threshold adds nothing; a real climb loses at most `threshold` at its top. O(1) per sample.
public struct ElevationAccumulator: Sendable, Equatable {
    public let window: Int
    public let threshold: Double
    public private(set) var gain: Double = 0
    public private(set) var loss: Double = 0
    private var ring: [Double] = []
    private var next = 0
    private var sum = 0.0
    private var level: Double?

    public init(window: Int, threshold: Double) {
        self.window = max(1, window)
        self.threshold = max(0, threshold)
        ring.reserveCapacity(self.window)
    }

    /// The current smoothed altitude, nil before the first sample.
    public var smoothed: Double? { ring.isEmpty ? nil : sum / Double(ring.count) }

    /// Adds one altitude (m); non-finite values are ignored.
    public mutating func add(_ altitude: Double) {
        guard altitude.isFinite else { return }
        if ring.count < window {
            ring.append(altitude)
            sum += altitude
        } else {
            sum += altitude - ring[next]
            ring[next] = altitude
            next = (next + 1) % window
            if next == 0 { sum = ring.reduce(0, +) }  // bound floating-point drift
        }
        let s = sum / Double(ring.count)
        guard let l = level else { level = s; return }
        if s - l >= threshold && s > l {
            gain += s - l; level = s
        } else if l - s >= threshold && l > s {
            loss += l - s; level = s
        }
    }
}
