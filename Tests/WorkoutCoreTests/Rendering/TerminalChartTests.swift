import Testing
@testable import WorkoutCore

@Suite struct TerminalChartTests {
    @Test func brailleRowsFillFromTheBottom() {
        let c = TerminalChart(name: "x", title: "X", unit: "m", isPace: false, values: [0, 1, .nan, 0.5], xEnd: "2 km")
        let lines = c.lines(rows: 2)
        expectEqual(lines.count, 1 + 2 + 2)
        expectEqual(lines[0], "X (m)  min 0.0 · max 1.0")
        // Column 0 (value 0) lights the bottom dot only; column 1 (value 1) is full height.
        let top = Array(lines[1].unicodeScalars.suffix(2)), bottom = Array(lines[2].unicodeScalars.suffix(2))
        expectEqual(top[0].value, 0x2800 + 0x08 + 0x10 + 0x20 + 0x80)
        expectEqual(bottom[0].value, 0x2800 + 0x40 + 0x08 + 0x10 + 0x20 + 0x80)
        // Column 2 is a gap, column 3 half height: 5 of the 8 dots (0.5 x 7, rounded, + 1).
        expectEqual(top[1].value, 0x2800 + 0x80)
        expectEqual(bottom[1].value, 0x2800 + 0x08 + 0x10 + 0x20 + 0x80)
        #expect(lines.last!.hasSuffix("2 km"))
    }

    @Test func chartsOfARide() {
        let w = WebFixtures.ride(points: 4000)
        let charts = TerminalChart.charts(of: w, units: .metric, columns: 120)
        expectEqual(charts.map(\.name), ["elevation", "speed", "heartrate", "power", "cadence"])
        for c in charts {
            expectEqual(c.values.count, 120)
            let lines = c.lines(rows: 4)
            expectEqual(lines.count, 7)
            expectEqual(TerminalChart(json: c.json())?.name, c.name)
        }
    }

    @Test func resampleAverages() {
        let r = TerminalChart.resample(x: [0, 1, 2, 3], y: [1, 3, .nan, 5], runs: [0..<4], columns: 2)
        expectEqual(r, [2, 5])
    }
}
