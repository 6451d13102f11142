/// One chart of a workout's page as an inline SVG: a channel (elevation, pace, heart rate, ...)
/// against distance or time, gaps where the workout paused, simplified to at most
/// `maxVertices` vertices (`LineSimplifier`, vertical error in pixels), with its axes, grid,
/// heart-rate zone bands and lap lines. The `data-*` attributes carry the axes' ranges so the
/// page's script can turn a pointer position back into values (hover); without the script
/// the chart is complete.
public struct LineChart: Sendable {
    /// The chart's name in `data-chart`.
    public enum Kind: String, Sendable, CaseIterable {
        case elevation, pace, speed, heartrate, power, cadence
    }

    /// How the values on an axis are written: plain numbers with `decimals`, a pace (m:ss), a
    /// duration (h:mm).
    public enum Format: String, Sendable {
        case number, pace, duration
    }

    public struct Axis: Sendable {
        public var format: Format
        /// The unit written after a value in the hover label ("km", "bpm", "/km").
        public var unit: String
        public var decimals: Int
        public init(format: Format, unit: String, decimals: Int = 0) {
            self.format = format; self.unit = unit; self.decimals = decimals
        }
    }

    public var kind: Kind
    /// Values in display units; NaN where there is none.
    public var x: [Double]
    public var y: [Double]
    public var runs: [Range<Int>]
    public var xAxis: Axis
    public var yAxis: Axis
    /// Lower bounds of heart-rate zones (bpm) drawn as bands.
    public var zoneBounds: [Int] = []
    /// x values of lap ends (dashed lines).
    public var laps: [Double] = []
    /// x ranges of implausible stretches (`WorkoutSummary.implausible`): shaded bands, class
    /// `implausible`, under the line (which stays as recorded).
    public var implausible: [ClosedRange<Double>] = []
    /// Smaller values at the top (pace: faster is up).
    public var inverted = false
    /// The y range starts at 0 (speed, power).
    public var fromZero = false
    /// Filled below the line (elevation).
    public var filled = false

    public static let width = 1000.0
    public static let height = 190.0
    static let left = 56.0, right = 992.0, top = 10.0, bottom = 166.0

    /// Most vertices of the drawn line.
    public static let maxVertices = 2000
    /// Refinement stops below this error (px): finer than anyone sees.
    public static let tolerance = 0.25

    public init(kind: Kind, x: [Double], y: [Double], runs: [Range<Int>], xAxis: Axis, yAxis: Axis) {
        self.kind = kind; self.x = x; self.y = y; self.runs = runs; self.xAxis = xAxis; self.yAxis = yAxis
    }

    /// What drawing did: the vertices drawn and the largest distance (px) of a dropped point
    /// from the drawn line.
    public struct Drawn: Sendable, Equatable {
        public var vertices: Int
        public var maxError: Double
    }

    /// The value range of the y axis (padded), or nil when there is nothing to draw.
    func yRange() -> (Double, Double)? {
        var lo = Double.infinity, hi = -Double.infinity
        for v in y where !v.isNaN {
            if v < lo { lo = v }
            if v > hi { hi = v }
        }
        guard lo <= hi else { return nil }
        if fromZero { lo = min(0, lo) }
        if !zoneBounds.isEmpty {
            lo = min(lo, Double(zoneBounds.first!) - 5)
            hi = max(hi, Double(zoneBounds.last!) + 5)
        }
        let minimumSpan: Double
        switch kind {
        case .elevation: minimumSpan = 20
        case .pace: minimumSpan = 60
        case .speed, .heartrate, .power, .cadence: minimumSpan = 10
        }
        if hi - lo < minimumSpan {
            let mid = (hi + lo) / 2
            lo = fromZero ? max(0, mid - minimumSpan / 2) : mid - minimumSpan / 2
            hi = lo + minimumSpan
        }
        let pad = (hi - lo) * 0.06
        return (fromZero && lo >= 0 ? lo : lo - pad, hi + pad)
    }

    /// Writes the `<svg>`; returns nil (writing nothing) when the channel has no value.
    @discardableResult
    public func render(into w: inout HTMLWriter, label: String) -> Drawn? {
        guard let (ylo, yhi) = yRange(), let x0 = x.first(where: { !$0.isNaN }), let x1 = x.last(where: { !$0.isNaN }) else { return nil }
        let xhi = x1 > x0 ? x1 : x0 + 1
        let l = LineChart.left, r = LineChart.right, t = LineChart.top, b = LineChart.bottom
        let sx = (r - l) / (xhi - x0)
        let sy = (b - t) / (yhi - ylo)
        @inline(__always) func px(_ v: Double) -> Double { l + (v - x0) * sx }
        @inline(__always) func py(_ v: Double) -> Double {
            let c = min(max(v, ylo), yhi)
            return inverted ? t + (c - ylo) * sy : b - (c - ylo) * sy
        }

        w.raw("<svg class=\"chart\" data-chart=\"")
        w.raw(kind.rawValue)
        w.raw("\" viewBox=\"0 0 1000 190\" role=\"img\"")
        w.attribute("aria-label", label)
        w.raw(" data-x0=\""); w.fixed(x0, decimals: 4)
        w.raw("\" data-x1=\""); w.fixed(xhi, decimals: 4)
        w.raw("\" data-y0=\""); w.fixed(inverted ? yhi : ylo, decimals: 3)
        w.raw("\" data-y1=\""); w.fixed(inverted ? ylo : yhi, decimals: 3)
        w.raw("\" data-xf=\""); w.raw(xAxis.format.rawValue)
        w.raw("\" data-xu=\""); w.text(xAxis.unit)
        w.raw("\" data-yf=\""); w.raw(yAxis.format.rawValue)
        w.raw("\" data-yu=\""); w.text(yAxis.unit)
        w.raw("\" data-yd=\""); w.int(yAxis.decimals)
        w.raw("\">")

        // Heart-rate zone bands, under everything.
        if !zoneBounds.isEmpty {
            for (k, lower) in zoneBounds.enumerated() {
                let upper = k + 1 < zoneBounds.count ? Double(zoneBounds[k + 1]) : yhi
                let lo = max(Double(lower), ylo), hi = min(upper, yhi)
                guard hi > lo else { continue }
                w.raw("<rect class=\"zb z"); w.int(k + 1); w.raw("\" x=\""); w.coordinate(l)
                w.raw("\" y=\""); w.coordinate(py(hi)); w.raw("\" width=\""); w.coordinate(r - l)
                w.raw("\" height=\""); w.coordinate(py(lo) - py(hi)); w.raw("\"/>")
                if py(lo) - py(hi) >= 12 {
                    w.raw("<text class=\"zl\" x=\""); w.coordinate(r - 4); w.raw("\" y=\""); w.coordinate(py(hi) + 10)
                    w.raw("\" text-anchor=\"end\">Z"); w.int(k + 1); w.raw("</text>")
                }
            }
        }

        for band in implausible where band.upperBound > x0 && band.lowerBound < xhi {
            let a = px(max(band.lowerBound, x0)), z = px(min(band.upperBound, xhi))
            w.raw("<rect class=\"implausible\" x=\""); w.coordinate(a); w.raw("\" y=\""); w.coordinate(t)
            w.raw("\" width=\""); w.coordinate(max(z - a, 2)); w.raw("\" height=\""); w.coordinate(b - t)
            w.raw("\"><title>Implausible: kept, not counted</title></rect>")
        }

        // Grid and y labels.
        let yTicks: [Double]
        switch yAxis.format {
        case .pace:
            let step = [15.0, 30, 60, 120, 300, 600].first { (yhi - ylo) / $0 <= 5 } ?? 600
            yTicks = ChartAxis.ticks(ylo / step, yhi / step, count: Int(((yhi - ylo) / step).rounded(.up))).map { ($0 * step).rounded() }
        case .number, .duration:
            yTicks = ChartAxis.ticks(ylo, yhi, count: 4)
        }
        let yStep = yTicks.count > 1 ? yTicks[1] - yTicks[0] : 1
        w.raw("<g class=\"grid\">")
        for v in yTicks where v >= ylo && v <= yhi {
            let yy = py(v)
            w.raw("<line x1=\""); w.coordinate(l); w.raw("\" x2=\""); w.coordinate(r)
            w.raw("\" y1=\""); w.coordinate(yy); w.raw("\" y2=\""); w.coordinate(yy); w.raw("\"/>")
        }
        w.raw("</g><g class=\"tick\">")
        for v in yTicks where v >= ylo && v <= yhi {
            w.raw("<text x=\""); w.coordinate(l - 6); w.raw("\" y=\""); w.coordinate(py(v) + 4); w.raw("\" text-anchor=\"end\">")
            LineChart.write(v, yAxis.format, decimals: ChartAxis.decimals(forStep: yStep), into: &w)
            w.raw("</text>")
        }
        // x labels.
        let xTicks = xAxis.format == .duration ? ChartAxis.timeTicks(x0, xhi, count: 8) : ChartAxis.ticks(x0, xhi, count: 8)
        let xStep = xTicks.count > 1 ? xTicks[1] - xTicks[0] : 1
        for v in xTicks {
            w.raw("<text x=\""); w.coordinate(px(v)); w.raw("\" y=\""); w.coordinate(b + 18); w.raw("\" text-anchor=\"middle\">")
            LineChart.write(v, xAxis.format, decimals: ChartAxis.decimals(forStep: xStep), into: &w)
            if v == xTicks.last, xAxis.format == .number { w.raw(" "); w.text(xAxis.unit) }
            w.raw("</text>")
        }
        w.raw("</g>")
        for lap in laps where lap > x0 && lap < xhi {
            w.raw("<line class=\"lap\" x1=\""); w.coordinate(px(lap)); w.raw("\" x2=\""); w.coordinate(px(lap))
            w.raw("\" y1=\""); w.coordinate(t); w.raw("\" y2=\""); w.coordinate(b); w.raw("\"/>")
        }

        // The line: runs split further where a value is missing, simplified in pixels.
        var pxs = [Double](repeating: .nan, count: x.count)
        var pys = [Double](repeating: .nan, count: x.count)
        var pieces: [Range<Int>] = []
        var keep: [Int] = []
        var lowest = -1, highest = -1
        for run in runs {
            var k = run.lowerBound
            while k < run.upperBound {
                while k < run.upperBound, y[k].isNaN || x[k].isNaN { k += 1 }
                let s = k
                while k < run.upperBound, !y[k].isNaN, !x[k].isNaN {
                    pxs[k] = px(x[k]); pys[k] = py(y[k])
                    if lowest < 0 || y[k] < y[lowest] { lowest = k }
                    if highest < 0 || y[k] > y[highest] { highest = k }
                    k += 1
                }
                if k > s { pieces.append(s..<k) }
            }
        }
        if lowest >= 0 { keep = [lowest, highest] }
        let simple = LineChart.simplify(pxs, pys, pieces, keep: keep)
        if filled {
            w.raw("<path class=\"area\" d=\"")
            writePath(simple.indices, pieces, pxs, pys, closedTo: b, into: &w)
            w.raw("\"/>")
        }
        w.raw("<path class=\"line\" d=\"")
        writePath(simple.indices, pieces, pxs, pys, closedTo: nil, into: &w)
        w.raw("\"/></svg>")
        return Drawn(vertices: simple.indices.count, maxError: simple.maxError)
    }

    /// The points drawn: each piece reduced to its lowest and highest point per pixel column
    /// (`ColumnDecimator`: two a pixel at most, every peak kept), then simplified within the
    /// vertex budget (`LineSimplifier`). Indices into `xs`/`ys`; `maxError` is the simplifier's,
    /// on the reduced points.
    static func simplify(_ xs: [Double], _ ys: [Double], _ pieces: [Range<Int>], keep: [Int]) -> LineSimplifier.Result {
        let candidates = ColumnDecimator.decimate(x: xs, y: ys, runs: pieces, keep: keep)
        var cx: [Double] = [], cy: [Double] = [], cpieces: [Range<Int>] = []
        cx.reserveCapacity(candidates.count); cy.reserveCapacity(candidates.count); cpieces.reserveCapacity(pieces.count)
        for k in candidates { cx.append(xs[k]); cy.append(ys[k]) }
        var c = 0
        for piece in pieces {
            while c < candidates.count, candidates[c] < piece.lowerBound { c += 1 }
            let s = c
            while c < candidates.count, candidates[c] < piece.upperBound { c += 1 }
            if c > s { cpieces.append(s..<c) }
        }
        let ckeep = keep.compactMap { k in candidates.firstIndex(of: k) }
        var simple = LineSimplifier.simplify(x: cx, y: cy, runs: cpieces, maxVertices: LineChart.maxVertices,
                                             tolerance: LineChart.tolerance, metric: .vertical, keep: ckeep)
        simple.indices = simple.indices.map { candidates[$0] }
        return simple
    }

    /// `M x y x y ...` for each piece (an implicit line-to follows a move-to), closed down to
    /// `closedTo` for an area.
    private func writePath(_ indices: [Int], _ pieces: [Range<Int>], _ xs: [Double], _ ys: [Double], closedTo base: Double?, into w: inout HTMLWriter) {
        var p = 0
        var first = true
        var lastX = 0.0
        for k in indices {
            while p < pieces.count, pieces[p].upperBound <= k { p += 1 }
            guard p < pieces.count else { break }
            let startsPiece = k == pieces[p].lowerBound
            if startsPiece {
                if let base, !first { w.raw(" "); w.coordinate(lastX); w.raw(" "); w.coordinate(base); w.raw("Z") }
                w.raw(first ? "M" : " M")
                if let base {
                    w.coordinate(xs[k]); w.raw(" "); w.coordinate(base); w.raw(" ")
                }
            } else {
                w.raw(" ")
            }
            w.coordinate(xs[k]); w.raw(" "); w.coordinate(ys[k])
            lastX = xs[k]
            first = false
        }
        if let base, !first { w.raw(" "); w.coordinate(lastX); w.raw(" "); w.coordinate(base); w.raw("Z") }
    }

    /// A value as the axis writes it.
    static func write(_ v: Double, _ format: Format, decimals: Int, into w: inout HTMLWriter) {
        switch format {
        case .number: w.fixed(v, decimals: decimals)
        case .pace:
            let s = Int(max(0, v).rounded())
            w.int(s / 60); w.raw(":"); if s % 60 < 10 { w.raw("0") }; w.int(s % 60)
        case .duration:
            let s = Int(max(0, v).rounded())
            w.int(s / 3600); w.raw(":"); if s / 60 % 60 < 10 { w.raw("0") }; w.int(s / 60 % 60)
        }
    }
}
