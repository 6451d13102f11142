import Glibc

/// A Unix socket address (`sockaddr_un`): a path, or a Linux abstract name. The one place that
/// fills `sun_path`, for the daemon's sockets, workoutctl, the benchmarks and sd_notify.
public struct SocketAddress {
    public private(set) var storage = sockaddr_un()
    /// The length to pass to bind/connect/sendto.
    public let length: socklen_t

    /// Longest path that fits with its NUL (107 bytes on Linux).
    public static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A filesystem path. Throws ENAMETOOLONG when it does not fit.
    public init(path: String) throws(SystemError) {
        let bytes = Array(path.utf8)
        guard bytes.count <= SocketAddress.maxPathBytes, !bytes.contains(0) else {
            throw SystemError("socket path \(path) is longer than \(SocketAddress.maxPathBytes) bytes", code: ENAMETOOLONG)
        }
        self.init(sunPath: bytes + [0], length: socklen_t(MemoryLayout<sockaddr_un>.size))
    }

    /// An abstract name (`@name` in systemd's notation, without the `@`).
    public init(abstract name: String) throws(SystemError) {
        let bytes = [0] + Array(name.utf8)
        guard bytes.count <= SocketAddress.maxPathBytes + 1 else {
            throw SystemError("abstract socket name @\(name) is too long", code: ENAMETOOLONG)
        }
        self.init(sunPath: bytes, length: socklen_t(MemoryLayout<sa_family_t>.size + bytes.count))
    }

    private init(sunPath bytes: [UInt8], length: socklen_t) {
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        self.length = length
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// `connect` retried on EINTR; returns 0 or -1 with errno set.
    public func connect(_ fd: Int32) -> Int32 {
        var rc: Int32
        repeat { rc = withSockaddr { Glibc.connect(fd, $0, $1) } } while rc != 0 && errno == EINTR
        return rc
    }

    public func bind(_ fd: Int32) -> Int32 { withSockaddr { Glibc.bind(fd, $0, $1) } }
}
