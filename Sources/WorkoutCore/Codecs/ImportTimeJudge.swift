/// Judges an imported track's timestamps as the live receiver clock judges a receiver's
/// (`ReceiverClock`): a time out of sequence with the fixes around it is an outlier unless
/// enough fixes in a row agree with it. A file has no arrival times, so the sequence is read
/// from the file itself:
///
/// - consecutive times are *in sequence* when the second is at most `slack` seconds before the
///   first and at most a step after it: 10 times the file's median step (to a quarter of an octave),
///   at least `minStep` (a 1 Hz file: 60 s), at most `maxGap`;
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
/// - without a trusted run nothing is judged, unless there are at least `alone` times: then no
///   three of them agree, and every one is an outlier (records at random times: the file has no
///   consistent run, issue 45 item 7); non-finite times are left to the fix filter.
public struct ImportTimeJudge: Sendable {
    public var slack = 3.0
    public var minStep = 60.0
    public var maxGap = 24 * 3600.0
    public var confirmations = 3
    /// How many times without a trusted run are all outliers.
    public var alone = 10

    public init() {}

    /// A run of times in sequence: its first and last time, its length, and (while shorter than
    /// `confirmations`) its positions.
    private struct Run: Sendable {
        var first: Double
        var last: Double
        var count = 1
        var positions: [Int]
    }

    /// Whether each time (in recording order) is an outlier.
    public func outliers(_ times: [Double]) -> [Bool] {
        var out = [Bool](repeating: false, count: times.count)
        for i in outlierPositions(times, maxStep: maxStep(times)) { out[i] = true }
        return out
    }

    /// The positions (in `times`, in order) of the outliers, `maxStep` being the largest step in
    /// sequence (`maxStep(_:)`). One pass; memory for the short runs waiting to be judged only.
    public func outlierPositions(_ times: some Sequence<Double>, maxStep: Double) -> [Int] {
        var scan = OutlierScan(self, maxStep: maxStep)
        for (i, t) in times.enumerated() { scan.add(t, at: i) }
        return scan.finish()
    }

    /// `outlierPositions(_:maxStep:)` fed one time at a time, each with its position (any
    /// increasing numbers: a file's record indices), so that several sequences are judged in
    /// one pass over a file's records.
    public struct OutlierScan: Sendable {
        private let judge: ImportTimeJudge
        private let maxStep: Double
        private var marked: [Int] = []
        private var finite = 0
        private var previous: Run?  // the last trusted run
        private var group: [Run] = []  // short runs since it
        private var run: Run?

        public init(_ judge: ImportTimeJudge, maxStep: Double) {
            self.judge = judge
            self.maxStep = maxStep
        }

        private func inSequence(_ a: Double, _ b: Double) -> Bool { b >= a - judge.slack && b <= a + maxStep }
        private func plausibleGap(_ a: Double, _ b: Double) -> Bool { b >= a - judge.slack && b <= a + judge.maxGap }

        /// The next time, at `position`.
        public mutating func add(_ t: Double, at position: Int) {
            guard t.isFinite else { return }
            finite += 1
            if run != nil, inSequence(run!.last, t) {
                run!.last = t
                run!.count += 1
                if run!.count < judge.confirmations { run!.positions.append(position) } else if run!.count == judge.confirmations {
                    run!.positions = []
                    resolve(next: run!)  // a run just trusted: the short runs before it are judged
                }
                return
            }
            if let r = run {
                if r.count >= judge.confirmations { previous = r } else { group.append(r) }
            }
            run = Run(first: t, last: t, positions: [position])
        }

        /// The positions of the outliers, in order.
        public mutating func finish() -> [Int] {
            if let r = run {
                if r.count >= judge.confirmations { previous = r } else { group.append(r) }
                run = nil
            }
            if previous != nil { resolve(next: nil) } else if finite >= judge.alone { marked = group.flatMap(\.positions) }
            return marked.sorted()
        }

        /// Judges the short runs waiting between `previous` and `next` (nil: the end).
        private mutating func resolve(next: Run?) {
            defer { group.removeAll() }
            guard !group.isEmpty else { return }
            if let p = previous {
                // Forward from the trusted run before: keep what follows on, the rest are candidates.
                var last = p.last
                var candidates: [Run] = []
                for r in group {
                    let follows = next == nil ? plausibleGap(last, r.first) : inSequence(last, r.first)
                    if follows { last = r.last } else { candidates.append(r) }
                }
                if let n = next, !inSequence(last, n.first) { return }
                for r in candidates { marked += r.positions }
            } else if let n = next {
                // Backward from the first trusted run.
                var first = n.first
                var before: [Int] = []
                for r in group.reversed() {
                    if plausibleGap(r.last, first) { first = r.first } else { before += r.positions }
                }
                marked += before
            }
        }
    }

    /// The largest step in sequence: 10 times the median positive step, at least `minStep`, at
    /// most `maxGap`. The
    /// median is read from a histogram of the steps in quarters of an octave (within 25 %; no
    /// copy of the times).
    public func maxStep(_ times: some Sequence<Double>) -> Double {
        var steps = Steps()
        for t in times { steps.add(t) }
        return steps.maxStep(self)
    }

    /// `maxStep(_:)` fed one time at a time: the histogram of the positive steps.
    public struct Steps: Sendable {
        private var buckets = [Int](repeating: 0, count: 256)
        private var count = 0
        private var last: Double?

        public init() {}

        public mutating func add(_ t: Double) {
            guard t.isFinite else { return }
            if let l = last, t > l {
                // The step's octave (its binary exponent, from 2^-32 s up) in quarters, read
                // from its bits (exponent, then the significand's first two bits); a subnormal
                // or infinite step falls in the first or the last bucket.
                let bits = (t - l).bitPattern
                let k = (Int((bits >> 52) & 0x7FF) - 1023 + 32) * 4 + Int((bits >> 50) & 3)
                buckets[min(max(k, 0), 255)] += 1
                count += 1
            }
            last = t
        }

        /// `judge.maxStep` of the times added.
        public func maxStep(_ judge: ImportTimeJudge) -> Double {
            guard count > 0 else { return judge.minStep }
            var seen = 0
            for (k, n) in buckets.enumerated() {
                seen += n
                if seen * 2 >= count {
                    // The bucket's upper edge.
                    let octave = Double(sign: .plus, exponent: k / 4 - 32, significand: 1)
                    // Never more than `maxGap`: times scattered over years (records at random times)
                    // have a median step of years, and every forward step would be in sequence.
                    return min(judge.maxGap, max(judge.minStep, 10 * octave * (1 + Double(k % 4 + 1) / 4)))
                }
            }
            return judge.minStep
        }
    }

    /// The refusal of a file none of whose times agree with each other.
    public static let noConsistentRun = "its records' times are out of sequence with each other (no three in a row agree): nothing to import"

    /// The warning for the outlier times found (their times as stamped).
    public static func warning(_ times: [Double]) -> String {
        let shown = times.prefix(3).map { t in t.isFinite && abs(t) < 1e11 ? ISO8601.format(t) : String(t) }.joined(separator: ", ")
        let more = times.count > 3 ? " and \(times.count - 3) more" : ""
        let n = times.count
        return "\(n) record\(n == 1 ? "" : "s") stamped far out of sequence with the records around \(n == 1 ? "it" : "them") (\(shown)\(more)): "
            + "kept as time_outlier, not counted"
    }
}
