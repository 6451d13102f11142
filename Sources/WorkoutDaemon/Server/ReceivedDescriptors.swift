import Glibc

/// Descriptors passed with SCM_RIGHTS on the control socket (docs/protocol.md): `recvmsg` with
/// room for a message's worth of them, close-on-exec. Lines and descriptors arrive in order,
/// so a request's descriptors are here when its line is decoded.
enum ReceivedDescriptors {
    /// SCM_RIGHTS (Glibc's enum constant is not imported as a plain value).
    static let scmRights: Int32 = 1
    /// The kernel's limit per message (SCM_MAX_FD).
    static let maxPerMessage = 253
    static let headerSize = MemoryLayout<cmsghdr>.size

    /// Reads into `buffer` like `recv`; descriptors that came with the bytes are appended to
    /// `descriptors`. Returns what `recvmsg` returned (errno set when negative).
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, descriptors: inout [Int32]) -> Int {
        let controlSize = headerSize + ((maxPerMessage * 4 + 7) & ~7)
        return withUnsafeTemporaryAllocation(byteCount: controlSize, alignment: 8) { control -> Int in
            var iov = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
            return withUnsafeMutablePointer(to: &iov) { iovp -> Int in
                var msg = msghdr()
                msg.msg_iov = iovp
                msg.msg_iovlen = 1
                msg.msg_control = control.baseAddress
                msg.msg_controllen = control.count
                let n = recvmsg(fd, &msg, Int32(MSG_CMSG_CLOEXEC))
                guard n >= 0 else { return n }
                collect(UnsafeRawBufferPointer(rebasing: control[0..<min(Int(msg.msg_controllen), control.count)]), into: &descriptors)
                return n
            }
        }
    }

    /// The SCM_RIGHTS descriptors of a control buffer (CMSG_FIRSTHDR/CMSG_NXTHDR by hand).
    static func collect(_ control: UnsafeRawBufferPointer, into descriptors: inout [Int32]) {
        var offset = 0
        while offset + headerSize <= control.count {
            let header = control.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
            let length = Int(header.cmsg_len)
            guard length >= headerSize, offset + length <= control.count else { return }
            if header.cmsg_level == SOL_SOCKET, header.cmsg_type == scmRights {
                let count = (length - headerSize) / 4
                for k in 0..<count {
                    descriptors.append(control.loadUnaligned(fromByteOffset: offset + headerSize + 4 * k, as: Int32.self))
                }
            }
            offset += (length + 7) & ~7
        }
    }
}
