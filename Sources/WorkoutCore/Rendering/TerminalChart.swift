/// A chart for the terminal (`workoutctl show ID --charts`): one channel of a workout as
/// columns of values, drawn as rows of braille characters (2 x 4 dots each), filled from the
/// bottom, with the range on the left and the x axis below.
public struct TerminalChart: Sendable, Equatable {
    /// `elevation`, `pace`, `speed`, `heartrate`, `power`, `cadence`.
    public var name: String
    /// "Elevation", "Pace", ...
    public var title: String
    /// The values' unit ("m", "/km", "bpm"); a pace is written m:ss.
    public var unit: String
    public var isPace: Bool
    /// One value per dot column (two per character), NaN where there is none.
    public var values: [Double]
    /// The x axis: its end ("21.1 km", "1:45:00").
    public var xEnd: String

    public init(name: String, title: String, unit: String, isPace: Bool, values: [Double], xEnd: String) {
        self.name = name; self.title = title; self.unit = unit; self.isPace = isPace; self.values = values; self.xEnd = xEnd
    }

    /// The charts of a workout with `columns` values each (twice the characters wide): elevation,
    /// pace or speed, heart rate, and power and cadence when recorded.
    public static func charts(of workout: Workout, units: UnitFormatter, columns: Int) -> [TerminalChart] {
        let series = WorkoutSeries(workout: workout)
        guard series.count >= 2, columns > 0 else { return [] }
        let s = workout.summary
        let byDistance = series.hasPositions && s.distanceMeters > 0
        let x = byDistance ? series.distance : series.time
        let xEnd = byDistance ? units.distance(s.distanceMeters) : WebFormat.duration(series.time.last ?? 0)
        func resample(_ y: [Double]) -> [Double] { TerminalChart.resample(x: x, y: y, runs: series.runs, columns: columns) }
        var out: [TerminalChart] = []
        func add(_ name: String, _ title: String, _ unit: String, _ y: [Double], pace: Bool = false) {
            let v = resample(y)
            if v.contains(where: { !$0.isNaN }) { out.append(TerminalChart(name: name, title: title, unit: unit, isPace: pace, values: v, xEnd: xEnd)) }
        }
        let metric = units.system == .metric
        add("elevation", "Elevation", metric ? "m" : "ft", series.elevation.map { metric ? $0 : $0 / UnitFormatter.metersPerFoot })
        switch s.activity.effortDisplay {
        case .pace:
            let per = units.metersPerDistanceUnit
            add("pace", "Pace", "/" + units.distanceUnit, series.speed.map { $0 >= 0.5 ? per / $0 : .nan }, pace: true)
        case .speed, .none:
            add("speed", "Speed", metric ? "km/h" : "mph", series.speed.map { $0 * (metric ? 3.6 : 3600 / UnitFormatter.metersPerMile) })
        }
        add("heartrate", "Heart rate", "bpm", series.heartRate)
        add("power", "Power", "W", series.power)
        add("cadence", "Cadence", s.activity.cadenceUnit, series.cadence.map { $0 * s.activity.cadenceFactor })
        return out
    }

    /// The mean of `y` over each of `columns` equal stretches of x; NaN for a stretch without a
    /// value (a pause).
    public static func resample(x: [Double], y: [Double], runs: [Range<Int>], columns: Int) -> [Double] {
        guard let lo = x.first, let hi = x.last, hi > lo, columns > 0 else { return [] }
        var sum = [Double](repeating: 0, count: columns), n = [Int](repeating: 0, count: columns)
        for run in runs {
            for k in run where !y[k].isNaN && y[k].isFinite {
                let c = min(columns - 1, max(0, Int((x[k] - lo) / (hi - lo) * Double(columns))))
                sum[c] += y[k]; n[c] += 1
            }
        }
        return (0..<columns).map { n[$0] > 0 ? sum[$0] / Double(n[$0]) : .nan }
    }

    /// The chart as lines: a title line, `rows` rows of braille, and the x axis.
    public func lines(rows: Int) -> [String] {
        let finite = values.filter { !$0.isNaN }
        guard let lo0 = finite.min(), let hi0 = finite.max(), rows > 0 else { return [] }
        var lo = lo0, hi = hi0
        if hi - lo < 1e-9 { lo -= 1; hi += 1 }
        // A pace's slow outliers (standing still) would flatten the rest: cap at twice the median.
        if isPace {
            let sorted = finite.sorted()
            hi = min(hi, max(sorted[sorted.count / 2] * 2, lo + 60))
        }
        let label = { (v: Double) -> String in self.isPace ? TerminalChart.pace(v) : formatFixed(v, decimals: abs(hi - lo) < 10 ? 1 : 0) }
        let top = label(isPace ? lo : hi), bottom = label(isPace ? hi : lo)
        let pad = max(top.count, bottom.count)
        let dots = rows * 4
        let width = (values.count + 1) / 2
        var grid = [[UInt32]](repeating: [UInt32](repeating: 0, count: width), count: rows)
        for (c, v) in values.enumerated() where !v.isNaN {
            var f = (min(max(v, lo), hi) - lo) / (hi - lo)
            if isPace { f = 1 - f }  // faster is higher
            let height = max(1, Int((f * Double(dots - 1)).rounded()) + 1)
            for d in 0..<height {
                let row = rows - 1 - d / 4, sub = 3 - d % 4
                grid[row][c / 2] |= TerminalChart.dotBit(column: c % 2, row: sub)
            }
        }
        let range = isPace ? "fastest \(TerminalChart.pace(lo0)) · slowest \(TerminalChart.pace(hi0))" : "min \(label(lo0)) · max \(label(hi0))"
        var out = ["\(title) (\(unit))  " + range]
        for (r, row) in grid.enumerated() {
            let axis = r == 0 ? top : (r == rows - 1 ? bottom : "")
            var line = String(repeating: " ", count: pad - axis.count) + axis + " ┤"
            for bits in row { line.unicodeScalars.append(UnicodeScalar(0x2800 + bits)!) }
            out.append(line)
        }
        let axisLine = String(repeating: " ", count: pad + 1) + "└" + String(repeating: "─", count: width)
        out.append(axisLine)
        let start = "0", end = xEnd
        let gap = max(1, width - start.count - end.count + 1)
        out.append(String(repeating: " ", count: pad + 2) + start + String(repeating: " ", count: gap) + end)
        return out
    }

    /// The braille bit of a dot: column 0-1, row 0-3 from the top.
    static func dotBit(column: Int, row: Int) -> UInt32 {
        let left: [UInt32] = [0x01, 0x02, 0x04, 0x40], right: [UInt32] = [0x08, 0x10, 0x20, 0x80]
        return column == 0 ? left[row] : right[row]
    }

    static func pace(_ seconds: Double) -> String {
        let s = Int(max(0, seconds.isFinite ? seconds : 0).rounded())
        return "\(s / 60):" + ISO8601.pad(s % 60, 2)
    }
}

extension TerminalChart {
    /// The chart as the `show` reply carries it (`charts`).
    public func json() -> JSON {
        [
            "name": .string(name), "title": .string(title), "unit": .string(unit), "pace": .bool(isPace),
            "xEnd": .string(xEnd), "values": .array(values.map { $0.isNaN ? .null : .number(($0 * 100).rounded() / 100) }),
        ]
    }

    public init?(json: JSON) {
        guard let name = json["name"]?.stringValue, let values = json["values"]?.arrayValue else { return nil }
        self.init(name: name, title: json["title"]?.stringValue ?? name, unit: json["unit"]?.stringValue ?? "",
                  isPace: json["pace"]?.boolValue ?? false, values: values.map { $0.doubleValue ?? .nan }, xEnd: json["xEnd"]?.stringValue ?? "")
    }
}
