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

    /// The address of a bound TCP socket as a URL host (`127.0.0.1`, `[::1]`).
    static func urlHost(_ fd: Int32) -> String? {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        guard rc == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            var a = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr } }
            guard inet_ntop(AF_INET, &a, &text, socklen_t(text.count)) != nil else { return nil }
            let s = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return s == "0.0.0.0" ? "127.0.0.1" : s
        case AF_INET6:
            var a = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr } }
            guard inet_ntop(AF_INET6, &a, &text, socklen_t(text.count)) != nil else { return nil }
            let s = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return s == "::" ? "[::1]" : "[" + s + "]"
        default: return nil
        }
    }
}

/// The token that lets the owner in (docs/web.md): 32 random bytes, base64url, kept in
/// `$XDG_RUNTIME_DIR/workoutd/web-token` (0600) so a restart keeps the browser's cookie valid;
/// a file that is not ours, not 0600 or not a token is replaced.
enum WebToken {
    static func path(_ paths: Paths) -> String { paths.runtimeDir + "/web-token" }

    static func loadOrCreate(_ paths: Paths) throws(SystemError) -> String {
        let file = path(paths)
        var st = stat()
        if lstat(file, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == getuid(), st.st_mode & 0o077 == 0,
           let bytes = try? readFile(file, limit: 256) {
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: [" ", "\n", "\r", "\t"])
            if text.utf8.count == 43, text.utf8.allSatisfy(isTokenByte) { return text }
        }
        var random = [UInt8](repeating: 0, count: 32)
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError.last("open /dev/urandom") }
        let n = random.withUnsafeMutableBytes { read(fd, $0.baseAddress, 32) }
        close(fd)
        guard n == 32 else { throw SystemError("/dev/urandom gave \(n) bytes", code: EIO) }
        let token = Base64.encode(random).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        try PrivateDirectory.prepare(paths.runtimeDir)
        try AtomicFile.write(token + "\n", to: file, mode: 0o600)
        return token
    }

    private static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 48...57, 65...90, 97...122, UInt8(ascii: "-"), UInt8(ascii: "_"): return true
        default: return false
        }
    }
}

private extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }

    func replacingOccurrences(of a: String, with b: String) -> String {
        split(separator: Character(a), omittingEmptySubsequences: false).joined(separator: b)
    }
}
