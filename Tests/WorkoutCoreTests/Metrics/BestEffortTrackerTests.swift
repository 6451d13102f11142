import Testing
@testable import WorkoutCore

@Suite struct BestEffortTrackerTests {
    @Test func interpolatesAtBoundaries() {
        // Points every 100 m; 0-300 m in 100 s each, 300-500 m in 20 s each, then 100 s each.
        var b = BestEffortTracker(distances: [400, 1000])
        let times: [Double] = [0, 100, 200, 300, 320, 340, 440, 540, 640, 740, 840]
        for (i, t) in times.enumerated() { b.add(distance: Double(i) * 100, elapsed: t, time: 1000 + t) }
        // Best 400 m: 200..600 m = 300 s? no: 300..700 m = 20+20+100+100 = 240 s; 200..600 = 100+20+20+100 = 240 s.
        expectEqual(b.best[0]?.seconds, 240)
        // Best 1000 m: 0..1000 = 840 s (the whole track).
        expectEqual(b.best[1]?.seconds, 840)
        expectEqual(b.best[1]?.startTime, 1000)
    }

    @Test func effortNeedsNotStartOrEndOnAPoint() {
        // Points at 0, 300, 700, 1000 m: fast middle stretch 300-700 m in 40 s, 100 s per 300 m elsewhere.
        var b = BestEffortTracker(distances: [400, 500])
        b.add(distance: 0, elapsed: 0, time: 0)
        b.add(distance: 300, elapsed: 100, time: 100)
        b.add(distance: 700, elapsed: 140, time: 140)
        b.add(distance: 1000, elapsed: 240, time: 240)
        expectEqual(b.best[0]?.seconds, 40)
        // 500 m: the 400 fast metres plus 100 m at 3 m/s = 40 + 33.33 s.
        expectLess(Swift.abs(b.best[1]!.seconds - (40 + 100.0 / 3)), 1e-9)
    }

    @Test func noEffortWhenTooShort() {
        var b = BestEffortTracker()
        b.add(distance: 0, elapsed: 0, time: 0)
        b.add(distance: 399, elapsed: 60, time: 60)
        #expect(b.efforts.isEmpty)
    }
}

/// The tracker against the implementation it replaced (kept here verbatim as the reference:
/// three parallel arrays, Optional bests) on seeded random tracks: every best effort must be
/// bit-identical; and against a brute-force search over every start and end point.
@Suite struct BestEffortTrackerReferenceTests {
    /// The previous `BestEffortTracker`, unchanged.
    struct Reference {
        let distances: [Double]
        var cum: [Double] = [], clock: [Double] = [], wall: [Double] = []
        var endPointer: [Int], startPointer: [Int]
        var best: [BestEffort?]

        init(distances: [Double]) {
            self.distances = distances
            endPointer = Array(repeating: 0, count: distances.count)
            startPointer = Array(repeating: 0, count: distances.count)
            best = Array(repeating: nil, count: distances.count)
        }

        func interpolate(_ a: [Double], _ i: Int, _ phi: Double) -> Double { a[i] + phi * (a[i + 1] - a[i]) }

        mutating func offer(_ k: Int, seconds: Double, start: Double) {
            guard seconds.isFinite, seconds >= 0 else { return }
            if let b = best[k], b.seconds <= seconds { return }
            best[k] = BestEffort(distanceMeters: distances[k], seconds: seconds, startTime: start)
        }

        mutating func add(distance: Double, elapsed: Double, time: Double) {
            cum.append(distance); clock.append(elapsed); wall.append(time)
            let j = cum.count - 1
            guard j > 0 else { return }
            for k in distances.indices {
                let x = distances[k]
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

    /// A random track: steps of 0-30 m (some zero: standing), 1-5 s, sometimes a pause (the
    /// elapsed clock stops while the wall clock runs), sometimes a long step.
    static func track(seed: UInt64, count: Int) -> [(cum: Double, clock: Double, wall: Double)] {
        var rng = SeededRandom(seed: seed)
        var out: [(cum: Double, clock: Double, wall: Double)] = []
        var cum = 0.0, clock = 0.0, wall = 1_700_000_000.0 + Double(seed)
        for _ in 0..<count {
            out.append((cum, clock, wall))
            let dt = Double(Int.random(in: 1...5, using: &rng)) + Double.random(in: 0..<1, using: &rng)
            let roll = Int.random(in: 0..<20, using: &rng)
            let step = roll == 0 ? 0 : roll == 1 ? Double.random(in: 200..<1500, using: &rng) : Double.random(in: 0..<30, using: &rng)
            cum += step
            wall += dt
            clock += roll == 2 ? 0 : dt
        }
        return out
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func bitIdenticalToThePreviousTracker(seed: UInt64) {
        let distances = standardBestEffortDistances + [0, 1, 37.5]
        var new = BestEffortTracker(distances: distances)
        var old = Reference(distances: distances)
        let points = Self.track(seed: seed, count: 4000)
        for (i, p) in points.enumerated() {
            new.add(distance: p.cum, elapsed: p.clock, time: p.wall)
            old.add(distance: p.cum, elapsed: p.clock, time: p.wall)
            // Checked along the way too (a live summary reads the bests at any point).
            if i % 397 == 0 || i == points.count - 1 {
                expectEqual(new.best.count, old.best.count)
                for (a, b) in zip(new.best, old.best) {
                    expectEqual(a?.distanceMeters.bitPattern, b?.distanceMeters.bitPattern)
                    expectEqual(a?.seconds.bitPattern, b?.seconds.bitPattern)
                    expectEqual(a?.startTime.bitPattern, b?.startTime.bitPattern)
                }
            }
        }
        expectGreaterOrEqual(new.efforts.count, 7)  // the random tracks are longer than a marathon
    }

    /// Brute force: for every point, the effort ending there (start interpolated) and starting
    /// there (end interpolated), the best of all; the tracker must find the same times.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func matchesBruteForce(seed: UInt64) {
        let points = Self.track(seed: seed, count: 600)
        let distances: [Double] = [400, 1000, 1609.344, 5000]
        var tracker = BestEffortTracker(distances: distances)
        for p in points { tracker.add(distance: p.cum, elapsed: p.clock, time: p.wall) }
        /// Elapsed clock where the cumulative distance first reaches `d` (linear between points).
        func clock(at d: Double) -> Double? {
            guard let i = points.indices.first(where: { points[$0].cum >= d }) else { return nil }
            if points[i].cum == d || i == 0 { return points[i].clock }
            let a = points[i - 1], b = points[i]
            return a.clock + (d - a.cum) / (b.cum - a.cum) * (b.clock - a.clock)
        }
        /// Elapsed clock where the cumulative distance last is `d` (the latest start).
        func lastClock(at d: Double) -> Double? {
            guard let i = points.indices.last(where: { points[$0].cum <= d }) else { return nil }
            if points[i].cum == d || i == points.count - 1 { return points[i].clock }
            let a = points[i], b = points[i + 1]
            return a.clock + (d - a.cum) / (b.cum - a.cum) * (b.clock - a.clock)
        }
        for (k, x) in distances.enumerated() {
            var best = Double.infinity
            for p in points {
                if let end = clock(at: p.cum + x) { best = min(best, end - p.clock) }
                if p.cum - x >= points[0].cum, let start = lastClock(at: p.cum - x) { best = min(best, p.clock - start) }
            }
            let found = tracker.best[k]?.seconds
            expectNotNil(found)
            if let found { expectLessOrEqual(Swift.abs(found - best), 1e-6 * max(1, best), "\(x) m: \(found) vs \(best)") }
        }
    }
}
