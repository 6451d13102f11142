/// Elevation gain and loss from a track's altitudes: a trailing moving average of the last
/// `window` altitudes, then a turnaround hysteresis: a climb (or descent) starts counting once
/// the smoothed altitude is `hysteresis` metres above (below) the last turning point, and a
/// turning point is confirmed only when the altitude comes back that far from the highest
/// (lowest) point reached. The hysteresis follows the altitudes' own noise: 3 x the mean step
/// |altitude - previous altitude| (a running mean over the last ~`noiseSpan`), between `minimumThreshold` (3 m: a
/// barometer's or a device's smoothed altitudes, where a rolling run's 4 m rises are real) and
/// `threshold` (5 m: a GPS receiver's raw altitudes); `threshold` for the first
/// `warmUpSamples`. Noise smaller than it adds nothing; real climbs count in full. An altitude
/// that moved faster than `maxVerticalSpeed` since the one before (a barometer calibrated
/// against GPS mid-recording, a spike) is a jump, not a climb: the altitudes after it are shifted
/// back by it. O(1) per sample (docs/metrics.md, "Elevation").
public struct ElevationAccumulator: Sendable, Equatable {
    private enum Trend: Sendable, Equatable { case none, up, down }

    public let window: Int
    /// The hysteresis for noisy altitudes (and before the noise is known), m.
    public let threshold: Double
    /// The hysteresis for clean altitudes, m (at most `threshold`).
    public let minimumThreshold: Double
    /// Mean |altitude - previous altitude| so far (a running mean over the last ~`noiseSpan` steps).
    private var noise = 0.0
    private var steps = 0
    private var previous: Double?
    static let warmUpSamples = 20
    static let noiseSpan = 100
    static let noiseFactor = 3.0
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
    /// The fastest an altitude can move (m/s): the activity's top speed (descending).
    public let maxVerticalSpeed: Double
    /// The last timed altitude as recorded, and the sum of the jumps taken out so far.
    private var lastTime = Double.nan
    private var lastAltitude = Double.nan
    private var offset = 0.0
    /// Jumps taken out (`maxVerticalSpeed`).
    public private(set) var jumps = 0

    public init(window: Int, threshold: Double, minimumThreshold: Double = 3, maxVerticalSpeed: Double = .infinity) {
        self.maxVerticalSpeed = maxVerticalSpeed
        self.window = max(1, window)
        self.threshold = max(0, threshold)
        self.minimumThreshold = min(max(0, minimumThreshold), max(0, threshold))
        ring.reserveCapacity(self.window)
    }

    /// Total gain (m), including a climb in progress that already exceeds the threshold.
    public var gain: Double { confirmedGain + (trend == .up ? extreme - (level ?? extreme) : 0) }
    /// Total loss (m), including a descent in progress that already exceeds the threshold.
    public var loss: Double { confirmedLoss + (trend == .down ? (level ?? extreme) - extreme : 0) }

    /// The hysteresis in force (m): from the altitudes' noise once `warmUpSamples` are in.
    public var hysteresis: Double {
        guard steps >= ElevationAccumulator.warmUpSamples else { return threshold }
        return min(threshold, max(minimumThreshold, ElevationAccumulator.noiseFactor * noise))
    }

    /// The current smoothed altitude, nil before the first sample.
    public var smoothed: Double? { ring.isEmpty ? nil : sum / Double(ring.count) }

    /// A new segment of the track (after a pause, a signal loss, a jump): as distance, no climb
    /// is counted across the break. A climb or descent in progress is kept; the next altitude
    /// starts afresh (the noise estimate stays).
    public mutating func startSegment() {
        confirmedGain = gain
        confirmedLoss = loss
        trend = .none
        level = nil
        ring.removeAll(keepingCapacity: true)
        next = 0
        sum = 0
        previous = nil
        lastTime = .nan
        lastAltitude = .nan
    }

    /// Adds one altitude (m) recorded at `time` (s): a step faster than `maxVerticalSpeed` over
    /// the time since the last one (at least 1 s: whole-second timestamps) is a jump, and the
    /// altitudes from here on are shifted back by it. Non-finite values are ignored.
    public mutating func add(_ altitude: Double, at time: Double) {
        guard altitude.isFinite, time.isFinite else { return }
        let step = altitude - lastAltitude
        if step.isFinite && abs(step) > maxVerticalSpeed * max(time - lastTime, 1) {
            offset -= step
            jumps += 1
        }
        (lastTime, lastAltitude) = (time, altitude)
        add(altitude + offset)
    }

    /// Adds one altitude (m) without a time (no jump is taken out); non-finite values are ignored.
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
        if let p = previous {
            steps += 1
            noise += (abs(altitude - p) - noise) / Double(min(steps, ElevationAccumulator.noiseSpan))
        }
        previous = altitude
        let threshold = hysteresis
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
