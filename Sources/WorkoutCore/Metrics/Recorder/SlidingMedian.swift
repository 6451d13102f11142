/// The time-weighted median of the steps between two points of a track, for a range of points
/// that slides forward a point at a time (`SpeedWindow`'s sustained speeds, asked at every fix).
/// The steps in the range are kept sorted by speed (ties in point order, as a stable sort puts
/// them), so moving the range costs a binary search and a short shift per step that enters or
/// leaves, not a sort of the whole window: 100 steps at 10 Hz made the sort ~40 % of live
/// ingest (BENCHMARKS.md). The answer is the one `median(of:total:)` gives for the same steps,
/// bit for bit (`SlidingMedianTests`).
struct SlidingMedian: Sendable {
    /// What point `k` adds: the step from point `k - 1` (speed, seconds), none (no time passed),
    /// or a speed that is unknown or not a number (then there is no median: `missing`).
    enum Step: Equatable {
        case step(speed: Double, seconds: Double)
        case none
        case missing
    }

    /// The held steps, sorted by (speed, point index).
    private var sorted: [(speed: Double, seconds: Double, index: Int)] = []
    /// The steps held are those of points `low + 1 ... high` (none when `low == high`).
    private var low = 0
    private var high = 0
    /// Points in the range whose step is `.missing`.
    private(set) var missing = 0

    /// Moves the range to the steps of points `i + 1 ... j` (`step(k)` says what point k adds;
    /// it must answer the same for a point as when the point entered). Incremental when the
    /// range moved forward and overlaps the one held; otherwise built again. A step leaving
    /// while another enters (the range sliding by one) is one replacement in place: a single
    /// shift of the entries between the two positions, the array's length unchanged.
    mutating func move(from i: Int, to j: Int, step: (Int) -> Step) {
        if i >= low, i <= high, j >= high {
            var leaving = low + 1, entering = high + 1
            while leaving <= i, entering <= j {
                replace(leaving, step(leaving), by: entering, step(entering))
                leaving += 1; entering += 1
            }
            while leaving <= i { remove(leaving, step(leaving)); leaving += 1 }
            while entering <= j { insert(entering, step(entering)); entering += 1 }
        } else {
            sorted.removeAll(keepingCapacity: true)
            missing = 0
            if j > i { for k in (i + 1)...j { insert(k, step(k)) } }
        }
        low = i
        high = j
    }

    /// Point indices moved down by `n` (the window dropped its first `n` points).
    /// A range that reached below the points kept is let go (built again at the next move).
    mutating func shift(by n: Int) {
        guard low >= n else {
            sorted.removeAll(keepingCapacity: true)
            missing = 0; low = 0; high = 0
            return
        }
        low -= n
        high -= n
        for k in sorted.indices { sorted[k].index -= n }
    }

    /// The speed at which the held steps, slowest first, cover half of `total` seconds (nil:
    /// they never do, or a step is missing).
    func median(total: Double) -> Double? {
        guard missing == 0 else { return nil }
        let half = total / 2
        return sorted.withUnsafeBufferPointer { held in
            var covered = 0.0
            for e in held {
                covered += e.seconds
                if covered >= half { return e.speed }
            }
            return nil
        }
    }

    /// The fastest held step.
    var fastest: Double? { sorted.last?.speed }

    /// The same answer from steps in point order, by sorting them (a stable sort): the
    /// reference the incremental one is tested against, and the answer when a speed is NaN.
    static func median(of steps: [(speed: Double, seconds: Double)], total: Double) -> Double? {
        var covered = 0.0
        for s in steps.sorted(by: { $0.speed < $1.speed }) {
            covered += s.seconds
            if covered >= total / 2 { return s.speed }
        }
        return nil
    }

    private mutating func insert(_ k: Int, _ s: Step) {
        switch s {
        case .step(let speed, let seconds): sorted.insert((speed, seconds, k), at: position(speed, k))
        case .none: break
        case .missing: missing += 1
        }
    }

    private mutating func remove(_ k: Int, _ s: Step) {
        switch s {
        case .step(let speed, _):
            let p = position(speed, k)
            if p < sorted.count, sorted[p].index == k { sorted.remove(at: p) }
        case .none: break
        case .missing: missing -= 1
        }
    }

    /// Point `gone`'s step leaves and point `new`'s enters: the same entries as `remove` then
    /// `insert`, but the entries between the two positions move one place, once, in place.
    private mutating func replace(_ gone: Int, _ old: Step, by new: Int, _ entering: Step) {
        guard case .step(let oldSpeed, _) = old, case .step(let speed, let seconds) = entering else {
            remove(gone, old)
            insert(new, entering)
            return
        }
        let p = position(oldSpeed, gone)
        guard p < sorted.count, sorted[p].index == gone else { return insert(new, entering) }
        let q = position(speed, new)  // counting the leaving entry, which is at p
        sorted.withUnsafeMutableBufferPointer { held in
            if q > p {
                // Entries p+1 ..< q move down over the leaving one; the new one goes before q.
                for m in p..<(q - 1) { held[m] = held[m + 1] }
                held[q - 1] = (speed, seconds, new)
            } else {
                // Entries q ..< p move up over the leaving one; the new one goes at q.
                var m = p
                while m > q { held[m] = held[m - 1]; m -= 1 }
                held[q] = (speed, seconds, new)
            }
        }
    }

    /// Where (speed, k) goes in `sorted`: the first entry not before it.
    private func position(_ speed: Double, _ k: Int) -> Int {
        sorted.withUnsafeBufferPointer { held in
            var lo = 0, hi = held.count
            while lo < hi {
                let mid = (lo + hi) &>> 1
                let e = held[mid]
                if e.speed < speed || (e.speed == speed && e.index < k) { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
    }
}
