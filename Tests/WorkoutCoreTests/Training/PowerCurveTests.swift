import Testing
@testable import WorkoutCore

/// The power curve against a brute force over the records, the synthetic rides of the issue
/// (400 W for 3 min, 300 W for 12 min, 260 W for 20 min) and the model fitted to them.
@Suite struct PowerCurveTests {
    static func analysis(_ watts: [Double], from t0: Int = 1_000_000) -> PowerAnalysis {
        var a = PowerAnalysis()
        for (i, w) in watts.enumerated() { a.add(second: t0 + i, watts: w) }
        return a
    }

    /// The best mean of `k` consecutive values, every window's sum taken from running sums (the
    /// values are whole watts, so the sums are exact). Before: each window summed on its own,
    /// O(n k) per duration, a second of CPU in the unoptimized test build.
    static func bruteForce(_ watts: [Double], _ k: Int) -> Double {
        var sums = [0.0]
        sums.reserveCapacity(watts.count + 1)
        for w in watts { sums.append(sums[sums.count - 1] + w) }
        var best = -Double.infinity
        for start in 0...(watts.count - k) { best = max(best, (sums[start + k] - sums[start]) / Double(k)) }
        return best
    }

    /// A ride: `pad` s at 100 W, the effort, `pad` s at 100 W.
    static func ride(_ seconds: Int, _ watts: Double, pad: Int = 300) -> [Double] {
        Array(repeating: 100, count: pad) + Array(repeating: watts, count: seconds) + Array(repeating: 100, count: pad)
    }

    @Test func everyPointIsWithinOnePercentOfTheBruteForce() {
        var rng = SeededRandom(seed: 7)
        var watts: [Double] = []
        for _ in 0..<2400 { watts.append(Double(rng.next() % 600)) }
        let curve = Self.analysis(watts).meanMaximal(PowerCurve.durations)
        expectEqual(curve.map(\.seconds), PowerCurve.durations.filter { $0 <= 2400 })
        for p in curve {
            let ref = Self.bruteForce(watts, p.seconds)
            #expect(abs(p.watts - ref) <= 0.01 * ref, "\(p.seconds) s: \(p.watts) vs \(ref)")
            // The stretch it names has that mean.
            let start = Int(p.startTime) - 1_000_000
            #expect(abs(watts[start..<(start + p.seconds)].reduce(0, +) / Double(p.seconds) - p.watts) < 1e-6)
        }
        // The per-workout curve's own durations agree with it.
        let a = Self.analysis(watts)
        for p in a.curve { expectEqual(curve.first { $0.seconds == p.seconds }?.watts, p.watts) }
    }

    @Test func theRangeCurveNamesTheWorkoutOfEachPointAndTheModelIsPlausible() throws {
        let ids = ["2026-05-01T07-00-00Z", "2026-05-03T07-00-00Z", "2026-05-05T07-00-00Z"].map { WorkoutID(rawValue: $0)! }
        let rides = [Self.ride(180, 400), Self.ride(720, 300), Self.ride(1200, 260)]
        let curves = zip(ids, rides).enumerated().map { i, pair in
            (id: pair.0, startedAt: 1_777_618_800 + Double(i) * 172_800, curve: Self.analysis(pair.1).meanMaximal(PowerCurve.durations))
        }
        let best = PowerCurve.best(of: curves)
        func point(_ s: Int) -> RangePowerPoint? { best.first { $0.seconds == s } }
        expectEqual(point(180)?.watts, 400)
        expectEqual(point(180)?.id, ids[0])
        expectEqual(point(720)?.watts, 300)
        expectEqual(point(720)?.id, ids[1])
        expectEqual(point(1200)?.watts, 260)
        expectEqual(point(1200)?.id, ids[2])
        // Against the brute force over all three rides' records.
        for p in best {
            let ref = rides.filter { $0.count >= p.seconds }.map { Self.bruteForce($0, p.seconds) }.max()!
            #expect(abs(p.watts - ref) <= 0.01 * ref, "\(p.seconds) s")
        }
        let model = try #require(CriticalPowerModel.fit(best.map { (seconds: $0.seconds, watts: $0.watts) }))
        // Efforts of that shape: CP a little below the 20-min power, W' some 20 kJ, eFTP between
        // CP and the best 20 min (numpy's polyfit on the same points: CP 245.1 W, W' 23,203 J).
        #expect(abs(model.criticalPower - 245.1) < 0.5, "CP \(model.criticalPower)")
        #expect(abs(model.wPrime - 23_203) < 50, "W' \(model.wPrime)")
        #expect(model.estimatedFTP > model.criticalPower && model.estimatedFTP < 260, "eFTP \(model.estimatedFTP)")
        #expect(abs(model.watts(seconds: 180) - 374) < 1)
    }

    @Test func noModelFromTooFewEffortsAndNoCurveWithoutPower() {
        expectNil(CriticalPowerModel.fit([(seconds: 5, watts: 900), (seconds: 60, watts: 500)]))
        expectNil(CriticalPowerModel.fit([(seconds: 300, watts: 300)]))
        expectNil(CriticalPowerModel.fit([(seconds: 120, watts: 200), (seconds: 1200, watts: 300)]))  // W' < 0
        expectEqual(PowerAnalysis().meanMaximal(PowerCurve.durations), [])
    }

    /// A saved indoor ride with a power meter: its whole curve comes from the same seconds as its
    /// summary's (the five standard durations equal).
    @Test func aSavedWorkoutsCurveAgreesWithItsSummary() {
        let t0 = 1_777_618_800.0
        let watts = Self.ride(1200, 260, pad: 600)
        let samples = watts.enumerated().map { i, w in SensorSample(time: t0 + Double(i), source: .power, reading: SensorReading(power: Int(w))) }
        let end = t0 + Double(watts.count)
        let w = WorkoutRecorder.recompute(id: WorkoutID(rawValue: "2026-05-01T07-00-00Z")!, activity: .indoorCycling, startedAt: t0, endedAt: end,
                                          points: [], sensors: samples)
        let curve = PowerCurve.of(w, settings: MetricsSettings())
        #expect(!w.summary.powerCurve.isEmpty)
        for p in w.summary.powerCurve {
            let q = curve.first { $0.seconds == p.seconds }
            #expect(q.map { abs($0.watts - p.watts) < 1e-6 } == true, "\(p.seconds) s")
        }
        expectEqual(curve.first { $0.seconds == 1200 }?.watts, 260)
    }
}
