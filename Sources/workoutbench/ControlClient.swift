import Glibc
import WorkoutCore
import WorkoutSystem

/// A blocking client of a Unix stream socket speaking JSON lines (the control socket), or just
/// a writer (the feed socket).
final class ControlClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard ControlClient.connect(fd, path) else { close(fd); return nil }
    }

    deinit { close(fd) }

    static func connect(_ fd: Int32, _ path: String) -> Bool {
        guard let addr = try? SocketAddress(path: path) else { return false }
        return addr.connect(fd) == 0
    }

    func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = Glibc.send(fd, bytes.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    func send(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { send($0) }
    }

    /// Reads one line (without newline); nil at EOF.
    func readLine() -> [UInt8]? {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<nl])
                buffer.removeFirst(nl + 1)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// One request, one parsed reply.
    func request(_ json: String) -> JSON? {
        guard send(json + "\n"), let line = readLine() else { return nil }
        return try? JSON.parse(line)
    }

    /// One request on a fresh connection.
    static func request(path: String, _ json: String) -> JSON? {
        ControlClient(path: path)?.request(json)
    }
}
