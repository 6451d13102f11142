import Glibc

/// Real sockets for the systemd tests, in a short private temp dir (/tmp/x.XXXXXX: sun_path is
/// 108 bytes). Closes its descriptor and removes the directory on `close()`.
final class TestSocket {
    let descriptor: Int32
    let directory: String?
    let path: String?

    private init(descriptor: Int32, directory: String?, path: String?) {
        self.descriptor = descriptor
        self.directory = directory
        self.path = path
    }

    /// A fresh short directory, e.g. /tmp/x.a1B2c3.
    static func makeTempDirectory() -> String {
        var template = Array("/tmp/x.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed")
        return String(cString: made!)
    }

    static func address(path: String? = nil, abstract: String? = nil) -> (sockaddr_un, socklen_t) {
        var sa = sockaddr_un()
        sa.sun_family = sa_family_t(AF_UNIX)
        let bytes: [UInt8] = path.map { Array($0.utf8) + [0] } ?? ([0] + Array(abstract!.utf8))
        withUnsafeMutableBytes(of: &sa.sun_path) { buf in
            for (i, b) in bytes.enumerated() { buf[i] = b }
        }
        return (sa, socklen_t(MemoryLayout<sa_family_t>.size + bytes.count))
    }

    private static func bind(_ fd: Int32, _ sa: sockaddr_un, _ len: socklen_t) {
        var sa = sa
        let rc = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, len) }
        }
        precondition(rc == 0, "bind failed: errno \(errno)")
    }

    /// A datagram socket bound in a temp dir (as systemd's notify socket), with a receive timeout.
    static func datagramInTempDir() -> TestSocket {
        let dir = makeTempDirectory()
        let path = dir + "/n.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let (sa, len) = address(path: path)
        bind(fd, sa, len)
        setReceiveTimeout(fd)
        return TestSocket(descriptor: fd, directory: dir, path: path)
    }

    /// A datagram socket bound to an abstract name.
    static func datagramAbstract(name: String) -> TestSocket {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let (sa, len) = address(abstract: name)
        bind(fd, sa, len)
        setReceiveTimeout(fd)
        return TestSocket(descriptor: fd, directory: nil, path: nil)
    }

    /// An AF_UNIX socket of `type` in a temp dir; listening if `listen` (stream only).
    static func unixInTempDir(type: Int32, listen: Bool) -> TestSocket {
        let dir = makeTempDirectory()
        let path = dir + "/s.sock"
        let fd = socket(AF_UNIX, type | Int32(SOCK_CLOEXEC.rawValue), 0)
        let (sa, len) = address(path: path)
        bind(fd, sa, len)
        if listen { precondition(Glibc.listen(fd, 4) == 0) }
        return TestSocket(descriptor: fd, directory: dir, path: path)
    }

    /// A listening TCP socket on 127.0.0.1 (any port).
    static func tcpListening() -> TestSocket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var sin = sockaddr_in()
        sin.sin_family = sa_family_t(AF_INET)
        sin.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let rc = withUnsafePointer(to: &sin) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(rc == 0)
        precondition(Glibc.listen(fd, 4) == 0)
        return TestSocket(descriptor: fd, directory: nil, path: nil)
    }

    private static func setReceiveTimeout(_ fd: Int32) {
        var tv = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram as text, or nil after the 2 s timeout.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard n >= 0 else { return nil }
        return String(decoding: buffer[0..<n], as: UTF8.self)
    }

    func close() {
        _ = Glibc.close(descriptor)
        if let path { unlink(path) }
        if let directory { rmdir(directory) }
    }
}
