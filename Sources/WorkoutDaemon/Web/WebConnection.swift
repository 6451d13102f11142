import Glibc
import WorkoutCore

/// One browser connection on the web thread: its parser, what waits to be written, and where
/// it is in its exchange. Touched on the web thread only.
final class WebConnection: PolledConnection {
    let fd: Int32
    let id: Int
    var token: EventLoop.Token = 0
    var parser: HTTPRequestParser
    /// Bytes waiting to be written (`written` of them already were).
    var output: [UInt8] = []
    var written = 0
    var phase: Phase
    /// Whether the peer has shown it may look (see `Standing`).
    var standing = Standing.unproven
    /// When the last byte was written (the stall timer of `.writing` and `.streaming`).
    var lastProgress: Double

    /// Where the connection is; moves `idle -> reading -> answering -> writing -> idle`, or
    /// to `streaming` (Server-Sent Events) or `closing`.
    enum Phase {
        /// Between requests (keep-alive) since then.
        case idle(since: Double)
        /// A request began arriving then (the slowloris clock).
        case reading(since: Double)
        /// The request is being answered (an edit waits for the daemon's loop).
        case answering
        /// The response is being written; the connection closes after it when `close`.
        case writing(close: Bool)
        /// Server-Sent Events (`/live/events`): written to every second until the peer goes.
        case streaming
    }

    /// Whether a request of this connection was let in: until then it is held to the short
    /// `unprovenSeconds` limit (a silent connection holds no slot for long).
    enum Standing {
        /// No request was answered with a page or the token's redirect yet.
        case unproven
        /// A request got a page (its cookie or token was good).
        case proven
    }

    init(fd: Int32, id: Int, limits: HTTPLimits, now: Double) {
        self.fd = fd
        self.id = id
        self.parser = HTTPRequestParser(limits: limits)
        self.phase = .idle(since: now)
        self.lastProgress = now
    }

    var pendingOutput: Int { output.count - written }

    func queue(_ bytes: [UInt8]) {
        if written == output.count {
            output = bytes
            written = 0
        } else {
            output.append(contentsOf: bytes)
        }
    }

    /// Writes what it can without blocking. Returns false when the peer is gone.
    func flush(now: Double) -> Bool {
        while written < output.count {
            let n = output.withUnsafeBytes { send(fd, $0.baseAddress! + written, output.count - written, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return true }
                return false
            }
            written += n
            lastProgress = now
        }
        // All written: the buffer (a page can be 500 KB, a download megabytes) is let go.
        output = []
        written = 0
        return true
    }
}
