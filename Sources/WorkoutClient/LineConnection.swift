import Glibc
import WorkoutSystem

/// Why talking to the daemon failed.
public enum ConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nobody listens at the path (no socket file, connection refused, permission denied, ...).
    case unreachable(path: String, reason: String)
    /// The daemon took longer than the timeout to answer.
    case timedOut(path: String, seconds: Double)
    /// The daemon closed the connection before answering.
    case closed(path: String)
    /// Reading or writing failed mid-conversation.
    case io(String)
    /// The socket or its directory belongs to someone else: not connected (see
    /// `SocketPaths.trustProblem`).
    case untrusted(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreachable(let path, let reason): return "cannot connect to \(path): \(reason)"
        case .timedOut(let path, let s): return "workoutd at \(path) did not answer within \(NumberText.short(s)) s"
        case .closed(let path): return "workoutd at \(path) closed the connection without answering"
        case .io(let m): return m
        case .untrusted(let path, let reason):
            return "refusing to use \(path): \(reason); another user may have created it to pose as workoutd"
        }
    }
}

/// Short number text for messages ("10", "2.5").
enum NumberText {
    static func short(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d) }
}

/// The text of an errno value.
func errnoText(_ e: Int32) -> String { String(cString: strerror(e)) }

/// A blocking Unix stream connection that sends and receives newline-terminated lines.
/// Sends use MSG_NOSIGNAL, so a daemon that went away gives EPIPE, never SIGPIPE.
public final class LineConnection {
    public let fd: Int32
    public let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    /// Whether the daemon closed its side.
    private var stream = StreamState.open

    public init(fd: Int32, path: String) { self.fd = fd; self.path = path }
    deinit { close(fd) }

    /// Connects to the Unix stream socket at `path`.
    public static func connect(path: String) throws(ConnectionError) -> LineConnection {
        let addr: SocketAddress
        do { addr = try SocketAddress(path: path) } catch {
            throw .unreachable(path: path, reason: "the path is longer than \(SocketAddress.maxPathBytes) bytes")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .unreachable(path: path, reason: "socket: " + errnoText(errno)) }
        let rc = addr.connect(fd)
        guard rc == 0 else {
            let e = errno
            close(fd)
            throw .unreachable(path: path, reason: errnoText(e) + (e == ENOENT ? " (workoutd is not running)" : ""))
        }
        return LineConnection(fd: fd, path: path)
    }

    /// Sends `text` followed by a newline.
    public func send(line text: String) throws(ConnectionError) {
        try send(bytes: Array(text.utf8) + [0x0A])
    }

    public func send(bytes: [UInt8]) throws(ConnectionError) {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + off, raw.count - off, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                let e = errno
                if e == EPIPE || e == ECONNRESET { throw .closed(path: path) }
                throw .io("writing to \(path): " + errnoText(e))
            }
            off += n
        }
    }

    /// What waiting for input gave.
    public enum Wait: Equatable { case readable, timedOut, interrupted }

    /// Waits until the socket (or `alsoWatch`, e.g. a signal pipe) is readable.
    /// `timeout` in seconds, nil = forever. `.interrupted` when `alsoWatch` became readable or a
    /// signal interrupted the wait.
    public func wait(timeout: Double?, alsoWatch: Int32? = nil) -> Wait {
        if start < buffer.count, buffer[start...].contains(0x0A) { return .readable }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        if let other = alsoWatch { fds.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
        let ms: Int32 = timeout.map { Int32(min(max($0 * 1000, 0), 2_000_000_000)) } ?? -1
        let rc = poll(&fds, nfds_t(fds.count), ms)
        if rc < 0 { return .interrupted }
        if rc == 0 { return .timedOut }
        if fds.count > 1, fds[1].revents != 0 { return .interrupted }
        return .readable
    }

    /// The next line (without its newline), or nil at end of stream. Blocks until `timeout`
    /// seconds have passed (nil: forever). A last line without a newline is returned at EOF.
    public func readLine(timeout: Double?) throws(ConnectionError) -> [UInt8]? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<nl])
                start = nl + 1
                if start > 65536 { buffer.removeFirst(start); start = 0 }
                return line
            }
            if case .ended = stream {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                return line
            }
            if let timeout {
                switch wait(timeout: timeout) {
                case .timedOut: throw .timedOut(path: path, seconds: timeout)
                case .interrupted: continue  // a signal: wait again (the caller's flag decides)
                case .readable: break
                }
            }
            try fill()
        }
    }

    /// Reads whatever is available (blocking once).
    private func fill() throws(ConnectionError) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 {
            if errno == EINTR { return }
            let e = errno
            if e == ECONNRESET { stream = .ended; return }
            throw .io("reading from \(path): " + errnoText(e))
        }
        if n == 0 { stream = .ended; return }
        buffer.append(contentsOf: chunk[0..<n])
    }
}

/// The daemon's side of a connection: open, or closed (no more replies will come).
enum StreamState {
    case open
    case ended
}
