import Glibc
import WorkoutCore
import WorkoutSystem

/// Writes exports into the pipes and sockets clients pass (`workoutctl export ID | less`, a
/// FIFO) from the event loop: one non-blocking write each time the descriptor can take more, so
/// a reader that stops reading holds only its own export, never the bulk worker (issue 27 item
/// 7: six exports nobody read held an unrelated import 28-97 s). An export gives up, with an
/// error naming its destination, when its reader took nothing for `stallSeconds` or the whole
/// took longer than `totalSeconds`; at most `maxWaiting` wait at once (each holds its encoded
/// file in memory). Regular files are written on the worker (`BulkWorker.write`): they never wait
/// on a reader. Loop-confined.
final class ExportWriter {
    /// Why an export into a pipe or socket did not complete.
    enum Failure: Error, CustomStringConvertible {
        case stalled(destination: String, seconds: Double, written: Int, total: Int)
        case tooLong(destination: String, seconds: Double, written: Int, total: Int)
        case closed(destination: String, written: Int, total: Int)
        case failed(destination: String, reason: String)
        case busy(waiting: Int)

        var description: String {
            switch self {
            case .stalled(let d, let s, let w, let t):
                return "the reader of \(d) took nothing for \(JSON.format(s)) s (\(w) of \(t) bytes written): export abandoned"
            case .tooLong(let d, let s, let w, let t):
                return "writing into \(d) took longer than \(JSON.format(s)) s (\(w) of \(t) bytes written): export abandoned"
            case .closed(let d, let w, let t): return "the reader of \(d) closed it after \(w) of \(t) bytes"
            case .failed(let d, let reason): return "writing into \(d): \(reason)"
            case .busy(let n): return "\(n) exports are already waiting for their readers: try again when they are read"
            }
        }
    }

    /// One export being written: its bytes, how far, and its descriptor's watch and timer.
    private final class Transfer {
        let fd: Int32
        let bytes: [UInt8]
        let destination: String
        let started: Double
        let done: (Result<Int, Failure>) -> Void
        var offset = 0
        var lastProgress: Double
        var watch: EventLoop.Token?
        var timer: EventLoop.Token?
        init(fd: Int32, bytes: [UInt8], destination: String, started: Double, done: @escaping (Result<Int, Failure>) -> Void) {
            self.fd = fd; self.bytes = bytes; self.destination = destination; self.started = started; self.lastProgress = started; self.done = done
        }
    }

    private let loop: EventLoop
    let stallSeconds: Double
    let totalSeconds: Double
    let maxWaiting: Int
    private var waiting: [Int32: Transfer] = [:]
    /// At most this much is written per wake-up of the loop (a pipe takes 64 KiB anyway).
    static let chunkBytes = 256 << 10

    init(loop: EventLoop, stallSeconds: Double = 30, totalSeconds: Double = 600, maxWaiting: Int = 16) {
        self.loop = loop
        self.stallSeconds = stallSeconds
        self.totalSeconds = totalSeconds
        self.maxWaiting = maxWaiting
    }

    /// How many exports wait for their readers now.
    var waitingCount: Int { waiting.count }

    /// Writes `bytes` into `fd` (a pipe or socket, made non-blocking here) and closes it; `done`
    /// gets the byte count or why not, on the loop (at once when all of it fits now).
    func start(_ bytes: [UInt8], into fd: Int32, done: @escaping (Result<Int, Failure>) -> Void) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        let t = Transfer(fd: fd, bytes: bytes, destination: Self.describe(fd), started: loop.now(), done: done)
        if let result = write(t) { close(fd); done(result); return }
        guard waiting.count < maxWaiting else { close(fd); done(.failure(.busy(waiting: waiting.count))); return }
        waiting[fd] = t
        t.watch = loop.watch(fd, events: Int16(POLLOUT)) { [weak self] _ in
            guard let self, let result = self.write(t) else { return }
            self.end(t, result)
        }
        schedule(t)
    }

    /// Ends every export still waiting (the shutdown): their descriptors are closed unanswered.
    func abandonAll() {
        for t in waiting.values {
            if let w = t.watch { loop.unwatch(w) }
            if let tm = t.timer { loop.cancel(tm) }
            close(t.fd)
        }
        waiting = [:]
    }

    /// Writes what the descriptor takes now; the result once done or failed, nil to wait.
    private func write(_ t: Transfer) -> Result<Int, Failure>? {
        var budget = Self.chunkBytes
        while t.offset < t.bytes.count, budget > 0 {
            let want = min(budget, t.bytes.count - t.offset)
            let n = t.bytes.withUnsafeBytes { Glibc.write(t.fd, $0.baseAddress! + t.offset, want) }
            if n < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN: return nil
                case EPIPE, ECONNRESET: return .failure(.closed(destination: t.destination, written: t.offset, total: t.bytes.count))
                default: return .failure(.failed(destination: t.destination, reason: String(cString: strerror(errno))))
                }
            }
            t.offset += n
            budget -= n
            t.lastProgress = loop.now()
        }
        return t.offset < t.bytes.count ? nil : .success(t.bytes.count)
    }

    /// The check due when the reader has stalled for `stallSeconds` or the total is reached.
    private func schedule(_ t: Transfer) {
        let due = min(t.lastProgress + stallSeconds, t.started + totalSeconds)
        t.timer = loop.at(due) { [weak self] in
            guard let self else { return }
            let now = self.loop.now()
            if now >= t.started + self.totalSeconds {
                self.end(t, .failure(.tooLong(destination: t.destination, seconds: self.totalSeconds, written: t.offset, total: t.bytes.count)))
            } else if now >= t.lastProgress + self.stallSeconds {
                self.end(t, .failure(.stalled(destination: t.destination, seconds: self.stallSeconds, written: t.offset, total: t.bytes.count)))
            } else {
                self.schedule(t)  // progress since: check again a stall after the last write
            }
        }
    }

    private func end(_ t: Transfer, _ result: Result<Int, Failure>) {
        guard waiting.removeValue(forKey: t.fd) != nil else { return }
        if let w = t.watch { loop.unwatch(w) }
        if let tm = t.timer { loop.cancel(tm) }
        close(t.fd)
        t.done(result)
    }

    /// "the FIFO /tmp/out", "the pipe pipe:[1234]", "the socket socket:[99]": what the user can
    /// recognise (`/proc/self/fd` names a FIFO by its path, an anonymous pipe by its inode).
    static func describe(_ fd: Int32) -> String {
        var st = stat()
        let kind: String
        if fstat(fd, &st) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFIFO: kind = "the pipe"
            case S_IFSOCK: kind = "the socket"
            default: kind = "the output"
            }
        } else {
            kind = "the output"
        }
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/fd/\(fd)", &buf, buf.count - 1)
        guard n > 0 else { return kind }
        let link = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if kind == "the pipe", link.hasPrefix("/") { return "the FIFO " + link }
        return kind + " " + link
    }
}
