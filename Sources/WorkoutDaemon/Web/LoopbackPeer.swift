import Glibc
import WorkoutSystem

/// Who is at the other end of an accepted TCP connection, from the kernel's socket table: the
/// peer's socket is looked up by its four-tuple (its local address and port are our peer's, its
/// remote ones ours) through sock_diag (NETLINK_SOCK_DIAG, one request and one answer), or in
/// /proc/net/tcp{,6} where netlink is unavailable. A socket found there is on this machine and
/// names its owner's uid; a peer on another machine is not found.
/// Used on the web thread, before a byte of the connection is read.
final class LoopbackPeer {
    /// What the socket table says about a connection's peer.
    enum Owner: Equatable {
        /// A socket of this machine owned by `uid`.
        case user(uid_t)
        /// No socket of this machine is the peer: another machine (or it is gone already).
        case notLocal
        /// The table could not be read (the reason, in words).
        case unknown(String)
    }

    /// The netlink socket, opened at the first lookup (-1: not yet, or unavailable).
    private var netlink: Int32 = -1
    private var netlinkState = NetlinkState.untried
    private var sequence: UInt32 = 0

    private enum NetlinkState { case untried, open, unavailable }

    deinit { if netlink >= 0 { close(netlink) } }

    /// The owner of the peer of the connected TCP socket `fd`.
    func owner(of fd: Int32) -> Owner {
        guard let ends = Ends(fd) else { return .unknown("getsockname/getpeername failed: \(String(cString: strerror(errno)))") }
        if let found = viaNetlink(ends) { return found }
        return LoopbackPeer.viaProc(ends)
    }

    /// The connection's two ends, as the kernel's table spells them (network byte order).
    struct Ends {
        var family: Int32
        /// The peer's address (4 or 16 bytes) and port: the local end of the socket looked for.
        var peerAddress: [UInt8], peerPort: UInt16
        /// Ours: the remote end of the socket looked for.
        var ourAddress: [UInt8], ourPort: UInt16

        init?(_ fd: Int32) {
            guard let ours = Ends.address(fd, getsockname), let peer = Ends.address(fd, getpeername), ours.family == peer.family else { return nil }
            family = ours.family
            ourAddress = ours.bytes; ourPort = ours.port
            peerAddress = peer.bytes; peerPort = peer.port
        }

        private static func address(_ fd: Int32, _ call: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32)
            -> (family: Int32, bytes: [UInt8], port: UInt16)? {
            var storage = sockaddr_storage()
            var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let rc = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(fd, $0, &len) } }
            guard rc == 0 else { return nil }
            switch Int32(storage.ss_family) {
            case AF_INET:
                let a = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee } }
                return (AF_INET, withUnsafeBytes(of: a.sin_addr) { Array($0) }, UInt16(bigEndian: a.sin_port))
            case AF_INET6:
                let a = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee } }
                return (AF_INET6, withUnsafeBytes(of: a.sin6_addr) { Array($0) }, UInt16(bigEndian: a.sin6_port))
            default: return nil
            }
        }
    }

    // MARK: - sock_diag

    private static let netlinkSockDiag: Int32 = 4
    private static let sockDiagByFamily: UInt16 = 20
    private static let nlmsgError: UInt16 = 2
    private static let nlmFRequest: UInt16 = 1

    /// nil when netlink is unavailable (then /proc is read).
    private func viaNetlink(_ ends: Ends) -> Owner? {
        switch netlinkState {
        case .unavailable: return nil
        case .open: break
        case .untried:
            netlink = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), LoopbackPeer.netlinkSockDiag)
            netlinkState = netlink >= 0 ? .open : .unavailable
            guard netlink >= 0 else { return nil }
        }
        sequence &+= 1
        // nlmsghdr (16) + inet_diag_req_v2 (8 + inet_diag_sockid 48).
        var m = [UInt8]()
        m.reserveCapacity(72)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v) { m += $0 } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v) { m += $0 } }
        func address(_ a: [UInt8]) { m += a; m += [UInt8](repeating: 0, count: 16 - a.count) }
        u32(72); u16(LoopbackPeer.sockDiagByFamily); u16(LoopbackPeer.nlmFRequest); u32(sequence); u32(0)
        m += [UInt8(ends.family), UInt8(IPPROTO_TCP), 0, 0]; u32(0xFFFF_FFFF)  // every state
        u16(ends.peerPort.bigEndian); u16(ends.ourPort.bigEndian)
        address(ends.peerAddress); address(ends.ourAddress)
        u32(0); u32(0xFFFF_FFFF); u32(0xFFFF_FFFF)  // any interface; no cookie
        let sent = m.withUnsafeBytes { send(netlink, $0.baseAddress, $0.count, 0) }
        guard sent == m.count else { return .unknown("sock_diag: " + String(cString: strerror(errno))) }
        // The kernel answers within the send: the reply is queued when it returns.
        var reply = [UInt8](repeating: 0, count: 512)
        let n = reply.withUnsafeMutableBytes { recv(netlink, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        guard n >= 20 else { return .unknown("sock_diag: no answer (\(n < 0 ? String(cString: strerror(errno)) : "\(n) bytes"))") }
        func read32(_ at: Int) -> UInt32 { reply.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) } }
        let type = reply.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt16.self) }
        if type == LoopbackPeer.nlmsgError {
            let code = -Int32(bitPattern: read32(16))
            return code == ENOENT ? .notLocal : .unknown("sock_diag: " + String(cString: strerror(code)))
        }
        // inet_diag_msg: family, state, timer, retrans (4), sockid (48), expires, rqueue, wqueue, uid.
        guard type == LoopbackPeer.sockDiagByFamily, n >= 16 + 68 else { return .unknown("sock_diag: an answer of type \(type)") }
        return .user(read32(16 + 4 + 48 + 12))
    }

    // MARK: - /proc/net/tcp

    /// The uid column of the line whose local end is the peer's and remote end ours.
    static func viaProc(_ ends: Ends) -> Owner {
        let file = ends.family == AF_INET6 ? "/proc/net/tcp6" : "/proc/net/tcp"
        guard let bytes = try? readFile(file, limit: 64 << 20) else { return .unknown("cannot read \(file)") }
        let local = procAddress(ends.peerAddress, ends.peerPort), remote = procAddress(ends.ourAddress, ends.ourPort)
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ")
            guard f.count > 7, f[1] == local, f[2] == remote, let uid = uid_t(f[7]) else { continue }
            return .user(uid)
        }
        return .notLocal
    }

    /// An address as /proc/net/tcp spells it: each 32-bit word in host order as 8 hex digits,
    /// then `:` and the port as 4.
    static func procAddress(_ address: [UInt8], _ port: UInt16) -> String {
        var s = ""
        for k in stride(from: 0, to: address.count, by: 4) {
            let word = address[k..<k + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            s += hex(UInt64(word), digits: 8)
        }
        return s + ":" + hex(UInt64(port), digits: 4)
    }

    private static func hex(_ v: UInt64, digits: Int) -> String {
        let t = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - t.count)) + t
    }
}
