import Testing
@testable import WorkoutCore

@Suite struct SpeedWindowTests {
    @Test func speedOnceTheWindowIsSpannedAndMaxKept() {
        var w = SpeedWindow(window: 5)
        w.startSegment()
        #expect(w.add(time: 0, distance: 0) == nil)
        #expect(w.add(time: 2, distance: 6) == nil)
        #expect(w.add(time: 5, distance: 15)?.mean == 3)     // 15 m over 5 s
        #expect(w.add(time: 6, distance: 25)?.mean == 25.0 / 6)  // from the last point at least 5 s back (t=0)
        #expect(w.maxSpeed >= 3)
    }

    @Test func aNewSegmentStartsTheWindowAgain() {
        var w = SpeedWindow(window: 2)
        w.startSegment()
        _ = w.add(time: 0, distance: 0)
        #expect(w.add(time: 2, distance: 4)?.mean == 2)
        w.startSegment()
        #expect(w.add(time: 100, distance: 4) == nil)  // never spans two segments
        #expect(w.current(distance: 4, lastEvidence: 101) == nil)
        #expect(w.add(time: 102, distance: 10)?.mean == 3)
        #expect(w.current(distance: 10, lastEvidence: 104) == 6.0 / 4)
        #expect(w.maxSpeed == 3)
    }

    /// Regression: a fix thrown 170 m out and back inside a ride at 8 m/s made the maximum
    /// 119.9 km/h; the sustained speed (held for half a window) ignores it, a real sprint sets it.
    @Test func aGlitchNeverSetsTheMaximumASprintDoes() {
        var w = SpeedWindow(window: 5)
        w.startSegment()
        var d = 0.0
        for t in 0...60 {
            d += (t == 30 || t == 31) ? 170 : 8   // out at 30, back at 31
            _ = w.add(time: Double(t), distance: d)
        }
        #expect(abs(w.maxSpeed - 8) < 1e-9, "\(w.maxSpeed * 3.6) km/h")
        for t in 61...80 {
            d += t > 70 ? 15 : 8   // a 10 s sprint at 54 km/h
            _ = w.add(time: Double(t), distance: d)
        }
        #expect(abs(w.maxSpeed - 15) < 1e-9)
    }
}
