import Glibc

/// Reads one wake-up's worth of a feed socket (at most `FeedBudget.seconds`) into a buffer it
/// keeps, and tells how the turn ended, which decides how the loop watches the feed next.
struct FeedReader {
    private var buffer = [UInt8](repeating: 0, count: FeedBudget.readBytes)
    /// Measures the budget (the loop's clock).
    let clock: any LoopClock

    init(clock: any LoopClock) { self.clock = clock }

    /// Reads until the socket is empty, `budget` seconds are spent, or the stream ends; hands
    /// every chunk to `body` in order. Returns how the turn ended and the bytes read.
    mutating func read(_ fd: Int32, budget: Double = FeedBudget.seconds,
                       _ body: (UnsafeRawBufferPointer) -> Void) -> (outcome: FeedReadOutcome, bytes: Int) {
        readChunks(fd, budget: budget) { body($0); return true }
    }

    /// `read`, where `body` may end the turn early by returning false (it spent the budget
    /// inside a chunk and keeps the rest of it): the turn then ends as `budgetSpent`. With
    /// `maxBytes`, the turn also ends (as `budgetSpent`) once that many bytes were read (at most
    /// one read's worth more, so that a close right after them is seen), unless the socket was
    /// emptied or closed first.
    mutating func readChunks(_ fd: Int32, budget: Double = FeedBudget.seconds, maxBytes: Int = .max,
                             _ body: (UnsafeRawBufferPointer) -> Bool) -> (outcome: FeedReadOutcome, bytes: Int) {
        let clock = self.clock  // read outside the buffer's exclusive access
        let began = clock.monotonic()
        var bytes = 0
        let outcome: FeedReadOutcome = buffer.withUnsafeMutableBytes { raw in
            repeat {
                let n = recv(fd, raw.baseAddress, raw.count, 0)
                if n < 0 && errno == EINTR { continue }
                if n < 0 && errno == EAGAIN { return .drained }
                if n < 0 { return .ended(errno: errno) }
                if n == 0 { return .ended(errno: 0) }
                bytes += n
                guard body(UnsafeRawBufferPointer(rebasing: raw[0..<n])) else { return .budgetSpent }
                if n < raw.count { return .drained }  // a stream socket gives what it holds
            } while clock.monotonic() - began < budget && bytes <= maxBytes
            return .budgetSpent
        }
        return (outcome, bytes)
    }
}

/// How a feed read turn ended.
enum FeedReadOutcome: Equatable {
    /// The socket is empty.
    case drained
    /// The budget ran out with input left: a flood (or a burst after a quiet spell).
    case budgetSpent
    /// The peer closed the stream (`errno` 0) or the read failed.
    case ended(errno: Int32)
}
