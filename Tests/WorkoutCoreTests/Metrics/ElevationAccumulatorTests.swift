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
}
