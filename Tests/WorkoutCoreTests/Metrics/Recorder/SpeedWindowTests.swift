import Testing
@testable import WorkoutCore

@Suite struct SpeedWindowTests {
    @Test func speedOnceTheWindowIsSpannedAndMaxKept() {
        var w = SpeedWindow(window: 5)
        w.startSegment()
        expectNil(w.add(time: 0, distance: 0))
        expectNil(w.add(time: 2, distance: 6))
        expectEqual(w.add(time: 5, distance: 15)?.mean, 3)     // 15 m over 5 s
        expectEqual(w.add(time: 6, distance: 25)?.mean, 25.0 / 6)  // from the last point at least 5 s back (t=0)
        expectEqual(w.maxSpeed, 0, "the sustained speed needs twice the window")
        _ = w.add(time: 10, distance: 37)
        expectEqual(w.maxSpeed, 3, "held over the 10 s: steps 3, 3, 10, 3 m/s for 2, 3, 1, 4 s")
    }

    @Test func aNewSegmentStartsTheWindowAgain() {
        var w = SpeedWindow(window: 2)
        w.startSegment()
        _ = w.add(time: 0, distance: 0)
        expectEqual(w.add(time: 2, distance: 4)?.mean, 2)
        w.startSegment()
        expectNil(w.add(time: 100, distance: 4))  // never spans two segments
        expectNil(w.current(distance: 4, lastEvidence: 101))
        expectEqual(w.add(time: 102, distance: 10)?.mean, 3)
        expectEqual(w.current(distance: 10, lastEvidence: 104), 6.0 / 4)
        expectEqual(w.maxSpeed, 0, "no segment spans twice the window yet")
        _ = w.add(time: 104, distance: 18)
        expectEqual(w.maxSpeed, 3, "the time-weighted median step of the segment's 4 s (3 m/s for 2 s, 4 m/s for 2 s)")
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
        expectLess(abs(w.maxSpeed - 8), 1e-9, "\(w.maxSpeed * 3.6) km/h")
        for t in 61...80 {
            d += t > 70 ? 15 : 8   // a 10 s sprint at 54 km/h
            _ = w.add(time: Double(t), distance: d)
        }
        expectLess(abs(w.maxSpeed - 15), 1e-9)
    }

    /// Regression (issue 25 items 8 and 9): a watch run (activity-small-fenix2-run.fit, its
    /// positions at 14:45:08-14:45:40) where the receiver wanders 30 m south and 49 m back north
    /// in 4 s: 4 of 5 steps at 48-109 km/h, so the median of a 5 s window read 50.8 km/h, the
    /// run's maximum through every path. The straight line over the window bounds it.
    @Test func aWanderingReceiverNeverSetsTheMaximum() {
        let fixes: [(t: Double, lat: Double, lon: Double)] = [
            (8, 58.9591833, 5.7288383), (10, 58.9591733, 5.7287850), (11, 58.9591533, 5.7286583), (12, 58.9591750, 5.7286717),
            (13, 58.9591617, 5.7286117), (14, 58.9591733, 5.7286067), (15, 58.9592100, 5.7285917), (16, 58.9591883, 5.7285383),
            (17, 58.9591867, 5.7284767), (18, 58.9589150, 5.7284417), (19, 58.9590283, 5.7283650), (20, 58.9591517, 5.7283083),
            (21, 58.9593417, 5.7282650), (22, 58.9593550, 5.7282200), (23, 58.9593650, 5.7281800), (24, 58.9593583, 5.7281400),
            (25, 58.9593750, 5.7280950), (26, 58.9593783, 5.7280467), (27, 58.9593550, 5.7280000), (28, 58.9593650, 5.7279483),
            (29, 58.9593750, 5.7278967), (30, 58.9593867, 5.7278483), (31, 58.9594017, 5.7277967), (32, 58.9594033, 5.7277500),
            (33, 58.9594100, 5.7276967), (34, 58.9594150, 5.7276450), (35, 58.9594250, 5.7275933), (36, 58.9594350, 5.7275450),
            (37, 58.9594450, 5.7274983), (38, 58.9594567, 5.7274483), (39, 58.9594700, 5.7274000), (40, 58.9594733, 5.7273433)
        ]
        var w = SpeedWindow(window: 5), pathOnly = SpeedWindow(window: 5)
        w.startSegment(); pathOnly.startSegment()
        var d = 0.0
        for (k, f) in fixes.enumerated() {
            if k > 0 {
                let p = fixes[k - 1]
                d += Geodesic.wgs84.distance(latitude1: p.lat, longitude1: p.lon, latitude2: f.lat, longitude2: f.lon)
            }
            _ = w.add(time: f.t, distance: d, latitude: f.lat, longitude: f.lon)
            _ = pathOnly.add(time: f.t, distance: d)
        }
        expectLess(pathOnly.maxSpeed * 3.6, 15, "10 s: the wander never holds half the window: \(pathOnly.maxSpeed * 3.6) km/h")
        expectLess(w.maxSpeed * 3.6, 15, "\(w.maxSpeed * 3.6) km/h")
        expectGreater(w.maxSpeed * 3.6, 8, "the run itself still counts: \(w.maxSpeed * 3.6) km/h")
    }

    /// A straight sprint keeps its speed with positions too; a day of points keeps working
    /// (points older than the window are dropped) across new segments.
    @Test func aSprintWithPositionsAndALongWorkout() {
        var w = SpeedWindow(window: 5)
        w.startSegment()
        var d = 0.0
        let metresPerDegree = 111_200.0
        for t in 0..<30_000 {
            let v = (10_000..<10_010).contains(t) ? 15.0 : 3.0  // a 10 s sprint at 54 km/h
            d += v
            if t == 20_000 { w.startSegment() }
            let r = w.add(time: Double(t), distance: d, latitude: 45 + d / metresPerDegree, longitude: 7)
            if t == 20_003 { expectNil(r, "a new segment waits for its window") }
        }
        expectLess(abs(w.maxSpeed - 15), 0.1, "\(w.maxSpeed)")
        expectEqual(w.current(distance: d, lastEvidence: 29_999), 3)
    }

    /// Regression (issue 25 item 9): the same watch run through gpsd read 16.9 km/h: at 13:30
    /// in, its positions held 4.7 m/s for 10 s in a straight line while its Doppler speed said
    /// 3.8-4.1 m/s (13.6-14.7 km/h). Where every fix of the window carries the receiver's speed,
    /// that bounds the sustained speed; a GPX (no speed) keeps the positions' figure.
    @Test func theReceiversSpeedBoundsTheMaximum() {
        var w = SpeedWindow(window: 5), positionsOnly = SpeedWindow(window: 5)
        w.startSegment(); positionsOnly.startSegment()
        for t in 0...30 {
            let d = 4.7 * Double(t), lat = 45 + d / 111_200
            _ = w.add(time: Double(t), distance: d, latitude: lat, longitude: 7, receiverSpeed: 3.9)
            _ = positionsOnly.add(time: Double(t), distance: d, latitude: lat, longitude: 7)
        }
        expectLess(abs(w.maxSpeed - 3.9), 1e-9, "\(w.maxSpeed)")
        expectLess(abs(positionsOnly.maxSpeed - 4.7), 0.01, "\(positionsOnly.maxSpeed)")
    }
}
