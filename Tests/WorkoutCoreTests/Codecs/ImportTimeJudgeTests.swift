import Testing
@testable import WorkoutCore

/// The time judge fed one time at a time (`ImportTimeJudge.Steps`, `OutlierScan`: the FIT
/// import judges every track and kind in one pass) judges as the whole sequence is judged.
@Suite struct ImportTimeJudgeTests {
    let judge = ImportTimeJudge()

    /// The largest step in sequence from the steps' histogram: 10 times the upper edge of the
    /// median step's quarter octave, at least `minStep`, at most `maxGap`, whatever the step.
    @Test func theLargestStepFollowsTheMedianStep() {
        func times(step: Double, count: Int = 50) -> [Double] { (0..<count).map { 1_000_000_000 + Double($0) * step } }
        #expect(judge.maxStep(times(step: 1)) == judge.minStep)  // 1 Hz: 10 x 1.25 s < 60 s
        // 10 s is 2^3 x 1.25: the quarter [1.25, 1.5) of its octave, upper edge 12 s.
        #expect(judge.maxStep(times(step: 10)) == 120)
        // 7 s is 2^2 x 1.75: the last quarter, upper edge 8 s.
        #expect(judge.maxStep(times(step: 7)) == 80)
        #expect(judge.maxStep(times(step: 100_000)) == judge.maxGap)
        #expect(judge.maxStep([5, 4, 3]) == judge.minStep)  // no step forward
        // Every step in its bucket as `exponent` and `significand` place it.
        for step in [0.001, 0.3, 0.5, 0.75, 1, 1.2, 3, 6, 6.1, 47, 500, 3_000] {
            let k = (Int(step.exponent) + 32) * 4 + Int(((step.significand - 1) * 4).rounded(.down))
            let edge = Double(sign: .plus, exponent: k / 4 - 32, significand: 1) * (1 + Double(k % 4 + 1) / 4)
            #expect(judge.maxStep(times(step: step)) == min(judge.maxGap, max(judge.minStep, 10 * edge)), "step \(step)")
        }
    }

    /// Fed with each time's own position (a record index), the scan marks the positions the
    /// sequence form marks at its indices.
    @Test func aScanFedWithPositionsMarksWhatTheSequenceMarks() {
        var times = (0..<40).map { 1_000_000_000 + Double($0) }
        times[7] = 0            // the FIT epoch
        times[20] = 1e10        // far ahead
        times[21] = 1e10 + 1    // and its neighbour agreeing with it
        times[30] = .nan        // left to the fix filter
        let maxStep = judge.maxStep(times)
        let positions = judge.outlierPositions(times, maxStep: maxStep)
        #expect(positions == [7, 20, 21])
        var scan = ImportTimeJudge.OutlierScan(judge, maxStep: maxStep)
        for (i, t) in times.enumerated() { scan.add(t, at: 3 * i + 5) }
        #expect(scan.finish() == positions.map { 3 * $0 + 5 })
        var steps = ImportTimeJudge.Steps()
        for t in times { steps.add(t) }
        #expect(steps.maxStep(judge) == maxStep)
    }
}
