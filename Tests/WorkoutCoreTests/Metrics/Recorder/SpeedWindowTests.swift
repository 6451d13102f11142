import Testing
@testable import WorkoutCore

@Suite struct SpeedWindowTests {
    @Test func speedOnceTheWindowIsSpannedAndMaxKept() {
        var w = SpeedWindow(window: 5)
        w.startSegment()
        #expect(w.add(time: 0, distance: 0) == nil)
        #expect(w.add(time: 2, distance: 6) == nil)
        #expect(w.add(time: 5, distance: 15) == 3)     // 15 m over 5 s
        #expect(w.add(time: 6, distance: 25) == 25.0 / 6)  // from the last point at least 5 s back (t=0)
        #expect(w.maxSpeed >= 3)
    }

    @Test func aNewSegmentStartsTheWindowAgain() {
        var w = SpeedWindow(window: 2)
        w.startSegment()
        _ = w.add(time: 0, distance: 0)
        #expect(w.add(time: 2, distance: 4) == 2)
        w.startSegment()
        #expect(w.add(time: 100, distance: 4) == nil)  // never spans two segments
        #expect(w.current(distance: 4, lastEvidence: 101) == nil)
        #expect(w.add(time: 102, distance: 10) == 3)
        #expect(w.current(distance: 10, lastEvidence: 104) == 6.0 / 4)
        #expect(w.maxSpeed == 3)
    }
}
