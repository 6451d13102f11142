import Glibc
import WorkoutSystem

/// Where the daemon's sockets live: `$XDG_RUNTIME_DIR/workoutd/` when XDG_RUNTIME_DIR is set to
/// an absolute path (the XDG spec says to ignore relative ones), else `/tmp/workoutd-$UID/`.
public struct SocketPaths: Sendable, Equatable {
    public var directory: String
    /// Whether the directory is the `/tmp` fallback, which anyone could have created first: its
    /// owner and the socket's are then checked before connecting (`trustProblem`).
    public var checksOwner: Bool

    public init(directory: String, checksOwner: Bool = false) { self.directory = directory; self.checksOwner = checksOwner }

    /// Paths for the given environment lookup and uid (injectable for tests).
    public init(environment: (String) -> String?, uid: UInt32) {
        directory = RuntimeDirectory.path(xdgRuntimeDir: environment("XDG_RUNTIME_DIR"), uid: uid)
        checksOwner = directory == RuntimeDirectory.fallback(uid: uid)
    }

    /// The paths of this process's environment.
    public static func current() -> SocketPaths {
        SocketPaths(environment: Environment.get, uid: getuid())
    }

    /// Why the socket at `path` must not be trusted, when it is one of ours in the `/tmp`
    /// fallback directory: the directory must be a real directory (lstat, no symlink) of this
    /// user that nobody else may write, the socket a socket of this user. Another user who made
    /// `/tmp/workoutd-$UID` first could otherwise answer `status` or feed `export --output`.
    /// A missing directory or socket is no problem here (connecting then says not running).
    public func trustProblem(_ path: String, uid: uid_t = getuid()) -> String? {
        guard checksOwner, path == control || path == feed else { return nil }
        var st = stat()
        if lstat(directory, &st) != 0 { return nil }
        if let p = PrivateDirectory.problem(directory, uid: uid) { return p.operation }
        if st.st_mode & 0o022 != 0 { return "\(directory) is writable by other users (mode \(String(st.st_mode & 0o777, radix: 8)))" }
        if lstat(path, &st) != 0 { return nil }
        if (st.st_mode & S_IFMT) != S_IFSOCK { return "\(path) is \(fileKind(st.st_mode)), not a socket" }
        if st.st_uid != uid { return "\(path) is owned by uid \(st.st_uid), not by you (uid \(uid))" }
        return nil
    }

    public var control: String { directory + "/control.sock" }
    public var feed: String { directory + "/feed.sock" }
}

/// Reads environment variables without Foundation.
public enum Environment {
    public static func get(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        return String(cString: p)
    }
}
