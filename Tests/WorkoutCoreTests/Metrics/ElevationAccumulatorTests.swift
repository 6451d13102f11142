import Testing
@testable import WorkoutCore

@Suite struct ElevationAccumulatorTests {
    @Test func handComputedSteps() {
        var e = ElevationAccumulator(window: 5, threshold: 5)
        for a in Array(repeating: 100.0, count: 10) + Array(repeating: 120.0, count: 10) + Array(repeating: 110.0, count: 10) { e.add(a) }
        expectEqual(e.gain, 20)
        expectEqual(e.loss, 10)
    }

    @Test func smallOscillationsAddNothing() {
        var e = ElevationAccumulator(window: 1, threshold: 5)
        for i in 0..<1000 { e.add(100 + (i % 2 == 0 ? 2 : -2)) }
        #expect(e.gain == 0 && e.loss == 0)
    }

    @Test func climbInProgressCountsOnceBeyondThreshold() {
        var e = ElevationAccumulator(window: 1, threshold: 5)
        e.add(0); e.add(4)
        expectEqual(e.gain, 0)
        e.add(6)
        expectEqual(e.gain, 6)
        e.add(3)     // 3 m back: not yet a turnaround
        #expect(e.gain == 6 && e.loss == 0)
        e.add(0)     // 6 m back from the top: confirmed
        #expect(e.gain == 6 && e.loss == 6)
    }

    @Test func ignoresNonFinite() {
        var e = ElevationAccumulator(window: 3, threshold: 1)
        e.add(.nan); e.add(.infinity)
        expectNil(e.smoothed)
    }

    /// Issue 39 item 10: a rolling run (4 m rises and falls, a device's smooth altitudes) read a
    /// climb of 0 m: every rise was under the 5 m hysteresis. The hysteresis now follows the
    /// altitudes' noise: 3 m for clean ones, 5 m for a GPS receiver's raw ones.
    @Test func aRollingRunClimbsItsRises() {
        var alts: [Double] = []
        for bump in 0..<10 {
            let base = 100 + Double(bump) * 0.7  // 7 m of net rise over the run
            for k in 0..<60 { alts.append(base + 4 * Double(k) / 60) }
            for k in 0..<60 { alts.append(base + 4 - 4 * Double(k) / 60 + 0.7 * Double(k) / 60) }
        }
        var fixed = ElevationAccumulator(window: 5, threshold: 5, minimumThreshold: 5)
        var e = ElevationAccumulator(window: 5, threshold: 5)
        for a in alts { fixed.add(a); e.add(a) }
        let truth = 10 * 4.0  // every rise of 4 m (the net rise is inside them)
        expectLess(fixed.gain, 0.3 * truth, "the old fixed 5 m misses most rises: \(fixed.gain) m")
        expectEqual(e.hysteresis, 3)
        expectLess(abs(e.gain - truth) / truth, 0.1, "\(e.gain) m against \(truth) m")
        // A GPS receiver's raw altitudes (sigma 2 m) keep the 5 m hysteresis: noise adds little.
        var rng = SeededRandom(seed: 7)
        var noisy = ElevationAccumulator(window: 5, threshold: 5)
        for _ in 0..<1800 { noisy.add(100 + 2 * rng.gaussian()) }
        expectEqual(noisy.hysteresis, 5)
        expectLess(noisy.gain, 20)
    }
}
