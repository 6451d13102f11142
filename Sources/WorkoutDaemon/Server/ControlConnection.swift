import Glibc
import WorkoutCore

/// One client of the control socket. Reads request lines, queues reply lines, and writes them
/// as the socket accepts them (never blocking the loop on a slow reader).
final class ControlConnection: PolledConnection {
    /// What the connection is doing.
    enum Mode {
        /// Request/response (the default).
        case requests
        /// Subscribed with `watch`: receives an event line after every change.
        case watching
        /// Flushing its last reply, then closing (after a protocol violation).
        case closing
        /// Reply sent and write side shut: input is read and dropped until the peer closes, so
        /// the peer reads the reply instead of a connection reset.
        case draining
        /// A request is being answered off the loop: its events and reply are queued as they
        /// come; the client's next requests are held in `lines` until the reply is done.
        /// `input`: whether the client may still send (after the reply: `requests`) or has shut
        /// its writing side, which cancels the work (after the reply: `closing`).
        case awaiting(PendingReply, input: ClientInput)
    }

    /// Whether a client answered off the loop may still send.
    enum ClientInput {
        case open
        /// Shut for writing (or closed) while the reply was pending.
        case finished
    }

    let fd: Int32
    let id: Int
    var mode = Mode.requests
    var lines: LineFramer
    var output: [UInt8] = []
    var outputOffset = 0
    var lastActivity: Double
    /// When the unfinished request line now buffered began (nil when no partial line is held):
    /// a request must be complete within the client timeout however steadily it trickles in.
    var partialSince: Double?
    var token: EventLoop.Token = 0
    /// Descriptors received (SCM_RIGHTS) and not yet taken by a request, in arrival order.
    var descriptors: [Int32] = []
    /// When this turn of the loop began serving it (see `ControlServer.turnBudget`).
    var turnStarted = 0.0

    init(fd: Int32, id: Int, maxLine: Int, now: Double) {
        self.fd = fd
        self.id = id
        self.lines = LineFramer(maxLine: maxLine)
        self.lastActivity = now
    }

    var pendingOutput: Int { output.count - outputOffset }

    var isAwaiting: Bool {
        switch mode {
        case .awaiting: return true
        case .requests, .watching, .closing, .draining: return false
        }
    }

    /// The first `n` received descriptors, or nil (and nothing taken) when fewer arrived.
    func takeDescriptors(_ n: Int) -> [Int32]? {
        guard descriptors.count >= n else { return nil }
        defer { descriptors.removeFirst(n) }
        return Array(descriptors.prefix(n))
    }

    /// Closes every descriptor not taken by a request.
    func closeDescriptors() {
        for fd in descriptors { close(fd) }
        descriptors.removeAll()
    }

    /// Serialises `json` straight onto the end of the output buffer (the writer borrows it).
    func queue(_ json: JSON) {
        var w = JSONWriter(capacity: 0)
        swap(&w.bytes, &output)
        w.value(json)
        swap(&w.bytes, &output)
        output.append(UInt8(ascii: "\n"))
    }

    /// Queues a line already encoded (without its newline).
    func queue(encoded line: [UInt8]) {
        output.append(contentsOf: line)
        output.append(UInt8(ascii: "\n"))
    }

    func queue(_ reply: ControlReply) {
        switch reply {
        case .value(let json): queue(json)
        case .encodedSuccess(let line): queue(encoded: line)
        case .pending: break  // queued line by line as it comes
        }
    }

    /// Writes what the socket takes now. Returns false when the peer is gone.
    func flush() -> Bool {
        while outputOffset < output.count {
            let n = output.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + outputOffset, output.count - outputOffset, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return true }
                return false
            }
            outputOffset += n
        }
        output.removeAll(keepingCapacity: output.capacity < 1 << 20)
        outputOffset = 0
        return true
    }
}
