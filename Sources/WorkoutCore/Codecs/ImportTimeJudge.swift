/// Judges an imported track's timestamps as the live receiver clock judges a receiver's
/// (`ReceiverClock`): a time out of sequence with the fixes around it is an outlier unless
/// enough fixes in a row agree with it. A file has no arrival times, so the sequence is read
/// from the file itself:
///
/// - consecutive times are *in sequence* when the second is at most `slack` seconds before the
///   first and at most a step after it: 10 times the file's median step, at least `minStep`
///   (a 1 Hz file: 60 s);
/// - the track is cut into maximal runs of times in sequence; a run of `confirmations` (3) or
///   more is trusted, as live trusts a step after 3 agreeing fixes (a device's pause, a real
///   clock step);
/// - the shorter runs between two trusted runs are taken in order from the first trusted run:
///   one in sequence with the last time kept is kept, one that is not is a candidate; the
///   candidates are outliers when what was kept is in sequence with the next trusted run (the
///   short runs broke a sequence that goes on: one record stamped 0, the FIT epoch, or 10^8 s
///   ahead, an hour back); before the first trusted run and after the last, a short run is an
///   outlier when the step to what is kept next to it is backwards or longer than `maxGap`
///   (a day);
/// - without a trusted run nothing is judged; non-finite times are left to the fix filter.
public struct ImportTimeJudge: Sendable {
    public var slack = 3.0
    public var minStep = 60.0
    public var maxGap = 24 * 3600.0
    public var confirmations = 3

    public init() {}

    private typealias Run = (first: Int, last: Int, count: Int)

    /// Whether each time (in recording order) is an outlier.
    public func outliers(_ times: [Double]) -> [Bool] {
        var out = [Bool](repeating: false, count: times.count)
        let maxStep = self.maxStep(times)
        func inSequence(_ a: Double, _ b: Double) -> Bool { b >= a - slack && b <= a + maxStep }
        func plausibleGap(_ a: Double, _ b: Double) -> Bool { b >= a - slack && b <= a + maxGap }
        var runs: [Run] = []
        for (i, t) in times.enumerated() where t.isFinite {
            if let r = runs.last, inSequence(times[r.last], t) {
                runs[runs.count - 1] = (r.first, i, r.count + 1)
            } else {
                runs.append((i, i, 1))
            }
        }
        guard runs.contains(where: { $0.count >= confirmations }) else { return out }
        func mark(_ r: Run) {
            for i in r.first...r.last where times[i].isFinite { out[i] = true }
        }
        var k = 0
        var previous: Run?  // the last trusted run
        while k < runs.count {
            guard runs[k].count < confirmations else { previous = runs[k]; k += 1; continue }
            var j = k
            while j < runs.count, runs[j].count < confirmations { j += 1 }
            let group = Array(runs[k..<j])
            let next = j < runs.count ? runs[j] : nil
            if let p = previous {
                // Forward from the trusted run before: keep what follows on, the rest are candidates.
                var last = times[p.last]
                var candidates: [Run] = []
                for r in group {
                    let follows = next == nil ? plausibleGap(last, times[r.first]) : inSequence(last, times[r.first])
                    if follows { last = times[r.last] } else { candidates.append(r) }
                }
                if let n = next {
                    if inSequence(last, times[n.first]) { candidates.forEach(mark) }
                } else {
                    candidates.forEach(mark)
                }
            } else if let n = next {
                // Backward from the first trusted run.
                var first = times[n.first]
                for r in group.reversed() {
                    if plausibleGap(times[r.last], first) { first = times[r.first] } else { mark(r) }
                }
            }
            k = j
        }
        return out
    }

    /// The largest step in sequence: 10 times the median positive step, at least `minStep`.
    func maxStep(_ times: [Double]) -> Double {
        var steps: [Double] = []
        steps.reserveCapacity(times.count)
        var last: Double?
        for t in times where t.isFinite {
            if let l = last, t > l { steps.append(t - l) }
            last = t
        }
        guard !steps.isEmpty else { return minStep }
        let k = steps.count / 2
        var a = steps
        // The median by selection (quickselect), not a full sort.
        var lo = 0, hi = a.count - 1
        while lo < hi {
            let pivot = a[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while a[i] < pivot { i += 1 }
                while a[j] > pivot { j -= 1 }
                if i <= j { a.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return max(minStep, 10 * a[k])
    }

    /// The warning for the outlier times found (their times as stamped).
    public static func warning(_ times: [Double]) -> String {
        let shown = times.prefix(3).map { t in t.isFinite && abs(t) < 1e11 ? ISO8601.format(t) : String(t) }.joined(separator: ", ")
        let more = times.count > 3 ? " and \(times.count - 3) more" : ""
        let n = times.count
        return "\(n) record\(n == 1 ? "" : "s") stamped far out of sequence with the records around \(n == 1 ? "it" : "them") (\(shown)\(more)): "
            + "kept as time_outlier, not counted"
    }
}
