import Glibc

/// Writes a file so that readers see the old content or the new, never a part: a temporary
/// file beside the target, fsync, rename.
public enum AtomicFile {
    public static func write(_ content: String, to path: String) throws(ConnectionError) {
        try write(Array(content.utf8), to: path)
    }

    public static func write(_ content: [UInt8], to path: String) throws(ConnectionError) {
        let slash = path.lastIndex(of: "/")
        let dir = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { throw .io("\(path) is a directory, not a file name") }
        let tmp = (dir.isEmpty ? "" : dir + "/") + "." + name + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io("cannot create \(tmp): " + errnoText(errno)) }
        var failure: String?
        content.withUnsafeBufferPointer { buf in
            var off = 0
            while off < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 { if errno == EINTR { continue }; failure = "writing \(tmp): " + errnoText(errno); return }
                off += n
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = "fsync \(tmp): " + errnoText(errno) }
        if close(fd) != 0, failure == nil { failure = "closing \(tmp): " + errnoText(errno) }
        if failure == nil, rename(tmp, path) != 0 { failure = "renaming \(tmp) to \(path): " + errnoText(errno) }
        if let failure { unlink(tmp); throw .io(failure) }
        // Make the rename durable too (best effort).
        let dfd = open(dir.isEmpty ? "/" : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { _ = fsync(dfd); close(dfd) }
    }
}
