import Testing
@testable import WorkoutCore

@Suite struct ColumnDecimatorTests {
    /// A noisy line of 20,000 points over 200 columns, with two runs.
    static func noisy() -> (x: [Double], y: [Double], runs: [Range<Int>]) {
        let n = 20_000
        var x: [Double] = [], y: [Double] = []
        var r: UInt64 = 42
        for k in 0..<n {
            r = r &* 6364136223846793005 &+ 1442695040888963407
            x.append(Double(k) / 100)
            y.append(50 + 20 * Double((r >> 33) % 1000) / 1000 + (k == 12_345 ? 60 : 0) - (k == 7_777 ? 45 : 0))
        }
        return (x, y, [0..<10_000, 10_050..<n])
    }

    /// Every column keeps its lowest and highest point (so every peak and trough), each dropped
    /// point lies between them, and at most two points a column and the runs' ends are kept.
    @Test func minAndMaxPerColumnKeepEveryPeak() {
        let (x, y, runs) = ColumnDecimatorTests.noisy()
        let kept = ColumnDecimator.decimate(x: x, y: y, runs: runs)
        let keptSet = Set(kept)
        #expect(kept == kept.sorted() && keptSet.count == kept.count)
        #expect(kept.contains(12_345) && kept.contains(7_777))  // the spike and the dip
        for run in runs {
            #expect(keptSet.contains(run.lowerBound) && keptSet.contains(run.upperBound - 1))
            let inner = (run.lowerBound + 1)..<(run.upperBound - 1)
            var columns: [Double: [Int]] = [:]
            for k in inner { columns[x[k].rounded(.down), default: []].append(k) }
            for (_, members) in columns {
                let keptHere = members.filter { keptSet.contains($0) }
                #expect(keptHere.count >= 1 && keptHere.count <= 2)
                let ys = keptHere.map { y[$0] }
                let lo = members.map { y[$0] }.min()!, hi = members.map { y[$0] }.max()!
                #expect(ys.min() == lo && ys.max() == hi)
            }
        }
        #expect(!kept.contains { k in !runs.contains { $0.contains(k) } })  // nothing from the gap
        expectLessOrEqual(kept.count, 2 * 200 + 4)
    }

    @Test func keptIndicesStayAndShortRunsAreWhole() {
        let x = (0..<10).map { Double($0) / 100 }, y = (0..<10).map { Double($0 % 3) }
        expectEqual(ColumnDecimator.decimate(x: x, y: y, runs: [0..<1, 2..<4]), [0, 2, 3])
        expectEqual(ColumnDecimator.decimate(x: x, y: y, runs: [0..<10], keep: [5]), [0, 2, 3, 5, 9])
    }

    /// Through the whole chart: a one-sample spike in a day of noisy heart rate is drawn.
    @Test func aChartDrawsAOneSecondSpike() {
        let (x, y, _) = ColumnDecimatorTests.noisy()
        var yy = y
        yy[15_000] = 200  // the highest: kept anyway
        var chart = LineChart(kind: .heartrate, x: x, y: yy, runs: [0..<x.count], xAxis: .init(format: .duration, unit: ""), yAxis: .init(format: .number, unit: "bpm"))
        chart.zoneBounds = []
        var w = HTMLWriter()
        let drawn = chart.render(into: &w, label: "hr")
        #expect(drawn != nil && drawn!.vertices <= LineChart.maxVertices)
        // 12,345 is no extreme of the chart but a peak of its column: its height is drawn.
        guard let (lo, hi) = chart.yRange() else { Issue.record("no range"); return }
        let py = LineChart.bottom - (yy[12_345] - lo) * (LineChart.bottom - LineChart.top) / (hi - lo)
        var probe = HTMLWriter()
        probe.coordinate(py)
        #expect(w.string.contains(" " + probe.string + " ") || w.string.contains(" " + probe.string + "\""))
    }
}
