import Glibc

/// The one rule for directories a user's data passes through (the runtime directory holding
/// the sockets, the data and state directories): a real directory (lstat: not a symlink), owned
/// by the user. The daemon creates and tightens it; workoutctl only checks it before trusting a
/// socket in it, so another user who made `/tmp/workoutd-$UID` first is refused, not obeyed.
public enum PrivateDirectory {
    /// What is wrong with `path` as a private directory of `uid` (nil: nothing).
    public static func problem(_ path: String, uid: uid_t = getuid()) -> SystemError? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return SystemError.last("lstat \(path)") }
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            return SystemError("\(path) is not a directory (a symlink or file is refused)", code: ENOTDIR)
        }
        guard st.st_uid == uid else {
            return SystemError("\(path) is owned by uid \(st.st_uid), not by us (uid \(uid))", code: EPERM)
        }
        return nil
    }

    /// Creates (parents first, 0700) or checks the directory; a group/other mode is tightened to
    /// 0700. Anything else wrong (a symlink, another owner) is refused rather than "fixed".
    public static func prepare(_ path: String) throws(SystemError) {
        var st = stat()
        if lstat(path, &st) != 0 {
            guard errno == ENOENT else { throw SystemError.last("lstat \(path)") }
            let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            if !parent.isEmpty, access(parent, F_OK) != 0 { try makeDirectories(parent) }
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw SystemError.last("mkdir \(path)") }
        }
        if let p = problem(path) { throw p }
        guard lstat(path, &st) == 0 else { throw SystemError.last("lstat \(path)") }
        if st.st_mode & 0o077 != 0 { _ = chmod(path, 0o700) }
    }
}

extension PrivateDirectory {
    /// The rule for the data and state directories (`…/workoutd`): created 0700 when missing;
    /// an existing one must be a directory owned by us that no other user may write. A symlink
    /// is followed only when the link and the directory it leads to are both ours, so a root
    /// daemon never writes into another user's directory through a link planted there.
    public static func prepareOwned(_ path: String, uid: uid_t = getuid()) throws(SystemError) {
        var st = stat()
        if lstat(path, &st) != 0 {
            guard errno == ENOENT else { throw SystemError.last("lstat \(path)") }
            try makeDirectories(path)
            guard lstat(path, &st) == 0 else { throw SystemError.last("lstat \(path)") }
        }
        if (st.st_mode & S_IFMT) == S_IFLNK {
            guard st.st_uid == uid else {
                throw SystemError("\(path) is a symlink owned by uid \(st.st_uid), not by us (uid \(uid))", code: EPERM)
            }
            guard stat(path, &st) == 0 else { throw SystemError.last("stat \(path)") }
            guard st.st_uid == uid else {
                throw SystemError("\(path) is a symlink into a directory of uid \(st.st_uid), not ours (uid \(uid))", code: EPERM)
            }
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw SystemError("\(path) is not a directory", code: ENOTDIR) }
        guard st.st_uid == uid else {
            throw SystemError("\(path) is owned by uid \(st.st_uid), not by us (uid \(uid))", code: EPERM)
        }
        guard st.st_mode & 0o022 == 0 else {
            throw SystemError("\(path) is writable by other users (mode \(String(st.st_mode & 0o777, radix: 8)))", code: EPERM)
        }
    }
}

/// Where the sockets live: `$XDG_RUNTIME_DIR/workoutd` when XDG_RUNTIME_DIR is an absolute path
/// (the spec says to ignore relative ones; a trailing slash is dropped), else
/// `/tmp/workoutd-$UID`. Shared by the daemon's `Paths` and workoutctl's `SocketPaths`.
public enum RuntimeDirectory {
    public static func path(xdgRuntimeDir: String?, uid: uid_t) -> String {
        if var dir = xdgRuntimeDir, dir.hasPrefix("/") {
            while dir.count > 1, dir.hasSuffix("/") { dir.removeLast() }
            return (dir == "/" ? "" : dir) + "/workoutd"
        }
        return fallback(uid: uid)
    }

    /// The directory used without XDG_RUNTIME_DIR (in a world-writable /tmp: check its owner).
    public static func fallback(uid: uid_t) -> String { "/tmp/workoutd-\(uid)" }
}
