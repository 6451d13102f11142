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
///
/// Laid out for the per-point loop (it runs for every accepted fix of a day-long import): the
/// points are one array of `Point`, and each distance's pointers and best time one `Lane`, both
/// walked through unsafe buffers (the indices are bounded by the loop conditions). The lanes walk
/// the points in batches (`batch` points, or fewer when the bests are read): one lane at a time
/// over the new points, its pointers and best in registers. Lanes are independent and each walks
/// every point in order, so the results are those of walking every lane at every point.
public struct BestEffortTracker: Sendable, Equatable {
    public let distances: [Double]
    /// One accepted point: cumulative distance (m), elapsed clock (s), wall time (s).
    private struct Point: Sendable, Equatable {
        var cum: Double
        var clock: Double
        var wall: Double
    }
    /// One distance: its two pointers and its best effort so far (`seconds` is +infinity until
    /// the workout is that long: every offered time is finite, so "none" needs no Optional).
    private struct Lane: Sendable, Equatable {
        let meters: Double
        var endPointer = 0
        var startPointer = 0
        var seconds = Double.infinity
        var startTime = 0.0

        /// The previous tracker's `isFinite, >= 0, better than the best` in two comparisons:
        /// `seconds` is +infinity or finite, so `s < seconds` already refuses +infinity (and NaN).
        /// The start time is computed only for an effort that is kept.
        @inline(__always)
        mutating func offer(seconds s: Double, start: () -> Double) {
            guard s >= 0, s < seconds else { return }
            seconds = s
            startTime = start()
        }

        /// False when every effort whose time is an interpolation between two clocks and is at
        /// least `bound` (computed as `a - max(clocks)` or `min(clocks) - b`) is surely refused
        /// by `offer`: then the interpolation need not be computed. `scale` is the sum of the
        /// magnitudes of the clocks interpolated between. The interpolation's rounding is at most
        /// about 4 ulp of `scale` (`a + phi * (b - a)` with `phi` in [0, 1]: three roundings),
        /// and the subtractions' 1 ulp each; the margin (1e-12 relative, 1e-9 s absolute) is
        /// thousands of times that, so a skipped effort is one `offer` would refuse: the results
        /// are bit-identical (BestEffortTrackerTests compares with the tracker without it).
        /// NaN never skips; `seconds` of +infinity never skips.
        @inline(__always)
        func mayImprove(bound: Double, scale: Double) -> Bool {
            !(bound > seconds + 1e-9 + 1e-12 * (seconds + scale))
        }
    }
    /// The points from the oldest a lane may still read on (the ones before are dropped in
    /// blocks: memory stays with the longest distance's stretch, not the workout).
    private var points: [Point] = []
    /// The first point's cumulative distance (no effort starts before it).
    private var firstCum: Double?
    private var lanes: [Lane]
    /// The lanes have walked the points before this index (point 0 starts no effort).
    private var walked = 1
    /// New points wait for this many before the lanes walk them (a read walks the rest, on a copy).
    static let batch = 32

    public init(distances: [Double] = standardBestEffortDistances) {
        self.distances = distances
        lanes = distances.map { Lane(meters: $0) }
    }

    /// Best effort per distance (same order as `distances`), nil until the workout is that long.
    public var best: [BestEffort?] {
        var c = self
        c.walk(dropping: false)  // a copy: dropping would copy the points
        return c.lanes.map { $0.seconds < .infinity ? BestEffort(distanceMeters: $0.meters, seconds: $0.seconds, startTime: $0.startTime) : nil }
    }

    /// The efforts found so far, shortest distance first.
    public var efforts: [BestEffort] { best.compactMap { $0 } }

    /// Room for `n` more points (an import knows its count), up to the stretch kept (the points
    /// before it are dropped: reserving for all of them would keep their memory).
    public mutating func reserveCapacity(_ n: Int) { points.reserveCapacity(points.count + min(n, 1 << 14)) }

    /// Adds one accepted point: cumulative distance (m, non-decreasing), elapsed clock (s) and
    /// wall time (s).
    public mutating func add(distance: Double, elapsed: Double, time: Double) {
        if firstCum == nil { firstCum = distance }
        points.append(Point(cum: distance, clock: elapsed, wall: time))
        if points.count - walked >= BestEffortTracker.batch { walk(dropping: true) }
    }

    /// Every lane walks the points it has not seen (then the points no lane reads again are
    /// dropped, when `dropping`).
    private mutating func walk(dropping: Bool) {
        let from = walked, end = points.count
        guard end > from else { return }
        let first = firstCum ?? 0
        points.withUnsafeBufferPointer { p in
            lanes.withUnsafeMutableBufferPointer { lanes in
                for k in 0..<lanes.count { BestEffortTracker.advance(&lanes[k], p, first: first, from: from, to: end) }
            }
        }
        walked = end
        if dropping { dropUnreachable() }
    }

    /// Drops the points before every lane's pointers (no lane reads them again: pointers only
    /// move on, and the next walk reads from `walked - 1` on) once they are most of the array
    /// and at least 8,192.
    private mutating func dropUnreachable() {
        var dead = walked - 1
        for l in lanes { dead = min(dead, l.endPointer, l.startPointer) }
        guard dead >= 8192, dead * 2 > points.count else { return }
        points.removeFirst(dead)
        for k in lanes.indices { lanes[k].endPointer -= dead; lanes[k].startPointer -= dead }
        walked -= dead
    }

    /// One lane's steps at points `from ..< end` (from > 0), in order. The arithmetic is the
    /// original's, term for term (`a[i] + phi * (a[i + 1] - a[i])`), so results are bit-identical.
    @inline(__always)
    private static func advance(_ laneInOut: inout Lane, _ p: UnsafeBufferPointer<Point>, first: Double, from: Int, to end: Int) {
        var lane = laneInOut
        let x = lane.meters
        var s = lane.endPointer, q = lane.startPointer
        for j in from..<end {
            let now = p[j]
            // Efforts ending at point j: the start is where cum = cum[j] - x.
            let target = now.cum - x
            if first <= target {
                while s + 1 <= j && p[s + 1].cum <= target { s += 1 }
                let a = p[s]
                if s < j, p[s + 1].cum > a.cum {
                    let b = p[s + 1]
                    // The start lies between a and b: its clock is at most the larger of theirs.
                    if lane.mayImprove(bound: now.clock - max(a.clock, b.clock), scale: abs(a.clock) + abs(b.clock)) {
                        let phi = (target - a.cum) / (b.cum - a.cum)
                        lane.offer(seconds: now.clock - (a.clock + phi * (b.clock - a.clock)), start: { a.wall + phi * (b.wall - a.wall) })
                    }
                } else {
                    lane.offer(seconds: now.clock - a.clock, start: { a.wall })
                }
            }
            // Efforts starting at points q whose end (cum[q] + x) is reached between j-1 and j.
            while q < j && p[q].cum + x <= now.cum {
                let start = p[q]
                q += 1
                let before = p[j - 1]
                // The end lies between `before` and `now`: its clock is at least the smaller of theirs.
                guard lane.mayImprove(bound: min(before.clock, now.clock) - start.clock, scale: abs(before.clock) + abs(now.clock)) else { continue }
                let end = start.cum + x
                let phi = now.cum > before.cum ? (end - before.cum) / (now.cum - before.cum) : 1
                let endClock = start.cum + x <= before.cum ? before.clock : before.clock + phi * (now.clock - before.clock)
                lane.offer(seconds: endClock - start.clock, start: { start.wall })
            }
        }
        lane.endPointer = s
        lane.startPointer = q
        laneInOut = lane
    }
}
