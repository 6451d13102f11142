import Glibc
import WorkoutSystem

/// Where the daemon's sockets live: `$XDG_RUNTIME_DIR/workoutd/` when XDG_RUNTIME_DIR is set to
/// an absolute path (the XDG spec says to ignore relative ones), else `/tmp/workoutd-$UID/`.
public struct SocketPaths: Sendable, Equatable {
    public var directory: String

    public init(directory: String) { self.directory = directory }

    /// Paths for the given environment lookup and uid (injectable for tests).
    public init(environment: (String) -> String?, uid: UInt32) {
        directory = RuntimeDirectory.path(xdgRuntimeDir: environment("XDG_RUNTIME_DIR"), uid: uid)
    }

    /// The paths of this process's environment.
    public static func current() -> SocketPaths {
        SocketPaths(environment: Environment.get, uid: getuid())
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
