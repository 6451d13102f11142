/// One record of the history index, `index.jsonl`: `{"put": SUMMARY}` (a workout saved or
/// edited; its splits and laps are left out, the workout file has them) or `{"del": ID}`.
/// Each line stands alone; a damaged line is skipped, never fatal (a crash can tear the last).
public enum IndexRecord: Sendable, Equatable {
    case put(WorkoutSummary)
    case del(WorkoutID)

    /// The record's line, newline included. A `put` keeps the summary without splits and laps.
    public var line: String {
        switch self {
        case .put(let s):
            var compact = s
            compact.splits = []
            compact.laps = []
            return JSON.object(JSONObject([("put", compact.json())])).serialized() + "\n"
        case .del(let id):
            return JSON.object(JSONObject([("del", .string(id.rawValue))])).serialized() + "\n"
        }
    }

    /// The records of the complete lines in `slice`, in order (a torn last line without its
    /// newline is not one; a line that is not a record is skipped).
    public static func parse(_ slice: ArraySlice<UInt8>) -> [IndexRecord] {
        var records: [IndexRecord] = []
        var lines = LineFramer(maxLine: 1 << 20)
        slice.withUnsafeBytes { raw in
            lines.feed(raw) { item in
                guard case .line(let line) = item, let j = try? JSON.parse(line) else { return }
                if let put = j["put"], let s = WorkoutSummary(json: put) { records.append(.put(s)) }
                if let del = j["del"]?.stringValue, let id = WorkoutID(rawValue: del) { records.append(.del(id)) }
            }
        }
        return records
    }

    /// `count` consecutive ranges covering `bytes`, each but the last ending just after a
    /// newline: pieces that parse on their own to what the whole parses to, in order.
    public static func pieces(of bytes: [UInt8], count: Int) -> [Range<Int>] {
        var cuts: [Range<Int>] = []
        var start = 0
        for k in 1..<max(1, count) {
            var end = max(start, bytes.count * k / count)
            while end < bytes.count && (end == 0 || bytes[end - 1] != 10) { end += 1 }  // just after a newline
            if end > start { cuts.append(start..<end); start = end }
        }
        if start < bytes.count || cuts.isEmpty { cuts.append(start..<bytes.count) }
        return cuts
    }
}
