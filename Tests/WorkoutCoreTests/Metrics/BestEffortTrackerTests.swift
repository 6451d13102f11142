import Testing
@testable import WorkoutCore

@Suite struct BestEffortTrackerTests {
    @Test func interpolatesAtBoundaries() {
        // Points every 100 m; 0-300 m in 100 s each, 300-500 m in 20 s each, then 100 s each.
        var b = BestEffortTracker(distances: [400, 1000])
        let times: [Double] = [0, 100, 200, 300, 320, 340, 440, 540, 640, 740, 840]
        for (i, t) in times.enumerated() { b.add(distance: Double(i) * 100, elapsed: t, time: 1000 + t) }
        // Best 400 m: 200..600 m = 300 s? no: 300..700 m = 20+20+100+100 = 240 s; 200..600 = 100+20+20+100 = 240 s.
        #expect(b.best[0]?.seconds == 240)
        // Best 1000 m: 0..1000 = 840 s (the whole track).
        #expect(b.best[1]?.seconds == 840)
        #expect(b.best[1]?.startTime == 1000)
    }

    @Test func effortNeedsNotStartOrEndOnAPoint() {
        // Points at 0, 300, 700, 1000 m: fast middle stretch 300-700 m in 40 s, 100 s per 300 m elsewhere.
        var b = BestEffortTracker(distances: [400, 500])
        b.add(distance: 0, elapsed: 0, time: 0)
        b.add(distance: 300, elapsed: 100, time: 100)
        b.add(distance: 700, elapsed: 140, time: 140)
        b.add(distance: 1000, elapsed: 240, time: 240)
        #expect(b.best[0]?.seconds == 40)
        // 500 m: the 400 fast metres plus 100 m at 3 m/s = 40 + 33.33 s.
        #expect(Swift.abs(b.best[1]!.seconds - (40 + 100.0 / 3)) < 1e-9)
    }

    @Test func noEffortWhenTooShort() {
        var b = BestEffortTracker()
        b.add(distance: 0, elapsed: 0, time: 0)
        b.add(distance: 399, elapsed: 60, time: 60)
        #expect(b.efforts.isEmpty)
    }
}
