import Dispatch
import Glibc
import WorkoutCore

/// One record of `index.jsonl`: `{"put": SUMMARY}` or `{"del": ID}`.
enum IndexRecord {
    case put(WorkoutSummary)
    case del(WorkoutID)

    /// The records of a whole index in file order; a damaged line is left out. Each line stands
    /// alone, so a large index is cut right after newlines into one piece per core (at most
    /// four), parsed on that many threads, and the pieces' records joined in order: start-up
    /// with 10,000 workouts spends nearly all its time here.
    static func parseAll(_ bytes: [UInt8], pieces wanted: Int) -> [IndexRecord] {
        let cuts = pieces(of: bytes, count: wanted)
        var parsed = [[IndexRecord]](repeating: [], count: cuts.count)
        parsed.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out  // each iteration writes its own slot
            DispatchQueue.concurrentPerform(iterations: cuts.count) { k in out[k] = parse(bytes[cuts[k]]) }
        }
        return parsed.flatMap { $0 }
    }

    /// How many threads an index of `size` bytes is worth: one below 256 KiB (~500 workouts).
    static func threads(for size: Int) -> Int {
        size < 256 << 10 ? 1 : max(1, min(4, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// `count` consecutive ranges covering `bytes`, each but the last ending just after a newline.
    static func pieces(of bytes: [UInt8], count: Int) -> [Range<Int>] {
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

    /// The records of complete lines in `slice` (a torn last line without its newline is not one).
    static func parse(_ slice: ArraySlice<UInt8>) -> [IndexRecord] {
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
}
