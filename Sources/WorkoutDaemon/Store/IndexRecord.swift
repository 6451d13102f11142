import Dispatch
import Glibc
import WorkoutCore

/// One record of `index.jsonl` (docs/storage.md, "Index"): `{"put": SUMMARY, "file": NAME,
/// "stamp": [inode, size, seconds, nanoseconds], "revision": {...}, "imported": true}` or
/// `{"del": ID, "file": NAME}`. Lines written before the history could be shared have only
/// `put` or `del`: their file is `<id>.json` and their stamp is taken from the file when the
/// index is read.
enum IndexRecord {
    case put(IndexEntry)
    case del(file: String)

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
                if let put = j["put"], let s = WorkoutSummary(json: put) {
                    let file = j["file"]?.stringValue ?? HistoryFileName.of(s.id)
                    guard file == HistoryFileName.of(s.id) || HistoryFileName(file).workoutID == s.id else { return }
                    records.append(.put(IndexEntry(summary: s, file: file, stamp: j["stamp"].flatMap(IndexRecord.stamp),
                                                   revision: j["revision"].flatMap(Revision.init(json:)), imported: j["imported"]?.boolValue ?? false)))
                }
                if let del = j["del"]?.stringValue, let id = WorkoutID(rawValue: del) {
                    records.append(.del(file: j["file"]?.stringValue ?? HistoryFileName.of(id)))
                }
            }
        }
        return records
    }
}

extension IndexRecord {
    /// `[inode, size, seconds, nanoseconds]`.
    static func stamp(_ j: JSON) -> FileStamp? {
        guard let a = j.arrayValue, a.count == 4, let ino = a[0].doubleValue, let size = a[1].intValue,
              let sec = a[2].intValue, let ns = a[3].intValue, ino >= 0, ino < 1.8e19 else { return nil }
        return FileStamp(inode: UInt64(ino), size: Int64(size), modifiedSeconds: Int64(sec), modifiedNanoseconds: Int64(ns))
    }

    /// The line of a version.
    static func line(put v: WorkoutVersion) -> String {
        var compact = v.summary
        compact.splits = []
        compact.laps = []
        var o = JSONObject([("put", compact.json()), ("file", .string(v.file)),
                            ("stamp", .array([.number(Double(v.stamp.inode)), .int(Int(v.stamp.size)),
                                              .int(Int(v.stamp.modifiedSeconds)), .int(Int(v.stamp.modifiedNanoseconds))]))])
        if let r = v.revision { o["revision"] = r.json() }
        if v.imported { o["imported"] = .bool(true) }
        return JSON.object(o).serialized() + "\n"
    }

    /// The line of a file gone.
    static func line(delete file: String, id: WorkoutID) -> String {
        JSON.object(JSONObject([("del", .string(id.rawValue)), ("file", .string(file))])).serialized() + "\n"
    }
}

/// A `put` record: a version of a workout as the index knows it. `stamp` is nil on lines
/// written before the history could be shared.
struct IndexEntry: Sendable {
    var summary: WorkoutSummary
    var file: String
    var stamp: FileStamp?
    var revision: Revision?
    var imported: Bool
}
