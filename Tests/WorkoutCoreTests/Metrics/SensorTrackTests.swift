import Testing
@testable import WorkoutCore

@Suite struct SensorTrackTests {
    @Test func powerHoldsUntilTheNextReadingAndTheGap() {
        var t = SensorTrack(ftp: 250)
        for i in 0..<60 { t.add(time: 1000 + Double(i), source: .power, reading: SensorReading(power: i < 30 ? 150 : 250)) }
        expectEqual(t.current(.power, at: 1059.5), 250)
        let g1 = t.gap(at: 1060, source: .power)
        let g2 = t.gap(at: 1061, source: .power)
        #expect(g1 && !g2)  // already stopped: not stored twice
        expectNil(t.current(.power, at: 1060.5))
        let f = t.finished(at: 1100)
        expectEqual(f.work, 150 * 30 + 250 * 30)
        expectEqual(f.averagePower(at: 1100), 200)
        #expect(f.analysis.coveredSeconds == 60 && f.maxPower == 250)
        expectGreater(f.analysis.normalizedPower!, 200)
        // a reading holds at most 5 s: silence is not power
        var s = SensorTrack()
        s.add(time: 0, source: .power, reading: SensorReading(power: 300))
        s.add(time: 20, source: .power, reading: SensorReading(power: 100))
        let work: Double = 300 * 5 + 100
        expectEqual(s.finished(at: 21).work, work)
        expectEqual(s.averagePower(at: 21), work / 6)
    }

    @Test func cadenceLeavesCoastingOutAndTheBestSourceWins() {
        var t = SensorTrack()
        // the CSC sensor's cadence until the power meter has one, then the power meter's
        t.add(time: 0, source: .csc, reading: SensorReading(cadence: 80))
        t.add(time: 0.5, source: .power, reading: SensorReading(power: 200))  // crank baseline: no cadence yet
        t.add(time: 1, source: .csc, reading: SensorReading(cadence: 80))
        t.add(time: 1.5, source: .power, reading: SensorReading(power: 200, cadence: 90))
        t.add(time: 2, source: .csc, reading: SensorReading(cadence: 82))  // not taken: the power meter holds cadence
        expectEqual(t.current(.cadence, at: 2.1), 90)
        t.add(time: 3.5, source: .power, reading: SensorReading(power: 0, cadence: 0))  // coasting
        t.add(time: 5.5, source: .power, reading: SensorReading(power: 200, cadence: 90))
        // the power meter goes quiet for more than 5 s: the CSC sensor's cadence is taken again
        t.add(time: 11, source: .csc, reading: SensorReading(cadence: 70))
        expectEqual(t.current(.cadence, at: 11), 70)
        let f = t.finished(at: 12)
        // 80 for 1.5 s, 90 for 2 s, 0 for 2 s (left out), 90 for 5 s, 70 for 1 s
        let expected: Double = (80 * 1.5 + 90 * 2 + 90 * 5 + 70) / 9.5
        expectEqual(f.averageCadence(at: 12), expected)
        expectEqual(f.maxCadence, 90)
    }

    @Test func distanceFromOneSourceAndAStoppedWheelIsZeroSpeed() {
        var t = SensorTrack()
        expectEqual(t.add(time: 0, source: .csc, reading: SensorReading(speed: 8, distance: 0)), .recorded(SensorReading(speed: 8, distance: 0)))
        // the footpod's cadence is taken, its speed and distance are not: the wheel gives them
        expectEqual(t.add(time: 0.2, source: .rsc, reading: SensorReading(cadence: 170, speed: 3, distance: 0.6)), .recorded(SensorReading(cadence: 170)))
        expectEqual(t.add(time: 1, source: .csc, reading: SensorReading(speed: 8, distance: 8.42)), .recorded(SensorReading(speed: 8, distance: 8.42)))
        expectEqual(t.add(time: 2, source: .csc, reading: SensorReading(speed: 0, distance: 0)), .recorded(SensorReading(speed: 0, distance: 0)))
        expectEqual(t.current(.speed, at: 2.5), 0)
        let g = t.gap(at: 3, source: .csc)
        #expect(g)
        // the wheel stopped reporting: the footpod gives distance and speed now
        expectEqual(t.add(time: 4, source: .rsc, reading: SensorReading(cadence: 170, speed: 3, distance: 3)), .recorded(SensorReading(cadence: 170, speed: 3, distance: 3)))
        #expect(t.distance == 11.42 && t.maxSpeed == 8 && t.hasDistance)
        expectEqual(t.current(.speed, at: 4), 3)
    }

    @Test func badInputIsDroppedAndOrderIsKept() {
        var t = SensorTrack()
        expectEqual(t.add(time: .nan, source: .power, reading: SensorReading(power: 100)), .ignoredInvalid)
        expectEqual(t.add(time: 10, source: .power, reading: SensorReading(power: 9000)), .ignoredInvalid)
        expectEqual(t.add(time: 10, source: .power, reading: SensorReading()), .ignoredInvalid)
        expectEqual(t.add(time: 10, source: .power, reading: SensorReading(power: 9000, cadence: 80)), .recorded(SensorReading(cadence: 80)))
        expectEqual(t.samples.last?.reading, SensorReading(cadence: 80))
        expectEqual(t.add(time: 9, source: .power, reading: SensorReading(power: 100)), .ignoredOutOfOrder)
        let all1 = t.gapAll(at: 11), all2 = t.gapAll(at: 12)
        #expect(all1 == [.power] && all2 == [])
    }

    @Test func replayingTheSamplesGivesTheSameFigures() {
        var t = SensorTrack(ftp: 200)
        var x = 0.0
        for i in 0..<300 {
            x += 0.37
            if i == 100 { t.gap(at: x, source: .power); x += 7; continue }
            let w = 150 + (i * 37) % 200
            t.add(time: x, source: .power, reading: SensorReading(power: w, cadence: Double(80 + i % 15)))
            t.add(time: x + 0.1, source: .csc, reading: SensorReading(cadence: 70, speed: 8, distance: 2.105))
        }
        let a = t.finished(at: x + 1), b = SensorTrack.replay(t.samples, ftp: 200).finished(at: x + 1)
        #expect(a.work == b.work && a.distance == b.distance && a.averageCadence(at: x + 1) == b.averageCadence(at: x + 1))
        #expect(a.analysis.normalizedPower == b.analysis.normalizedPower && a.analysis.curve == b.analysis.curve)
        #expect(a.analysis.zoneSeconds == b.analysis.zoneSeconds && a.samples == b.samples)
    }
}
