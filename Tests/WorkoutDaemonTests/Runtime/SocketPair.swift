import Glibc

/// A non-blocking AF_UNIX stream socket pair for loop and feed tests: `reader` is watched,
/// `writer` plays the peer.
final class SocketPair {
    let reader: Int32
    private(set) var writer: Int32

    init() {
        var fds: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0, "socketpair")
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        reader = fds[0]; writer = fds[1]
    }

    deinit { close(reader); closeWriter() }

    func write(_ text: String) { write(Array(text.utf8)) }

    func write(_ bytes: [UInt8]) {
        let n = bytes.withUnsafeBytes { Glibc.write(writer, $0.baseAddress, $0.count) }
        precondition(n == bytes.count, "short write \(n) of \(bytes.count)")
    }

    func closeWriter() {
        if writer >= 0 { close(writer) }
        writer = -1
    }

    /// Everything readable now, as text ("" if nothing; "EOF" once the peer has closed).
    func readAvailable() -> String {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(reader, &buf, buf.count, 0)
            if n == 0 { return out.isEmpty ? "EOF" : String(decoding: out, as: UTF8.self) }
            if n < 0 { return String(decoding: out, as: UTF8.self) }
            out += buf[0..<n]
        }
    }
}

/// What happened during a loop run, in order. `@unchecked Sendable`: `post` takes a Sendable
/// closure, but the loop and these tests run on one thread.
final class LoopLog: @unchecked Sendable {
    var entries: [String] = []
    var wakeUps = 0
}
