import Glibc
import WorkoutCore
import WorkoutSystem

/// The web pages' listening TCP socket: bound to a numeric address (`localhost` means
/// 127.0.0.1), or adopted from systemd (socket activation, `FileDescriptorName=web`).
enum WebListener {
    /// Binds and listens; returns the descriptor and the port bound (the one asked for, or the
    /// free port the kernel chose for port 0).
    static func listen(_ config: WebConfig) throws(SystemError) -> (fd: Int32, port: UInt16) {
        let host = config.host == "localhost" ? "127.0.0.1" : config.host
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = config.port.bigEndian
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = config.port.bigEndian
        } else {
            throw SystemError("web.listen: '\(config.host)' is not an IPv4 or IPv6 address", code: EINVAL)
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw SystemError.last("socket") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc: Int32
        if family == AF_INET {
            rc = withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        } else {
            rc = withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
        }
        guard rc == 0 else { let e = SystemError.last("bind \(config.listen)"); close(fd); throw e }
        guard Glibc.listen(fd, 128) == 0 else { let e = SystemError.last("listen \(config.listen)"); close(fd); throw e }
        guard let port = boundPort(fd) else { let e = SystemError.last("getsockname"); close(fd); throw e }
        return (fd, port)
    }

    /// The local port of a bound TCP socket (nil when it is not one).
    static func boundPort(_ fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        guard rc == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET: return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) } }
        case AF_INET6: return withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) } }
        default: return nil
        }
    }

    /// The address of a bound TCP socket as a URL host (`127.0.0.1`, `[::1]`): a socket bound
    /// to every interface is reached at loopback.
    static func urlHost(_ fd: Int32) -> String? {
        guard let (host, _, family) = bound(fd) else { return nil }
        switch family {
        case AF_INET6: return host == "::" ? "[::1]" : "[" + host + "]"
        default: return host == "0.0.0.0" ? "127.0.0.1" : host
        }
    }

    /// The address the socket really listens on (`0.0.0.0:8765`, `[::]:8765`, `127.0.0.1:8765`)
    /// and who can reach it: the log says this, not the URL.
    static func listeningAddress(_ fd: Int32) -> (text: String, reach: WebReach)? {
        guard let (host, port, family) = bound(fd) else { return nil }
        let loopback: Bool
        switch family {
        case AF_INET6: loopback = host == "::1" || host.hasPrefix("::ffff:127.")
        default: loopback = host.hasPrefix("127.")
        }
        let text = family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)"
        return (text, loopback ? .loopback : .beyondLoopback)
    }

    /// The numeric host, port and family a TCP socket is bound to.
    private static func bound(_ fd: Int32) -> (host: String, port: UInt16, family: Int32)? {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        guard rc == 0, let port = boundPort(fd) else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let family = Int32(storage.ss_family)
        switch family {
        case AF_INET:
            var a = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr } }
            guard inet_ntop(AF_INET, &a, &text, socklen_t(text.count)) != nil else { return nil }
        case AF_INET6:
            var a = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr } }
            guard inet_ntop(AF_INET6, &a, &text, socklen_t(text.count)) != nil else { return nil }
        default: return nil
        }
        return (String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), port, family)
    }
}

/// Who can reach the pages' listening socket.
enum WebReach {
    /// 127.0.0.0/8 or ::1: this machine alone.
    case loopback
    /// Another interface (or all of them, 0.0.0.0 / ::): other machines reach it too.
    case beyondLoopback
}
