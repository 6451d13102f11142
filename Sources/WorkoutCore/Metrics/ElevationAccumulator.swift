/// GPS-derived elevation gain and loss (no barometer): a trailing moving average of the last
/// `window` altitudes, then a turnaround hysteresis: a climb (or descent) starts counting once
/// the smoothed altitude is `threshold` metres above (below) the last turning point, and a
/// turning point is confirmed only when the altitude comes back `threshold` metres from the
/// highest (lowest) point reached. Noise smaller than the threshold adds nothing; real climbs
/// count in full. O(1) per sample.
public struct ElevationAccumulator: Sendable, Equatable {
    private enum Trend: Sendable, Equatable { case none, up, down }

    public let window: Int
    public let threshold: Double
    private var confirmedGain = 0.0
    private var confirmedLoss = 0.0
    private var ring: [Double] = []
    private var next = 0
    private var sum = 0.0
    /// Last turning point.
    private var level: Double?
    /// Farthest smoothed altitude since `level` in the current trend.
    private var extreme = 0.0
    private var trend = Trend.none

    public init(window: Int, threshold: Double) {
        self.window = max(1, window)
        self.threshold = max(0, threshold)
        ring.reserveCapacity(self.window)
    }

    /// Total gain (m), including a climb in progress that already exceeds the threshold.
    public var gain: Double { confirmedGain + (trend == .up ? extreme - (level ?? extreme) : 0) }
    /// Total loss (m), including a descent in progress that already exceeds the threshold.
    public var loss: Double { confirmedLoss + (trend == .down ? (level ?? extreme) - extreme : 0) }

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
            next += 1
            if next == window { next = 0 }
            if next == 0 { sum = ring.reduce(0, +) }  // bound floating-point drift
        }
        let s = sum / Double(ring.count)
        guard let l = level else { level = s; return }
        switch trend {
        case .none:
            if s - l >= threshold { trend = .up; extreme = s } else if l - s >= threshold { trend = .down; extreme = s }
        case .up:
            if s > extreme { extreme = s } else if extreme - s >= threshold {
                confirmedGain += extreme - l; level = extreme; trend = .down; extreme = s
            }
        case .down:
            if s < extreme { extreme = s } else if s - extreme >= threshold {
                confirmedLoss += l - extreme; level = extreme; trend = .up; extreme = s
            }
        }
    }
}
