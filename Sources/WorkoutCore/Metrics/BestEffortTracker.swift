/// The standard distances best efforts are searched for (m): 400 m, 1 km, 1 mile, 5 km, 10 km,
/// half marathon, marathon.
public let standardBestEffortDistances: [Double] = [400, 1000, 1609.344, 5000, 10000, 21097.5, 42195]

/// Fastest time over each standard distance anywhere in a workout, on the elapsed clock (manual
/// pauses excluded, everything else included), interpolated linearly at the distance boundaries.
///
/// Fed with every accepted point (cumulative distance, elapsed clock, wall time). For each
/// distance two monotone pointers find the best effort ending at a point (start interpolated)
/// and starting at a point (end interpolated); the optimum of a piecewise-linear track always
/// has one of its ends on a point, so this is exact and O(1) amortised per point.
public struct BestEffortTracker: Sendable, Equatable {
    public let distances: [Double]
    private var cum: [Double] = []
    private var clock: [Double] = []
    private var wall: [Double] = []
    private var endPointer: [Int]
    private var startPointer: [Int]
    /// Best effort per distance (same order as `distances`), nil until the workout is that long.
    public private(set) var best: [BestEffort?]

    public init(distances: [Double] = standardBestEffortDistances) {
        self.distances = distances
        endPointer = Array(repeating: 0, count: distances.count)
        startPointer = Array(repeating: 0, count: distances.count)
        best = Array(repeating: nil, count: distances.count)
    }

    /// The efforts found so far, shortest distance first.
    public var efforts: [BestEffort] { best.compactMap { $0 } }

    private func interpolate(_ a: [Double], _ i: Int, _ phi: Double) -> Double {
        a[i] + phi * (a[i + 1] - a[i])
    }

    private mutating func offer(_ k: Int, seconds: Double, start: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        if let b = best[k], b.seconds <= seconds { return }
        best[k] = BestEffort(distanceMeters: distances[k], seconds: seconds, startTime: start)
    }

    /// Adds one accepted point: cumulative distance (m, non-decreasing), elapsed clock (s) and
    /// wall time (s).
    public mutating func add(distance: Double, elapsed: Double, time: Double) {
        cum.append(distance); clock.append(elapsed); wall.append(time)
        let j = cum.count - 1
        guard j > 0 else { return }
        for k in distances.indices {
            let x = distances[k]
            // Efforts ending at point j: the start is where cum = cum[j] - x.
            let target = cum[j] - x
            if cum[0] <= target {
                var s = endPointer[k]
                while s + 1 <= j && cum[s + 1] <= target { s += 1 }
                endPointer[k] = s
                if s < j, cum[s + 1] > cum[s] {
                    let phi = (target - cum[s]) / (cum[s + 1] - cum[s])
                    offer(k, seconds: clock[j] - interpolate(clock, s, phi), start: interpolate(wall, s, phi))
                } else {
                    offer(k, seconds: clock[j] - clock[s], start: wall[s])
                }
            }
            // Efforts starting at points q whose end (cum[q] + x) is reached between j-1 and j.
            var q = startPointer[k]
            while q < j && cum[q] + x <= cum[j] {
                let end = cum[q] + x
                let phi = cum[j] > cum[j - 1] ? (end - cum[j - 1]) / (cum[j] - cum[j - 1]) : 1
                let endClock = cum[q] + x <= cum[j - 1] ? clock[j - 1] : interpolate(clock, j - 1, phi)
                offer(k, seconds: endClock - clock[q], start: wall[q])
                q += 1
            }
            startPointer[k] = q
        }
    }
}
