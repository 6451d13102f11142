/// Reduces a chart's line to what its pixel columns can show, before it is simplified
/// (`LineSimplifier`): in every column (`columnWidth` px of x) of each piece, the lowest and the
/// highest point in their order, plus the piece's first and last point and the points in
/// `keep`. A 24-hour chart of 86,400 samples becomes at most two points a pixel (~1,900 on a
/// 936 px plot), so simplifying it costs a fraction, and no peak or trough is lost: a dropped
/// point lies between the kept lowest and highest of its own column, so the drawn line passes
/// its height less than `columnWidth` px away.
///
/// x must not decrease within a piece (a chart's distance or time); NaN never reaches here (the
/// renderers split pieces where a value is missing).
public enum ColumnDecimator {
    /// The kept indices, ascending; every piece's first and last among them.
    public static func decimate(x: [Double], y: [Double], runs: [Range<Int>], columnWidth: Double = 1, keep: [Int] = []) -> [Int] {
        precondition(x.count == y.count && columnWidth > 0)
        var out: [Int] = []
        x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                for run in runs where !run.isEmpty {
                    out.append(run.lowerBound)
                    let last = run.upperBound - 1
                    var k = run.lowerBound + 1
                    while k < last {
                        // One column: k..<end.
                        let column = (xs[k] / columnWidth).rounded(.down)
                        var lo = k, hi = k
                        var end = k + 1
                        while end < last, (xs[end] / columnWidth).rounded(.down) == column {
                            if ys[end] < ys[lo] { lo = end }
                            if ys[end] > ys[hi] { hi = end }
                            end += 1
                        }
                        out.append(min(lo, hi))
                        if lo != hi { out.append(max(lo, hi)) }
                        k = end
                    }
                    if last > run.lowerBound { out.append(last) }
                }
            }
        }
        guard !keep.isEmpty else { return out }
        let inRuns = keep.filter { k in runs.contains { $0.contains(k) } }
        return Array(Set(out + inRuns)).sorted()
    }
}
