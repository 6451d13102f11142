import func Glibc.cos
import func Glibc.log10
import func Glibc.pow
import func Glibc.floor

/// A workout's route as an inline SVG: the track on a flat local projection (north up, true
/// proportions), simplified to at most `maxVertices` vertices (perpendicular error in pixels),
/// coloured by pace or heart-rate zone, with start, finish, pauses and laps marked and a scale
/// bar. No map tiles unless the user set `web.tiles` (`TileLayer`): then the route is drawn in
/// Web Mercator over the tiles the browser loads from that server.
public struct RouteMap: Sendable {
    /// What the colours show.
    public enum Colouring: String, Sendable, CaseIterable {
        /// Five classes of speed, slowest to fastest, at the workout's own quintiles.
        case pace
        /// The heart-rate zone (0 = below zone 1).
        case heartRate = "hr"
    }

    public let series: WorkoutSeries
    public let colouring: Colouring
    public var zoneBounds: [Int]
    public var width = 1000.0
    /// Implausible stretches (`WorkoutSummary.implausible`) as spans of the series' time
    /// (seconds since the start): drawn over the track, dashed, in their own path.
    public var implausible: [ClosedRange<Double>] = []
    /// The base map under the route (`web.tiles`); nil: a plain ground with a graticule.
    public var tiles: TileLayer?

    public static let maxVertices = 2000
    public static let tolerance = 0.3
    /// Most samples listed for the hover dot.
    public static let hoverSamples = 600

    /// `speedThresholds()`, found once (a sort of every sample's speed) when colouring by pace.
    private var thresholds: [Double] = []

    public init(series: WorkoutSeries, colouring: Colouring, zoneBounds: [Int]) {
        self.series = series; self.colouring = colouring; self.zoneBounds = zoneBounds
        switch colouring {
        case .pace: thresholds = RouteMap.speedThresholds(series)
        case .heartRate: break
        }
    }

    /// The colour classes' speed thresholds (m/s, ascending), for the legend.
    public func speedThresholds() -> [Double] {
        switch colouring {
        case .pace: return thresholds
        case .heartRate: return RouteMap.speedThresholds(series)
        }
    }

    static func speedThresholds(_ series: WorkoutSeries) -> [Double] {
        var speeds = series.speed.filter { !$0.isNaN && $0 > 0.2 }
        guard speeds.count >= 5 else { return [] }
        speeds.sort()
        return [0.2, 0.4, 0.6, 0.8].map { speeds[Int(Double(speeds.count - 1) * $0)] }
    }

    public struct Drawn: Sendable, Equatable {
        public var vertices: Int
        public var maxError: Double
        /// Metres per pixel of the drawing.
        public var metersPerPixel: Double
    }

    /// Writes the `<svg data-chart="route">`; nil (nothing written) without two positions.
    @discardableResult
    ///
    /// `hoverX`: each sample's value on the charts' x axis; when given, `data-track` lists up to
    /// `hoverSamples` of them with their position on the drawing (`x px py ...`), so the page's
    /// script can put a dot on the route where the pointer is on a chart.
    public func render(into w: inout HTMLWriter, label: String, hoverX: [Double]? = nil) -> Drawn? {
        let n = series.count
        var lat0 = 0.0, count = 0
        var minLat = Double.infinity, maxLat = -Double.infinity, minLon = Double.infinity, maxLon = -Double.infinity
        for k in 0..<n where !series.latitude[k].isNaN {
            let la = series.latitude[k], lo = series.longitude[k]
            lat0 += la; count += 1
            minLat = min(minLat, la); maxLat = max(maxLat, la); minLon = min(minLon, lo); maxLon = max(maxLon, lo)
        }
        guard count >= 2 else { return nil }
        lat0 /= Double(count)
        // Projected metres, east and north: a flat local projection, or Web Mercator scaled to
        // true metres at the mean latitude when tiles are drawn under the route (both are
        // monotonic, so the box's corners bound the track).
        let mPerDeg = 6_371_008.8 * Double.pi / 180
        let kx = mPerDeg * cos(lat0 * Double.pi / 180)
        let mpu = TileLayer.metersPerUnit(latitude: lat0)
        let mercator = tiles != nil
        @inline(__always) func project(_ lat: Double, _ lon: Double) -> (x: Double, y: Double) {
            if mercator {
                let w = TileLayer.world(latitude: lat, longitude: lon)
                return (w.x * mpu, -w.y * mpu)
            }
            return (lon * kx, lat * mPerDeg)
        }
        let low = project(minLat, minLon), high = project(maxLat, maxLon)
        let spanX = max(high.x - low.x, 50), spanY = max(high.y - low.y, 50)
        let pad = 28.0
        let height = min(max(width * spanY / spanX, 360), 680)
        let scale = min((width - 2 * pad) / spanX, (height - 2 * pad) / spanY)  // px per metre
        let cx = (low.x + high.x) / 2, cy = (low.y + high.y) / 2

        var xs = [Double](repeating: .nan, count: n), ys = [Double](repeating: .nan, count: n)
        var pieces: [Range<Int>] = []
        for run in series.runs {
            var k = run.lowerBound
            while k < run.upperBound {
                while k < run.upperBound, series.latitude[k].isNaN { k += 1 }
                let s = k
                while k < run.upperBound, !series.latitude[k].isNaN {
                    let m = project(series.latitude[k], series.longitude[k])
                    xs[k] = width / 2 + (m.x - cx) * scale; ys[k] = height / 2 - (m.y - cy) * scale; k += 1
                }
                if k > s { pieces.append(s..<k) }
            }
        }
        // Runs are broken at pauses for charts; the route goes on through a pause (the person
        // stood there) and breaks only where positions are missing or the track jumped.
        let joined = RouteMap.join(pieces, xs, ys, maxJumpPx: 40)
        let simple = LineSimplifier.simplify(x: xs, y: ys, runs: joined, maxVertices: RouteMap.maxVertices,
                                             tolerance: RouteMap.tolerance, metric: .perpendicular, keep: implausibleEnds())

        w.raw("<svg class=\"route\" data-chart=\"route\" viewBox=\"0 0 ")
        w.coordinate(width); w.raw(" "); w.coordinate(height)
        w.raw("\" role=\"img\""); w.attribute("aria-label", label)
        w.raw(" data-colour=\""); w.raw(colouring.rawValue); w.raw("\"")
        if let hx = hoverX, hx.count == n {
            w.raw(" data-track=\"")
            let step = max(1, n / RouteMap.hoverSamples)
            var first = true
            for k in stride(from: 0, to: n, by: step) where !xs[k].isNaN && !hx[k].isNaN {
                if !first { w.raw(" ") }
                first = false
                w.fixed(hx[k], decimals: 3); w.raw(" "); w.coordinate(xs[k]); w.raw(" "); w.coordinate(ys[k])
            }
            w.raw("\"")
        }
        w.raw(">")
        w.raw("<rect class=\"ground\" width=\"100%\" height=\"100%\"/>")
        if let tiles {
            // The base map: the browser loads each tile from the user's server; offline, the
            // ground shows through and the route is drawn as without it.
            w.raw("<g class=\"tiles\">")
            for t in tiles.cover(width: width, height: height, centre: (cx / mpu, -cy / mpu), pixelsPerUnit: scale * mpu) {
                w.raw("<image"); w.attribute("href", t.url)
                w.raw(" x=\""); w.coordinate(t.x); w.raw("\" y=\""); w.coordinate(t.y)
                w.raw("\" width=\""); w.coordinate(t.size + 0.5); w.raw("\" height=\""); w.coordinate(t.size + 0.5)
                w.raw("\" preserveAspectRatio=\"none\"/>")
            }
            w.raw("</g>")
        } else {
            writeGraticule(into: &w, height: height, scale: scale)
        }

        // The track, one path per run of segments in the same colour class.
        let classes = segmentClasses()
        w.raw("<g class=\"track\">")
        w.raw("<path class=\"casing\" d=\"")
        writeRuns(simple.indices, joined, xs, ys, into: &w)
        w.raw("\"/>")
        var p = 0
        var open: Int? = nil
        var prev = -1
        for k in simple.indices {
            while p < joined.count, joined[p].upperBound <= k { p += 1 }
            guard p < joined.count else { break }
            if k == joined[p].lowerBound {
                if open != nil { w.raw("\"/>"); open = nil }
                prev = k
                continue
            }
            let c = classes.map { $0(prev, k) } ?? 3
            if open != c {
                if open != nil { w.raw("\"/>") }
                w.raw("<path class=\"c"); w.int(c); w.raw("\" d=\"M"); w.coordinate(xs[prev]); w.raw(" "); w.coordinate(ys[prev])
                open = c
            }
            w.raw(" "); w.coordinate(xs[k]); w.raw(" "); w.coordinate(ys[k])
            prev = k
        }
        if open != nil { w.raw("\"/>") }
        writeImplausible(simple.indices, joined, xs, ys, into: &w)
        w.raw("</g>")

        // Markers: pauses, laps, start and finish on top.
        w.raw("<g class=\"marks\">")
        for k in series.markedPauses where k >= 0 && k < n && !xs[k].isNaN {
            w.raw("<g class=\"pause\"><title>Paused</title><circle cx=\""); w.coordinate(xs[k]); w.raw("\" cy=\""); w.coordinate(ys[k])
            w.raw("\" r=\"7\"/><path d=\"M"); w.coordinate(xs[k] - 2); w.raw(" "); w.coordinate(ys[k] - 3.5)
            w.raw("v7M"); w.coordinate(xs[k] + 2); w.raw(" "); w.coordinate(ys[k] - 3.5); w.raw("v7\"/></g>")
        }
        for (i, k) in series.lapIndices.enumerated() where k >= 0 && k < n && !xs[k].isNaN {
            w.raw("<g class=\"lapmark\"><title>Lap "); w.int(i + 1); w.raw("</title><circle cx=\""); w.coordinate(xs[k]); w.raw("\" cy=\""); w.coordinate(ys[k])
            w.raw("\" r=\"8\"/><text x=\""); w.coordinate(xs[k]); w.raw("\" y=\""); w.coordinate(ys[k] + 3.5); w.raw("\" text-anchor=\"middle\">")
            w.int(i + 1); w.raw("</text></g>")
        }
        if let first = (0..<n).first(where: { !xs[$0].isNaN }), let last = (0..<n).last(where: { !xs[$0].isNaN }) {
            // The finish on top and smaller: a loop's finish shows inside its start.
            w.raw("<circle class=\"start\" cx=\""); w.coordinate(xs[first]); w.raw("\" cy=\""); w.coordinate(ys[first]); w.raw("\" r=\"9\"><title>Start</title></circle>")
            w.raw("<circle class=\"finish\" cx=\""); w.coordinate(xs[last]); w.raw("\" cy=\""); w.coordinate(ys[last]); w.raw("\" r=\"5.5\"><title>Finish</title></circle>")
        }
        w.raw("</g>")
        writeScaleBar(into: &w, height: height, scale: scale)
        if let text = tiles?.attribution, !text.isEmpty {
            w.raw("<text class=\"attribution\" x=\""); w.coordinate(width - 6); w.raw("\" y=\""); w.coordinate(height - 6)
            w.raw("\" text-anchor=\"end\">"); w.text(text); w.raw("</text>")
        }
        w.raw("</svg>")
        return Drawn(vertices: simple.indices.count, maxError: simple.maxError, metersPerPixel: 1 / scale)
    }

    /// The colour class of the segment between samples a and b: 1-5 by speed quintile, or the
    /// heart-rate zone 0-5 (nil: no colouring possible, one colour).
    func segmentClasses() -> ((Int, Int) -> Int)? {
        switch colouring {
        case .pace:
            let th = speedThresholds()
            guard !th.isEmpty else { return nil }
            let t = series.time, d = series.distance
            return { a, b in
                let dt = t[b] - t[a]
                let v = dt > 0 ? (d[b] - d[a]) / dt : 0
                var c = 1
                for x in th where v > x { c += 1 }
                return c
            }
        case .heartRate:
            guard !zoneBounds.isEmpty, series.heartRate.contains(where: { !$0.isNaN }) else { return nil }
            let hr = series.heartRate, bounds = zoneBounds
            return { a, b in
                var sum = 0.0, n = 0.0
                for k in a...b where !hr[k].isNaN { sum += hr[k]; n += 1 }
                guard n > 0 else { return 0 }
                let bpm = sum / n
                var z = 0
                for lower in bounds where bpm >= Double(lower) { z += 1 }
                return z
            }
        }
    }

    /// The samples where each implausible stretch begins and ends (the last at or before its
    /// start, the first at or after its end): kept by the simplification, so a straight track
    /// is still marked where the stretch is and nowhere else.
    private func implausibleEnds() -> [Int] {
        let t = series.time
        var out: [Int] = []
        for x in implausible {
            if let i = t.lastIndex(where: { $0 <= x.lowerBound }) { out.append(i) }
            if let j = t.firstIndex(where: { $0 >= x.upperBound }) { out.append(j) }
        }
        return out
    }

    /// The drawn segments whose time touches an implausible stretch, in one dashed path (class
    /// `implausible`) over the coloured track: the stretch stays in the route, marked.
    private func writeImplausible(_ indices: [Int], _ runs: [Range<Int>], _ xs: [Double], _ ys: [Double], into w: inout HTMLWriter) {
        guard !implausible.isEmpty else { return }
        let t = series.time
        var p = 0, prev = -1, last = -1, opened = false
        for k in indices {
            while p < runs.count, runs[p].upperBound <= k { p += 1 }
            guard p < runs.count else { break }
            defer { prev = k }
            guard prev >= 0, k != runs[p].lowerBound else { continue }
            let (a, b) = (t[prev], t[k])
            guard implausible.contains(where: { $0.upperBound > a && $0.lowerBound < b }) else { continue }
            if !opened { w.raw("<path class=\"implausible\" d=\""); opened = true }
            if prev != last { w.raw("M"); w.coordinate(xs[prev]); w.raw(" "); w.coordinate(ys[prev]) }
            w.raw(" "); w.coordinate(xs[k]); w.raw(" "); w.coordinate(ys[k])
            last = k
        }
        if opened { w.raw("\"><title>Implausible: kept, not counted</title></path>") }
    }

    /// Pieces whose ends are close together (a pause, not a jump) become one.
    static func join(_ pieces: [Range<Int>], _ xs: [Double], _ ys: [Double], maxJumpPx: Double) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for p in pieces {
            if let last = out.last {
                let a = last.upperBound - 1, b = p.lowerBound
                let dx = xs[b] - xs[a], dy = ys[b] - ys[a]
                if dx * dx + dy * dy <= maxJumpPx * maxJumpPx {
                    // Samples between the pieces (left out: no position) become part of the join;
                    // their coordinates are NaN, so bridge them with the piece's ends.
                    if b == last.upperBound { out[out.count - 1] = last.lowerBound..<p.upperBound; continue }
                }
            }
            out.append(p)
        }
        return out
    }

    private func writeRuns(_ indices: [Int], _ runs: [Range<Int>], _ xs: [Double], _ ys: [Double], into w: inout HTMLWriter) {
        var p = 0
        for k in indices {
            while p < runs.count, runs[p].upperBound <= k { p += 1 }
            guard p < runs.count else { break }
            w.raw(k == runs[p].lowerBound ? "M" : " ")
            w.coordinate(xs[k]); w.raw(" "); w.coordinate(ys[k])
        }
    }

    /// Faint lines every round number of metres, so the drawing reads as a map.
    private func writeGraticule(into w: inout HTMLWriter, height: Double, scale: Double) {
        let step = ChartAxis.niceStep(max(width, height) / scale / 8)
        let spx = step * scale
        guard spx > 8 else { return }
        w.raw("<path class=\"graticule\" d=\"")
        var x = (width / 2).truncatingRemainder(dividingBy: spx)
        while x < width { w.raw("M"); w.coordinate(x); w.raw(" 0V"); w.coordinate(height); x += spx }
        var y = (height / 2).truncatingRemainder(dividingBy: spx)
        while y < height { w.raw("M0 "); w.coordinate(y); w.raw("H"); w.coordinate(width); y += spx }
        w.raw("\"/>")
    }

    private func writeScaleBar(into w: inout HTMLWriter, height: Double, scale: Double) {
        // A round length close to a sixth of the width.
        let target = width / 6 / scale
        let p = pow(10, floor(log10(target)))
        let meters = [1.0, 2, 5, 10].map { $0 * p }.last { $0 <= target } ?? p
        let len = meters * scale
        let x = 16.0, y = height - 16
        w.raw("<g class=\"scale\"><path d=\"M"); w.coordinate(x); w.raw(" "); w.coordinate(y - 6); w.raw("v6h"); w.coordinate(len); w.raw("v-6\"/>")
        w.raw("<text x=\""); w.coordinate(x + len + 6); w.raw("\" y=\""); w.coordinate(y); w.raw("\">")
        if meters >= 1000 { w.fixed(meters / 1000, decimals: meters.truncatingRemainder(dividingBy: 1000) == 0 ? 0 : 1); w.raw(" km") } else { w.int(Int(meters)); w.raw(" m") }
        w.raw("</text><text class=\"north\" x=\""); w.coordinate(width - 18); w.raw("\" y=\"26\" text-anchor=\"middle\">N</text>")
        w.raw("<path class=\"north\" d=\"M"); w.coordinate(width - 18); w.raw(" 30l-5 12h10z\"/></g>")
    }
}
