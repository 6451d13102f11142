import Testing
@testable import WorkoutCore

@Suite struct PowerAnalysisTests {
    static func analysed(_ watts: [Double?], ftp: Double? = nil, from t0: Int = 1000) -> PowerAnalysis {
        var a = PowerAnalysis(ftp: ftp)
        for (i, w) in watts.enumerated() { if let w { a.add(second: t0 + i, watts: w) } }
        return a
    }

    static func close(_ a: Double?, _ b: Double, _ tol: Double = 1e-6) -> Bool { a.map { ($0 - b).magnitude <= tol } ?? false }

    @Test func steadyPowerNormalizesToItself() {
        let a = Self.analysed(Array(repeating: 200, count: 3600), ftp: 250)
        #expect(a.averagePower == 200 && Self.close(a.normalizedPower, 200))
        #expect(Self.close(a.intensityFactor, 0.8))
        #expect(Self.close(a.trainingStress, 64))  // 1 h at IF 0.8
        expectEqual(a.zoneSeconds, [0, 0, 3600, 0, 0, 0, 0])  // 80 % of FTP: tempo
    }

    /// Table: 30 s blocks alternating, NP by hand = 4th root of the mean of 4th powers of the
    /// 30 s rolling means.
    @Test(arguments: [
        (blocks: [100.0, 300.0], repeats: 20),
        (blocks: [0.0, 400.0], repeats: 10),
        (blocks: [150.0, 150.0, 450.0], repeats: 5),
    ])
    func normalizedPowerOfIntervalsMatchesTheDefinition(blocks: [Double], repeats: Int) {
        var series: [Double] = []
        for _ in 0..<repeats { for b in blocks { series += Array(repeating: b, count: 30) } }
        var rolling: [Double] = []
        for i in 29..<series.count { rolling.append(series[(i - 29)...i].reduce(0, +) / 30) }
        let fourth: [Double] = rolling.map { (x: Double) -> Double in x * x * x * x }
        let mean: Double = fourth.reduce(0, +) / Double(rolling.count)
        let expected = mean.squareRoot().squareRoot()
        let a = Self.analysed(series.map { $0 })
        #expect(Self.close(a.normalizedPower, expected, 1e-6), "\(a.normalizedPower ?? -1) vs \(expected)")
        expectGreaterOrEqual(a.normalizedPower!, a.averagePower!)
    }

    @Test func noNormalizedPowerBefore30SecondsAndGapsAreLeftOutOfTheWindow() {
        expectNil(Self.analysed(Array(repeating: 250, count: 29)).normalizedPower)
        expectEqual(Self.analysed(Array(repeating: 250, count: 30)).normalizedPower, 250)
        // 20 s, a 60 s dropout, 20 s: 40 seconds with power, all at 250
        let gapped = Self.analysed(Array(repeating: 250, count: 20) + Array(repeating: nil, count: 60) + Array(repeating: 250, count: 20))
        #expect(gapped.coveredSeconds == 40 && Self.close(gapped.normalizedPower, 250))
    }

    @Test func sevenCogganZonesIncludeTheirUpperBound() {
        let z = PowerZones(ftp: 200)!
        expectEqual(z.lowerBounds, [0, 110, 150, 180, 210, 240, 300])
        let cases: [(Double, Int)] = [(0, 1), (110, 1), (110.5, 2), (150, 2), (151, 3), (180, 3), (181, 4), (210, 4),
                                      (211, 5), (240, 5), (241, 6), (300, 6), (301, 7), (2000, 7)]
        for (w, zone) in cases { expectEqual(z.zone(of: w), zone, "\(w) W") }
        #expect(PowerZones(ftp: 0) == nil && PowerZones(ftp: .nan) == nil)
        let a = Self.analysed([100, 200, 300, 400, 160], ftp: 200)
        expectEqual(a.zoneSeconds, [1, 0, 1, 1, 0, 1, 1])
        #expect(Self.analysed([100]).zoneSeconds.isEmpty && Self.analysed([100]).intensityFactor == nil)
    }

    @Test func powerCurveFindsTheBestStretchAndCountsMissingSecondsAsZero() {
        // 10 min at 200 with a 5 s sprint at 800 at 30 s and a 1 min effort at 400 at minute 5
        var s = Array(repeating: 200.0, count: 600)
        for i in 30..<35 { s[i] = 800 }
        for i in 300..<360 { s[i] = 400 }
        let a = Self.analysed(s)
        let curve = a.curve
        expectEqual(curve.map(\.seconds), [5, 60, 300])
        #expect(curve[0].watts == 800 && curve[0].startTime == 1030)
        #expect(curve[1].watts == 400 && curve[1].startTime == 1300)
        // best 5 min: no stretch holds both; every one holding the 400 W minute ties, the first wins
        #expect(Self.close(curve[2].watts, (200 * 240 + 400 * 60) / 300.0) && curve[2].startTime == 1060)
        // a dropout inside a window counts as 0 W
        let gapped = Self.analysed([300, 300, nil, 300, 300, 300, 300, 300])
        #expect(gapped.curve.first?.watts == 300 && gapped.curve.first?.startTime == 1003)
        let holed = Self.analysed([300, 300, nil, 300, 300])
        expectEqual(holed.curve.first?.watts, 240)
    }

    @Test func outOfOrderAndNegativeSecondsAreHarmless() {
        var a = PowerAnalysis()
        a.add(second: 10, watts: 100)
        a.add(second: 10, watts: 500)
        a.add(second: 9, watts: 500)
        a.add(second: 11, watts: -40)
        a.add(second: 12, watts: .nan)
        #expect(a.coveredSeconds == 3 && a.averagePower == 100.0 / 3)
    }
}
