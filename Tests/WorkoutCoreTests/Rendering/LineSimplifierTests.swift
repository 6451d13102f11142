import Testing
@testable import WorkoutCore

@Suite struct LineSimplifierTests {
    /// The reported error is the true largest distance of a dropped point from the drawn line,
    /// the budget holds, ends and the kept extremes stay.
    @Test(arguments: 1...20) func errorIsExactAndBudgetHolds(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let n = Int.random(in: 3...5000, using: &rng)
        let x = (0..<n).map { Double($0) * 0.3 }
        var v = 0.0
        let y = (0..<n).map { _ -> Double in v += Double.random(in: -1...1, using: &rng); return v }
        let lo = y.indices.min { y[$0] < y[$1] }!, hi = y.indices.max { y[$0] < y[$1] }!
        let budget = Int.random(in: 4...400, using: &rng)
        let r = LineSimplifier.simplify(x: x, y: y, runs: [0..<n], maxVertices: budget, tolerance: 0.1, metric: .vertical, keep: [lo, hi])
        expectLessOrEqual(r.indices.count, max(budget, 4))
        #expect(r.indices.first == 0 && r.indices.last == n - 1)
        #expect(r.indices.contains(lo) && r.indices.contains(hi))
        #expect(r.indices == r.indices.sorted() && Set(r.indices).count == r.indices.count)
        var worst = 0.0
        for (a, b) in zip(r.indices, r.indices.dropFirst()) where b - a > 1 {
            for k in (a + 1)..<b {
                let yy = y[a] + (y[b] - y[a]) * (x[k] - x[a]) / (x[b] - x[a])
                worst = max(worst, abs(y[k] - yy))
            }
        }
        expectLess(abs(worst - r.maxError), 1e-9, "reported \(r.maxError), measured \(worst)")
        if r.indices.count < budget { expectLessOrEqual(r.maxError, 0.1) }
    }

    @Test func aStraightLineKeepsItsEnds() {
        let x = (0..<1000).map(Double.init), y = x.map { 2 * $0 + 1 }
        let r = LineSimplifier.simplify(x: x, y: y, runs: [0..<1000], maxVertices: 2000, tolerance: 0.25, metric: .perpendicular)
        expectEqual(r.indices, [0, 999])
        expectLess(r.maxError, 1e-9)
    }

    @Test func runsKeepTheirEnds() {
        let x = (0..<30).map(Double.init), y = x.map { $0.truncatingRemainder(dividingBy: 7) }
        let r = LineSimplifier.simplify(x: x, y: y, runs: [0..<10, 10..<11, 12..<30], maxVertices: 2, tolerance: 0, metric: .vertical)
        for k in [0, 9, 10, 12, 29] { #expect(r.indices.contains(k)) }
        #expect(!r.indices.contains(11))
    }

    @Test func perpendicularErrorOfASpike() {
        let x: [Double] = [0, 5, 10], y: [Double] = [0, 3, 0]
        let r = LineSimplifier.simplify(x: x, y: y, runs: [0..<3], maxVertices: 2, tolerance: 0, metric: .perpendicular)
        expectEqual(r.indices, [0, 2])
        expectLess(abs(r.maxError - 3), 1e-12)
    }
}
