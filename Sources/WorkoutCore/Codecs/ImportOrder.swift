/// The order an imported track's fixes are recorded in: file order within each file segment (a
/// GPX `trkseg`, a TCX `Track`), the segments by their first times. Times that run backwards
/// are not reordered (sorting would draw a path nobody travelled): the recorder counts a fix
/// stamped before one already recorded as `out_of_order`, and `backwardsWarning` says so.
struct ImportOrder {
    /// Indices into the track's fixes, in recording order.
    let indices: [Int]
    /// Places where a fix's time is earlier than the previous fix's, in file order.
    let backwardSteps: Int
    /// The first of them: its time and its file segment (1-based).
    let firstBackward: (time: Double, segment: Int)?
    /// File segments (1-based) that start before the end of the segment before them in the file.
    let segmentsStartingEarlier: [Int]

    /// `outliers`: fixes whose time is not to be believed (`ImportTimeJudge`): they keep their
    /// place in the file order but neither order segments nor count as times running backwards.
    init(_ track: Importer.Track, outliers: [Bool] = []) {
        let fixes = track.fixes, segs = track.segments
        let trusted = { (i: Int) in outliers.isEmpty || !outliers[i] }
        // Runs of consecutive fixes with the same file segment.
        var runs: [Range<Int>] = []
        var runStart = 0
        for i in fixes.indices where i > 0 && segs[i] != segs[i - 1] {
            runs.append(runStart..<i)
            runStart = i
        }
        if !fixes.isEmpty { runs.append(runStart..<fixes.count) }
        var steps = 0
        var first: (time: Double, segment: Int)?
        for (k, r) in runs.enumerated() {
            var previous: Double?
            for i in r where trusted(i) {
                if let p = previous, fixes[i].time < p {
                    steps += 1
                    if first == nil { first = (fixes[i].time, k + 1) }
                }
                previous = fixes[i].time
            }
        }
        // A run's first and last trusted times (nil: none).
        func firstTime(_ r: Range<Int>) -> Double? { r.first(where: trusted).map { fixes[$0].time } }
        func lastTime(_ r: Range<Int>) -> Double? { r.last(where: trusted).map { fixes[$0].time } }
        var earlier: [Int] = []
        for k in runs.indices.dropFirst() {
            if let a = firstTime(runs[k]), let b = lastTime(runs[k - 1]), a < b { earlier.append(k + 1) }
        }
        segmentsStartingEarlier = earlier
        if runs.count > 1 {
            // Stable: segments with the same first time keep their file order.
            let key = runs.map { firstTime($0) ?? .infinity }
            runs = runs.enumerated().sorted { (key[$0.offset], $0.offset) < (key[$1.offset], $1.offset) }.map(\.element)
        }
        indices = runs.flatMap { Array($0) }
        backwardSteps = steps
        firstBackward = first
    }

    /// The warning for times running backwards, or nil when they never do.
    func backwardsWarning(outOfOrder: Int) -> String? {
        ImportOrder.backwardsWarning(steps: backwardSteps, first: firstBackward, segmentsStartingEarlier: segmentsStartingEarlier,
                                     outOfOrder: outOfOrder)
    }

    /// The warning for `steps` times running backwards inside segments (the first at `first`),
    /// segments starting before the one before them ends, and the fixes not counted for it.
    static func backwardsWarning(steps: Int, first: (time: Double, segment: Int)?, segmentsStartingEarlier: [Int],
                                 outOfOrder: Int) -> String? {
        var parts: [String] = []
        if let first {
            let times = steps == 1 ? "once" : "\(steps) times"
            parts.append("times run backwards \(times) inside a segment (first in segment \(first.segment), at \(ISO8601.format(first.time))): kept in file order")
        }
        if let k = segmentsStartingEarlier.first {
            let more = segmentsStartingEarlier.count > 1 ? " (and \(segmentsStartingEarlier.count - 1) more)" : ""
            parts.append("segment \(k)\(more) starts before the segment before it ends: segments taken in the order of their start times")
        }
        guard !parts.isEmpty else { return nil }
        let lost = outOfOrder > 0 ? "; \(outOfOrder) fix\(outOfOrder == 1 ? "" : "es") stamped before an earlier one not counted (out_of_order)" : ""
        return parts.joined(separator: "; ") + lost
    }
}
