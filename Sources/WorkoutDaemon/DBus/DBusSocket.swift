import Glibc

/// Stream I/O on the bus socket with descriptors passed alongside (SCM_RIGHTS). The cmsg
/// macros are not visible to Swift, so the control buffer is laid out by hand: a cmsghdr
/// (length as size_t, level, type), then the int32 descriptors, lengths rounded to size_t.
enum DBusSocket {
    /// The kernel's limit of descriptors in one message (SCM_MAX_FD).
    static let maximumFDsPerRead = 253

    private static let word = MemoryLayout<Int>.size
    private static func align(_ n: Int) -> Int { (n + word - 1) & ~(word - 1) }
    private static var headerLength: Int { align(MemoryLayout<cmsghdr>.size) }
    static func controlSpace(fds: Int) -> Int { headerLength + align(4 * fds) }

    /// Opens a non-blocking, close-on-exec stream socket connected to `address`.
    static func connect(_ address: DBusAddress) throws(DBusError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .connectFailed(address: "\(address)", SystemError.last("socket")) }
        var (addr, length) = try address.socketAddress()
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        // A unix stream connect completes at once or fails; EAGAIN means the listen backlog is full.
        if rc != 0 && errno != EINPROGRESS {
            let e = SystemError.last("connect \(address)")
            close(fd)
            throw .connectFailed(address: "\(address)", e)
        }
        return fd
    }

    /// One sendmsg of `bytes[offset...]`, with `fds` attached when non-empty. Returns the
    /// bytes written, or -1 with errno set.
    static func send(_ fd: Int32, _ bytes: [UInt8], from offset: Int, fds: [Int32]) -> Int {
        bytes.withUnsafeBytes { raw -> Int in
            var iov = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + offset), iov_len: raw.count - offset)
            var msg = msghdr()
            return withUnsafeMutablePointer(to: &iov) { iovp -> Int in
                msg.msg_iov = iovp
                msg.msg_iovlen = 1
                guard !fds.isEmpty else { return Glibc.sendmsg(fd, &msg, Int32(MSG_NOSIGNAL)) }
                let space = controlSpace(fds: fds.count)
                var control = [UInt8](repeating: 0, count: space)
                return control.withUnsafeMutableBytes { c -> Int in
                    let h = c.baseAddress!.assumingMemoryBound(to: cmsghdr.self)
                    h.pointee.cmsg_len = headerLength + 4 * fds.count
                    h.pointee.cmsg_level = SOL_SOCKET
                    h.pointee.cmsg_type = Int32(SCM_RIGHTS)
                    for (i, d) in fds.enumerated() { c.storeBytes(of: d, toByteOffset: headerLength + 4 * i, as: Int32.self) }
                    msg.msg_control = c.baseAddress
                    msg.msg_controllen = space
                    return Glibc.sendmsg(fd, &msg, Int32(MSG_NOSIGNAL))
                }
            }
        }
    }

    struct Received {
        var count: Int
        var fds: [Int32]
        /// The kernel dropped descriptors (MSG_CTRUNC): the stream cannot be trusted.
        var truncatedFDs: Bool
    }

    /// One recvmsg into `buffer`; descriptors arrive close-on-exec. count -1 = errno set.
    static func receive(_ fd: Int32, into buffer: inout [UInt8], control: inout [UInt8]) -> Received {
        var flags: Int32 = 0
        var controlLength = 0
        let n = buffer.withUnsafeMutableBytes { raw -> Int in
            var iov = iovec(iov_base: raw.baseAddress, iov_len: raw.count)
            return withUnsafeMutablePointer(to: &iov) { iovp -> Int in
                control.withUnsafeMutableBytes { c -> Int in
                    var msg = msghdr()
                    msg.msg_iov = iovp
                    msg.msg_iovlen = 1
                    msg.msg_control = c.baseAddress
                    msg.msg_controllen = c.count
                    let r = Glibc.recvmsg(fd, &msg, Int32(MSG_CMSG_CLOEXEC))
                    flags = msg.msg_flags
                    controlLength = r >= 0 ? Int(msg.msg_controllen) : 0
                    return r
                }
            }
        }
        var fds: [Int32] = []
        var at = 0
        while at + headerLength <= controlLength {
            let (len, level, type) = control.withUnsafeBytes { c in
                (c.load(fromByteOffset: at, as: Int.self),
                 c.load(fromByteOffset: at + word, as: Int32.self),
                 c.load(fromByteOffset: at + word + 4, as: Int32.self))
            }
            guard len >= headerLength, at + len <= controlLength else { break }
            if level == SOL_SOCKET && type == Int32(SCM_RIGHTS) {
                let count = (len - headerLength) / 4
                for i in 0..<count {
                    fds.append(control.withUnsafeBytes { $0.load(fromByteOffset: at + headerLength + 4 * i, as: Int32.self) })
                }
            }
            at += align(len)
        }
        return Received(count: n, fds: fds, truncatedFDs: flags & Int32(MSG_CTRUNC) != 0)
    }
}
