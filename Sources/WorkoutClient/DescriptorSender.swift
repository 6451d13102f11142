import Glibc

extension LineConnection {
    /// Sends `text` and a newline with `descriptors` attached (SCM_RIGHTS) to its first bytes,
    /// so the daemon has them when it reads the line (docs/protocol.md). The descriptors stay
    /// open here; the daemon gets its own copies.
    public func send(line text: String, descriptors: [Int32]) throws(ConnectionError) {
        var bytes = Array(text.utf8)
        bytes.append(0x0A)
        guard !descriptors.isEmpty else { try send(bytes: bytes); return }
        let header = MemoryLayout<cmsghdr>.size
        let dataLength = descriptors.count * 4
        let space = header + ((dataLength + 7) & ~7)
        var sent = 0
        var failure: Int32 = 0
        withUnsafeTemporaryAllocation(byteCount: space, alignment: 8) { control in
            control.initializeMemory(as: UInt8.self, repeating: 0)
            var h = cmsghdr()
            h.cmsg_len = header + dataLength
            h.cmsg_level = SOL_SOCKET
            h.cmsg_type = 1  // SCM_RIGHTS
            control.storeBytes(of: h, toByteOffset: 0, as: cmsghdr.self)
            for (k, fd) in descriptors.enumerated() { control.storeBytes(of: fd, toByteOffset: header + 4 * k, as: Int32.self) }
            bytes.withUnsafeMutableBytes { raw in
                var iov = iovec(iov_base: raw.baseAddress, iov_len: raw.count)
                withUnsafeMutablePointer(to: &iov) { iovp in
                    var msg = msghdr()
                    msg.msg_iov = iovp
                    msg.msg_iovlen = 1
                    msg.msg_control = control.baseAddress
                    msg.msg_controllen = space
                    var n: Int
                    repeat { n = sendmsg(fd, &msg, Int32(MSG_NOSIGNAL)) } while n < 0 && errno == EINTR
                    if n < 0 { failure = errno } else { sent = n }
                }
            }
        }
        if failure != 0 {
            if failure == EPIPE || failure == ECONNRESET { throw .closed(path: path) }
            throw .io("passing descriptors to \(path): " + errnoText(failure))
        }
        if sent < bytes.count { try send(bytes: Array(bytes[sent...])) }  // the descriptors went with the first part
    }
}
