extension Array {
    /// The elements in the order of their keys (each computed once), sorting indices rather
    /// than moving the elements: a summary has ~50 members, a dozen of them references, and
    /// sorting 10,000 summaries themselves cost 1.4 G instructions at start-up (BENCHMARKS.md).
    func sorted<Key>(byKey key: (Element) -> Key, _ less: (Key, Key) -> Bool) -> [Element] {
        let keys = map(key)
        return indices.sorted { less(keys[$0], keys[$1]) }.map { self[$0] }
    }
}
