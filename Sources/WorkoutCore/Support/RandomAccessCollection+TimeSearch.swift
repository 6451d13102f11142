extension RandomAccessCollection where Index == Int {
    /// In elements sorted by `time`: the index of the first one later than `t` (binary search),
    /// which is also how many lie at or before `t`. The element in effect at `t` is the one
    /// before it, if any.
    func endOfTimes(atOrBefore t: Double, time: (Element) -> Double) -> Int {
        var lo = startIndex, hi = endIndex
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if time(self[mid]) <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
