import Glibc

/// Durable whole-file writes: temporary file in the same directory, write, fsync, rename over
/// the target, fsync the directory. A crash leaves the old file or the new one, never a mix.
/// The daemon's saves and workoutctl's `export --output` both write through this.
public enum AtomicFile {
    /// `beforeRename` runs once the temporary file is complete and synced, just before the rename
    /// (a test holds a save there to kill the daemon mid-save).
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600, beforeRename: () -> Void = {}) throws(SystemError) {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw SystemError("\(path) is a directory, not a file name", code: EISDIR) }
        let tmp = path + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw SystemError.last("create \(tmp)") }
        var failure: SystemError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemError) { try writeAll(fd, raw) } catch { failure = SystemError("write \(tmp)", code: error.code) }
        }
        if failure == nil, fsync(fd) != 0 { failure = SystemError.last("fsync \(tmp)") }
        if let failure { close(fd); unlink(tmp); throw failure }
        guard close(fd) == 0 else { let e = SystemError.last("close \(tmp)"); unlink(tmp); throw e }
        beforeRename()
        guard rename(tmp, path) == 0 else { let e = SystemError.last("rename \(tmp) to \(path)"); unlink(tmp); throw e }
        try syncDirectory(dir)
    }

    public static func write(_ text: String, to path: String, mode: mode_t = 0o600) throws(SystemError) {
        try write(Array(text.utf8), to: path, mode: mode)
    }

    public static func syncDirectory(_ dir: String) throws(SystemError) {
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { throw SystemError.last("open \(dir)") }
        defer { close(dfd) }
        guard fsync(dfd) == 0 else { throw SystemError.last("fsync \(dir)") }
    }
}
