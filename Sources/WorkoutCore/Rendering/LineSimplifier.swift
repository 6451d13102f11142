/// Douglas-Peucker line simplification with a vertex budget, for drawing long tracks: a chart
/// or route of 86,400 points is drawn with at most `maxVertices` of them.
///
/// The classic recursion is run best-first: every segment between two kept points knows its
/// farthest point, and the segment with the largest error is split next, until every error is
/// at most `tolerance` or the budget is spent. So whatever the budget allows goes where the line
/// is worst, and the result's largest error (returned as `maxError`) is exactly the largest
/// distance of any dropped point from the drawn line. The first and last point of every run,
/// and the points in `keep` (a chart's highest and lowest values), are always kept.
///
/// Error is measured in the units of the coordinates given (the renderers pass pixels):
/// `.vertical` is the distance along y from the segment at the point's x (charts, where x is
/// monotonic), `.perpendicular` the distance from the segment (routes).
public enum LineSimplifier {
    public enum Metric: Sendable { case vertical, perpendicular }

    public struct Result: Sendable, Equatable {
        /// Indices of the kept points, ascending.
        public var indices: [Int]
        /// Largest distance of a dropped point from the simplified line (0 when none was dropped).
        public var maxError: Double
    }

    private struct Segment {
        var a: Int
        var b: Int
        var worst: Int
        var error: Double
    }

    /// Simplifies the polylines `runs` (index ranges into `x`/`y`, ascending and disjoint: the
    /// pieces between gaps) together, sharing one budget.
    public static func simplify(x: [Double], y: [Double], runs: [Range<Int>], maxVertices: Int, tolerance: Double,
                                metric: Metric, keep: [Int] = []) -> Result {
        precondition(x.count == y.count)
        var forced: [Int] = []
        forced.reserveCapacity(runs.count * 2 + keep.count)
        var heap: [Segment] = []
        x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                let sortedKeep = keep.sorted()
                var k = 0
                for run in runs where !run.isEmpty {
                    var anchors = [run.lowerBound]
                    while k < sortedKeep.count, sortedKeep[k] < run.lowerBound { k += 1 }
                    while k < sortedKeep.count, sortedKeep[k] < run.upperBound {
                        if sortedKeep[k] != anchors.last! { anchors.append(sortedKeep[k]) }
                        k += 1
                    }
                    if run.upperBound - 1 != anchors.last! { anchors.append(run.upperBound - 1) }
                    forced.append(contentsOf: anchors)
                    for (a, b) in zip(anchors, anchors.dropFirst()) where b - a > 1 {
                        push(&heap, farthest(xs, ys, a, b, metric))
                    }
                }
                var kept = forced
                let budget = max(maxVertices, forced.count)
                while let top = heap.first, top.error > tolerance, kept.count < budget {
                    pop(&heap)
                    kept.append(top.worst)
                    if top.worst - top.a > 1 { push(&heap, farthest(xs, ys, top.a, top.worst, metric)) }
                    if top.b - top.worst > 1 { push(&heap, farthest(xs, ys, top.worst, top.b, metric)) }
                }
                forced = kept
            }
        }
        forced.sort()
        return Result(indices: forced, maxError: heap.first?.error ?? 0)
    }

    /// The point between `a` and `b` (exclusive) farthest from the segment a-b.
    private static func farthest(_ x: UnsafeBufferPointer<Double>, _ y: UnsafeBufferPointer<Double>, _ a: Int, _ b: Int, _ metric: Metric) -> Segment {
        var worst = a + 1
        var error = -1.0
        let ax = x[a], ay = y[a], bx = x[b], by = y[b]
        switch metric {
        case .vertical:
            let dx = bx - ax
            let slope = dx != 0 ? (by - ay) / dx : 0
            for k in (a + 1)..<b {
                let e = abs(y[k] - (ay + slope * (x[k] - ax)))
                if e > error { error = e; worst = k }
            }
        case .perpendicular:
            let dx = bx - ax, dy = by - ay
            let len2 = dx * dx + dy * dy
            // Squared distances while searching; one square root at the end.
            for k in (a + 1)..<b {
                let px = x[k] - ax, py = y[k] - ay
                var d2: Double
                if len2 == 0 {
                    d2 = px * px + py * py
                } else {
                    let t = min(1, max(0, (px * dx + py * dy) / len2))
                    let ex = px - t * dx, ey = py - t * dy
                    d2 = ex * ex + ey * ey
                }
                if d2 > error { error = d2; worst = k }
            }
            error = error.squareRoot()
        }
        // NaN coordinates never reach here (the renderers drop them); treat one as no error.
        return Segment(a: a, b: b, worst: worst, error: error.isNaN ? 0 : error)
    }

    // A binary max-heap on `error`.
    private static func push(_ h: inout [Segment], _ s: Segment) {
        h.append(s)
        var i = h.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            guard h[p].error < h[i].error else { break }
            h.swapAt(p, i)
            i = p
        }
    }

    private static func pop(_ h: inout [Segment]) {
        let last = h.removeLast()
        guard !h.isEmpty else { return }
        h[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < h.count, h[l].error > h[m].error { m = l }
            if r < h.count, h[r].error > h[m].error { m = r }
            if m == i { break }
            h.swapAt(i, m)
            i = m
        }
    }
}
