import Dispatch
import Glibc
import Synchronization

/// Where log lines go without the caller ever waiting (issue 27 item 1: a stderr pipe nobody
/// read stalled the event loop in write(2) for over 15 s). `send` queues a line, at most
/// `capacity` bytes in all, and returns; a thread of the sink's own writes the queue out and
/// is the one that blocks when the descriptor is full. A line that finds the queue full is
/// dropped and counted; once the writer gets through again it writes one line saying how
/// many were dropped (`dropped`), after the lines queued before them, so order is kept.
final class LineSink: Sendable {
    /// Lines dropped while the queue was full: how many, and the wall times of the first and
    /// the last (the caller renders them as a log line).
    struct Drops: Sendable, Equatable {
        var count: Int
        var from: Double
        var to: Double
    }

    private struct State {
        var lines: [[UInt8]] = []
        var bytes = 0
        var drops: Drops?
        /// The writer holds lines taken from the queue and has not finished them.
        var writing = false
        var totalDropped = 0
        /// `close` was called: the writer ends once the queue is written.
        var closed = false
    }

    let capacity: Int
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let write: @Sendable ([UInt8]) -> Void
    private let dropsLine: @Sendable (Drops) -> [UInt8]

    /// - Parameters:
    ///   - capacity: bytes that may wait in the queue.
    ///   - write: writes one line (may block; runs on the sink's thread only).
    ///   - dropsLine: the line that reports dropped lines.
    init(capacity: Int = 256 << 10, write: @escaping @Sendable ([UInt8]) -> Void, dropsLine: @escaping @Sendable (Drops) -> [UInt8]) {
        self.capacity = capacity
        self.write = write
        self.dropsLine = dropsLine
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { arg in
            let sink = Unmanaged<LineSink>.fromOpaque(arg!).takeRetainedValue()
            sink.runWriter()
            return nil
        }, box.toOpaque())
        if rc == 0 { pthread_detach(thread) } else { box.release() }
    }

    /// Queues a line; never blocks. Returns false when it was dropped (the queue was full).
    @discardableResult
    func send(_ line: [UInt8], wallTime: Double) -> Bool {
        let queued = state.withLock { s -> Bool in
            guard s.bytes + line.count <= capacity, !s.closed else {
                s.totalDropped += 1
                if s.drops == nil { s.drops = Drops(count: 0, from: wallTime, to: wallTime) }
                s.drops!.count += 1
                s.drops!.to = wallTime
                return false
            }
            s.lines.append(line)
            s.bytes += line.count
            return true
        }
        if queued { wake.signal() }
        return queued
    }

    /// Lines dropped since the sink was made.
    var totalDropped: Int { state.withLock { $0.totalDropped } }

    /// True when every queued line has been written.
    var isIdle: Bool { state.withLock { $0.lines.isEmpty && !$0.writing && $0.drops == nil } }

    /// Waits until the queue is written out or `seconds` pass (at exit: the last lines, but
    /// never a hang on a pipe nobody reads). Returns whether it was written out.
    @discardableResult
    func drain(seconds: Double) -> Bool {
        wake.signal()
        var waited = 0.0
        while !isIdle {
            if waited >= seconds { return false }
            usleep(1000)
            waited += 0.001
        }
        return true
    }

    /// Lets the writer thread end once what is queued is written (lines sent later are dropped).
    func close() {
        state.withLock { $0.closed = true }
        wake.signal()
    }

    private func runWriter() {
        while true {
            wake.wait()
            while true {
                let (lines, drops) = state.withLock { s -> ([[UInt8]], Drops?) in
                    let taken = (s.lines, s.drops)
                    s.lines = []
                    s.bytes = 0
                    s.drops = nil
                    s.writing = taken.0.isEmpty && taken.1 == nil ? false : true
                    return taken
                }
                if lines.isEmpty && drops == nil {
                    if state.withLock({ $0.closed && $0.lines.isEmpty }) { return }
                    break
                }
                for line in lines { write(line) }
                // The dropped lines came after those queued before them: reported in their place.
                if let drops { write(dropsLine(drops)) }
                state.withLock { $0.writing = false }
            }
        }
    }
}

extension LineSink {
    /// Writes all of `bytes` to `fd`, waiting in poll(2) when a non-blocking descriptor is
    /// full; gives up on any other error (a closed reader: the line is lost, as the reader is).
    static func writeBlocking(_ fd: Int32, _ bytes: [UInt8]) {
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + off, $0.count - off) }
            if n > 0 { off += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, -1)
                continue
            }
            return
        }
    }
}
