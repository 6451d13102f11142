import Glibc

/// Durable whole-file writes: temporary file in the same directory, write, fsync, rename over
/// the target, fsync the directory. A crash leaves the old file or the new one, never a mix.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws {
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let dir = slash == path.startIndex ? "." : String(path[..<slash])
        let tmp = path + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemError.last("create \(tmp)") }
        do {
            try bytes.withUnsafeBytes { raw in try writeAll(fd, raw) }
            guard fsync(fd) == 0 else { throw SystemError.last("fsync \(tmp)") }
        } catch let error as SystemError {
            close(fd); unlink(tmp)
            throw SystemError("write \(tmp)", code: error.code)
        } catch {
            close(fd); unlink(tmp)
            throw error
        }
        close(fd)
        guard rename(tmp, path) == 0 else { let e = SystemError.last("rename \(tmp)"); unlink(tmp); throw e }
        try syncDirectory(dir)
    }

    public static func syncDirectory(_ dir: String) throws {
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { throw SystemError.last("open \(dir)") }
        defer { close(dfd) }
        guard fsync(dfd) == 0 else { throw SystemError.last("fsync \(dir)") }
    }
}
