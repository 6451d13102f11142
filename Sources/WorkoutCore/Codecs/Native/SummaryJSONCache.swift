/// The encoded JSON of a summary's splits and laps, kept from one `status` reply to the next
/// (`WorkoutSummary.writeJSON(to:cache:)`). A closed split or lap never changes, so each is
/// encoded once and later replies copy its bytes: a 24-hour workout has hundreds of splits.
///
/// Every use compares the kept entries with the summary's own, by value, and re-encodes from the
/// first difference: a cache handed another workout, or a list that shrank or changed, never
/// yields stale bytes; at worst it encodes again. Pure value, owned by whoever sends the replies.
public struct SummaryJSONCache: Sendable {
    var splits = EncodedLapList()
    var laps = EncodedLapList()

    public init() {}

    /// Splits and laps whose bytes are kept now (for tests and diagnostics).
    public var encodedCounts: (splits: Int, laps: Int) { (splits.entries.count, laps.entries.count) }
}

/// One list of laps or splits with its entries' JSON objects, joined by commas.
struct EncodedLapList: Sendable {
    private(set) var entries: [LapSummary] = []
    /// The entries' objects joined by commas, without the brackets.
    private var encoded = JSONWriter(capacity: 0)
    /// `encoded.bytes.count` after each entry.
    private var ends: [Int] = []

    /// Writes `list` as a JSON array, encoding only the entries not already kept.
    mutating func write(_ list: [LapSummary], to w: inout JSONWriter) {
        var same = 0
        let common = min(entries.count, list.count)
        while same < common && entries[same] == list[same] { same += 1 }
        if same < entries.count {
            encoded.bytes.removeSubrange((same == 0 ? 0 : ends[same - 1])...)
            entries.removeSubrange(same...)
            ends.removeSubrange(same...)
        }
        for k in same..<list.count {
            if k > 0 { encoded.raw(",") }
            list[k].writeJSON(to: &encoded)
            entries.append(list[k])
            ends.append(encoded.bytes.count)
        }
        w.raw("[")
        w.raw(encoded.bytes)
        w.raw("]")
    }
}
