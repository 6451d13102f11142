import Glibc

/// Marks a descriptor non-blocking and close-on-exec.
public func setNonBlockingCloExec(_ fd: Int32) {
    let fl = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, fl | O_NONBLOCK)
    let fdfl = fcntl(fd, F_GETFD)
    _ = fcntl(fd, F_SETFD, fdfl | FD_CLOEXEC)
}

/// Writes all of `bytes` to a blocking descriptor, retrying on EINTR and short writes.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws {
    var off = 0
    while off < bytes.count {
        let n = write(fd, bytes.baseAddress! + off, bytes.count - off)
        if n < 0 {
            if errno == EINTR { continue }
            throw SystemError.last("write")
        }
        off += n
    }
}

/// Reads a whole file (bounded by `limit` bytes).
public func readFile(_ path: String, limit: Int = 1 << 30) throws -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError.last("open \(path)") }
    defer { close(fd) }
    var out: [UInt8] = []
    var st = stat()
    if fstat(fd, &st) == 0, st.st_size > 0 { out.reserveCapacity(min(Int(st.st_size), limit)) }
    var buf = [UInt8](repeating: 0, count: 1 << 16)
    while out.count < limit {
        let n = read(fd, &buf, buf.count)
        if n < 0 { if errno == EINTR { continue }; throw SystemError.last("read \(path)") }
        if n == 0 { break }
        out.append(contentsOf: buf[0..<n])
    }
    return out
}
