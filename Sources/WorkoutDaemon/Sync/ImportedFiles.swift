import Glibc
import WorkoutCore

/// The files of import folders already handled (imported, found to be a duplicate, or
/// unreadable), kept in the state directory (`imported-files.jsonl`, one line per file:
/// `{"path","size","mtime":[s,ns],"result","ids"}`) so a restart imports nothing twice. A file
/// is known by its path, size and modification time: one changed in place is new again.
struct ImportedFiles: Sendable {
    struct Key: Hashable, Sendable {
        var path: String
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64

        init(path: String, stamp: FileStamp) {
            self.path = path; size = stamp.size; modifiedSeconds = stamp.modifiedSeconds; modifiedNanoseconds = stamp.modifiedNanoseconds
        }
    }

    private(set) var keys: Set<Key> = []
    /// The last version of each path handled, its size and the workouts it made (a longer
    /// version of the same file replaces them: `ImportFolders`).
    private(set) var latest: [String: (size: Int64, ids: [String])] = [:]
    let file: String

    /// Reads the list at `file` (missing: empty; a damaged line is skipped).
    init(file: String) {
        self.file = file
        guard let bytes = try? readFile(file) else { return }
        var lines = LineFramer(maxLine: 1 << 16)
        var keys: Set<Key> = []
        var latest: [String: (size: Int64, ids: [String])] = [:]
        bytes.withUnsafeBytes { raw in
            lines.feed(raw) { item in
                guard case .line(let line) = item, let j = try? JSON.parse(line), let path = j["path"]?.stringValue,
                      let size = j["size"]?.intValue, let m = j["mtime"]?.arrayValue, m.count == 2,
                      let s = m[0].intValue, let ns = m[1].intValue else { return }
                keys.insert(Key(path: path, stamp: FileStamp(inode: 0, size: Int64(size), modifiedSeconds: Int64(s), modifiedNanoseconds: Int64(ns))))
                latest[path] = (Int64(size), (j["ids"]?.arrayValue ?? []).compactMap(\.stringValue))
            }
        }
        self.keys = keys
        self.latest = latest
    }

    func contains(_ key: Key) -> Bool { keys.contains(key) }

    /// Remembers handled files (appended and synced: a crash right after an import must not
    /// import the file again; should it, the duplicate check still saves nothing twice).
    mutating func remember(_ handled: [(key: Key, result: String, ids: [String])]) throws {
        guard !handled.isEmpty else { return }
        var text = ""
        for h in handled {
            let o = JSONObject([("path", .string(h.key.path)), ("size", .int(Int(h.key.size))),
                                ("mtime", .array([.int(Int(h.key.modifiedSeconds)), .int(Int(h.key.modifiedNanoseconds))])),
                                ("result", .string(h.result)), ("ids", .array(h.ids.map { .string($0) }))])
            text += JSON.object(o).serialized() + "\n"
            keys.insert(h.key)
            latest[h.key.path] = (h.key.size, h.ids)
        }
        let fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemError.last("open \(file)") }
        defer { close(fd) }
        try Array(text.utf8).withUnsafeBytes { raw in try writeAll(fd, raw) }
        guard fdatasync(fd) == 0 else { throw SystemError.last("fdatasync \(file)") }
    }
}
