/// One record of the history index, `index.jsonl` (docs/storage.md, "Index"): a version of a
/// workout, `{"put": SUMMARY, "file": NAME, "stamp": [inode, size, seconds, nanoseconds],
/// "revision": {...}, "imported": true}` (its splits and laps are left out, the workout file
/// has them), or a file gone, `{"del": ID, "file": NAME}`. Lines written before the history
/// could be shared have only `put` or `del`: their file is `<id>.json`, their stamp unknown.
/// Each line stands alone; a damaged line is skipped, never fatal (a crash can tear the last).
public enum IndexRecord: Sendable, Equatable {
    case put(IndexEntry)
    case del(file: String)

    /// The record's line, newline included.
    public var line: String {
        switch self {
        case .put(let e):
            var compact = e.summary
            compact.splits = []
            compact.laps = []
            compact.plan = nil  // a plan's steps are the saved file's (`show`), not the index's
            var o = JSONObject([("put", compact.json()), ("file", .string(e.file))])
            if let st = e.stamp {
                o["stamp"] = .array([.number(Double(st.inode)), .int(Int(st.size)), .int(Int(st.modifiedSeconds)), .int(Int(st.modifiedNanoseconds))])
            }
            if let r = e.revision { o["revision"] = r.json() }
            if e.imported { o["imported"] = .bool(true) }
            return JSON.object(o).serialized() + "\n"
        case .del(let file):
            let id = HistoryFileName(file).workoutID?.rawValue
            return JSON.object(JSONObject([("del", .string(id)), ("file", .string(file))])).serialized() + "\n"
        }
    }

    /// The line of a version just written or read.
    public static func line(put v: WorkoutVersion) -> String {
        IndexRecord.put(IndexEntry(summary: v.summary, file: v.file, stamp: v.stamp, revision: v.revision, imported: v.imported)).line
    }

    /// The line of a file gone.
    public static func line(delete file: String) -> String { IndexRecord.del(file: file).line }

    /// The records of the complete lines in `slice`, in order (a torn last line without its
    /// newline is not one; a line that is not a record, or whose file does not hold its
    /// workout, is skipped).
    public static func parse(_ slice: ArraySlice<UInt8>) -> [IndexRecord] {
        var records: [IndexRecord] = []
        var lines = LineFramer(maxLine: 1 << 20)
        slice.withUnsafeBytes { raw in
            lines.feed(raw) { item in
                guard case .line(let line) = item else { return }
                if let record = IndexRecord.written(line) { records.append(record) } else { records += IndexRecord.tree(line) }
            }
        }
        return records
    }

    /// The records of one line parsed as a JSON tree: any JSON object with `put` or `del`
    /// members (or both), in any order, duplicates resolved as JSON's last-wins.
    static func tree(_ line: UnsafeBufferPointer<UInt8>) -> [IndexRecord] {
        guard let j = try? JSON.parse(line) else { return [] }
        var records: [IndexRecord] = []
        if let put = j["put"], let s = WorkoutSummary(json: put) {
            guard let record = IndexRecord.putRecord(s, file: j["file"], stamp: j["stamp"], revision: j["revision"], imported: j["imported"]) else { return [] }
            records.append(record)
        }
        if let del = j["del"]?.stringValue, let id = WorkoutID(rawValue: del) {
            let file = j["file"]?.stringValue ?? HistoryFileName.of(id)
            guard HistoryFileName(file).workoutID == id else { return records }
            records.append(.del(file: file))
        }
        return records
    }

    /// A `put` line read straight from its text when its members are in the order `line`
    /// writes them (every line workoutd writes): the record the tree in `parse` gives, without
    /// building the tree. nil for any other line, which `parse` reads as a tree.
    static func written(_ line: UnsafeBufferPointer<UInt8>) -> IndexRecord? {
        var top = JSONTextMembers(text: line)
        guard let s = top.object("put", { WorkoutSummary(members: &$0) }) else { return nil }
        let file = top["file"], stamp = top["stamp"], revision = top["revision"], imported = top["imported"]
        guard top.finish(), top.atEndOfText() else { return nil }
        return putRecord(s, file: file, stamp: stamp, revision: revision, imported: imported)
    }

    /// The `put` record of a line's members; nil when its file does not hold its workout.
    private static func putRecord(_ s: WorkoutSummary, file: JSON?, stamp: JSON?, revision: JSON?, imported: JSON?) -> IndexRecord? {
        let file = file?.stringValue ?? HistoryFileName.of(s.id)
        guard file == HistoryFileName.of(s.id) || HistoryFileName(file).workoutID == s.id else { return nil }
        return .put(IndexEntry(summary: s, file: file, stamp: stamp.flatMap(IndexRecord.stamp), revision: revision.flatMap(Revision.init(json:)),
                               imported: imported?.boolValue ?? false))
    }

    /// `[inode, size, seconds, nanoseconds]`.
    static func stamp(_ j: JSON) -> FileStamp? {
        guard let a = j.arrayValue, a.count == 4, let ino = a[0].doubleValue, let size = a[1].intValue,
              let sec = a[2].intValue, let ns = a[3].intValue, ino >= 0, ino < 1.8e19 else { return nil }
        return FileStamp(inode: UInt64(ino), size: Int64(size), modifiedSeconds: Int64(sec), modifiedNanoseconds: Int64(ns))
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

/// A `put` record: a version of a workout as the index knows it. `stamp` is nil on lines
/// written before the history could be shared.
public struct IndexEntry: Sendable, Equatable {
    public var summary: WorkoutSummary
    public var file: String
    public var stamp: FileStamp?
    public var revision: Revision?
    public var imported: Bool

    public init(summary: WorkoutSummary, file: String, stamp: FileStamp? = nil, revision: Revision? = nil, imported: Bool = false) {
        self.summary = summary; self.file = file; self.stamp = stamp; self.revision = revision; self.imported = imported
    }
}
