import Glibc
import Synchronization
@_exported import WorkoutSystem

/// Unix stream sockets for the control and feed sockets: a private directory (0700, ours, not
/// a symlink: `PrivateDirectory.prepare`), a socket file 0600, peer credentials checked on
/// every connection.
public enum UnixSocket {
    private static let umaskLock = Mutex(())
    /// Binds and listens on `path` (mode 0600). A stale socket file left by a crash is replaced;
    /// a live one (another daemon answering) is an error.
    public static func listen(path: String, backlog: Int32 = 128) throws -> Int32 {
        let dir = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !dir.isEmpty { try PrivateDirectory.prepare(dir) }
        var st = stat()
        if lstat(path, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFSOCK else { throw SystemError("\(path) exists and is not a socket", code: EEXIST) }
            if let fd = try? connect(path: path) {
                close(fd)
                throw SystemError("another workoutd is already serving \(path)", code: EADDRINUSE)
            }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError.last("socket") }
        let addr: SocketAddress
        do { addr = try SocketAddress(path: path) } catch { close(fd); throw error }
        // The umask is the process's: two binds at once (daemons embedded in one test process)
        // must not interleave their set and restore, or the 0177 would outlive both.
        let rc = umaskLock.withLock { _ in
            let old = umask(0o177)
            defer { umask(old) }
            return addr.bind(fd)
        }
        guard rc == 0 else { let e = SystemError.last("bind \(path)"); close(fd); throw e }
        _ = chmod(path, 0o600)
        guard Glibc.listen(fd, backlog) == 0 else { let e = SystemError.last("listen \(path)"); close(fd); throw e }
        setNonBlockingCloExec(fd)
        return fd
    }

    /// Connects (blocking) to a Unix stream socket.
    public static func connect(path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError.last("socket") }
        let addr: SocketAddress
        do { addr = try SocketAddress(path: path) } catch { close(fd); throw error }
        let rc = addr.connect(fd)
        guard rc == 0 else { let e = SystemError.last("connect \(path)"); close(fd); throw e }
        return fd
    }

    /// The uid of the process at the other end (SO_PEERCRED), or nil.
    public static func peerUID(_ fd: Int32) -> uid_t? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (Glibc hides it behind _GNU_SOURCE)
        var cred: (Int32, UInt32, UInt32) = (0, 0, 0)
        var len = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0, len >= 12 else { return nil }
        return cred.1
    }

    /// Only the daemon's own user and root may use its sockets.
    public static func peerIsAllowed(_ fd: Int32) -> Bool {
        guard let uid = peerUID(fd) else { return false }
        return uid == getuid() || uid == 0
    }
}
