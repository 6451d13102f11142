import Glibc

/// Marks a descriptor non-blocking and close-on-exec.
public func setNonBlockingCloExec(_ fd: Int32) {
    let fl = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, fl | O_NONBLOCK)
    let fdfl = fcntl(fd, F_GETFD)
    _ = fcntl(fd, F_SETFD, fdfl | FD_CLOEXEC)
}

/// Writes all of `bytes` to a blocking descriptor, retrying on EINTR and short writes.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    var written = 0
    try writeAll(fd, bytes, progress: &written)
}

/// `writeAll`, counting in `progress` the bytes written, also when it throws (a full disk takes
/// part of a write: the caller may have to cut them off again).
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, progress: inout Int) throws(SystemError) {
    while progress < bytes.count {
        let n = write(fd, bytes.baseAddress! + progress, bytes.count - progress)
        if n < 0 {
            if errno == EINTR { continue }
            throw SystemError.last("write")
        }
        progress += n
    }
}

/// Reads a whole regular file of at most `limit` bytes (see `readRegularFile(fd:path:limit:)`).
public func readFile(_ path: String, limit: Int = 1 << 30, links: LinkPolicy = .follow) throws(SystemError) -> [UInt8] {
    try readRegularFile(path, limit: limit, links: links)
}

/// Whether opening a path follows a symbolic link in its last component.
public enum LinkPolicy: Sendable {
    case follow
    /// `O_NOFOLLOW`: a link is refused (`linkRefused`), never followed out of its folder.
    case refuse

    /// The open(2) flag.
    public var openFlag: Int32 {
        switch self {
        case .follow: return 0
        case .refuse: return O_NOFOLLOW
        }
    }

    /// The error of an open that `refuse` stopped (ELOOP), in words naming the link.
    public static func linkRefused(_ path: String) -> SystemError {
        SystemError("open \(path) (a symbolic link, not followed)", code: ELOOP)
    }
}

/// Opens `path` without blocking (a FIFO in its place must not hang the caller) and reads it
/// whole with `readRegularFile(fd:path:limit:)`.
public func readRegularFile(_ path: String, limit: Int, links: LinkPolicy = .follow) throws(SystemError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | links.openFlag)
    guard fd >= 0 else {
        if errno == ELOOP, case .refuse = links { throw LinkPolicy.linkRefused(path) }
        throw SystemError.last("open \(path)")
    }
    defer { close(fd) }
    return try readRegularFile(fd: fd, path: path, limit: limit)
}

/// Reads a whole file from `fd`, refusing before the first read anything that is not a regular
/// file (a FIFO, a device such as /dev/urandom, a socket, a directory) and any file larger than
/// `limit` bytes; a file that grows past `limit` while read is refused too. `path` names the file
/// in errors. The descriptor may be non-blocking (a regular file never returns EAGAIN).
public func readRegularFile(fd: Int32, path: String, limit: Int) throws(SystemError) -> [UInt8] {
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw SystemError.last("stat \(path)") }
    guard (st.st_mode & S_IFMT) == S_IFREG else {
        throw SystemError("\(path) is \(fileKind(st.st_mode)), not a regular file", code: EINVAL)
    }
    guard Int(st.st_size) <= limit else {
        throw SystemError("\(path) is \(st.st_size) bytes, more than the limit of \(limit)", code: EFBIG)
    }
    var out: [UInt8] = []
    out.reserveCapacity(Int(st.st_size))
    var buf = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = read(fd, &buf, buf.count)
        if n < 0 { if errno == EINTR { continue }; throw SystemError.last("read \(path)") }
        if n == 0 { break }
        guard out.count + n <= limit else {
            throw SystemError("\(path) grew past the limit of \(limit) bytes while read", code: EFBIG)
        }
        out.append(contentsOf: buf[0..<n])
    }
    return out
}

/// "a FIFO", "a directory", ... for messages.
public func fileKind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: return "a regular file"
    case S_IFDIR: return "a directory"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    case S_IFLNK: return "a symlink"
    default: return "an anonymous descriptor (an eventfd, a timerfd ...)"  // no file type at all
    }
}

/// mkdir -p with a mode for each created directory.
public func makeDirectories(_ path: String, mode: mode_t = 0o700) throws(SystemError) {
    var current = ""
    for part in path.split(separator: "/") {
        current += "/" + part
        if mkdir(current, mode) != 0 && errno != EEXIST { throw SystemError.last("mkdir \(current)") }
    }
}

/// Starts writing a file's dirty pages to the disk without waiting (Linux `sync_file_range`
/// with `SYNC_FILE_RANGE_WRITE`), so a later `fdatasync` finds most of the data already written.
/// A hint, not a sync: nothing is durable until the fdatasync; failures are ignored. (Looked up
/// at run time: the C library module does not declare it.)
public func startWriteback(_ fd: Int32) {
    _ = syncFileRange.map { $0(fd, 0, 0, syncFileRangeWrite) }
}

private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
private let syncFileRangeWrite: UInt32 = 2  // SYNC_FILE_RANGE_WRITE, <fcntl.h>
private let syncFileRange: SyncFileRange? = dlsym(nil, "sync_file_range").map { unsafeBitCast($0, to: SyncFileRange.self) }

/// The names in directory `path` (`.` and `..` included), nil when it cannot be opened.
public func directoryEntries(_ path: String) -> [String]? {
    guard let d = opendir(path) else { return nil }
    defer { closedir(d) }
    var out: [String] = []
    while let e = readdir(d) {
        out.append(withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) })
    }
    return out
}
