import Glibc
import Testing
import WorkoutSystem
@testable import WorkoutDaemon

/// `ExportWriter` on a loop with a manual clock and real pipes: a reader that keeps reading gets
/// every byte however slowly, one that stops is given up after the stall with its destination
/// named, one that closes is told so, and no more than `maxWaiting` wait at once.
@Suite struct ExportWriterTests {
    final class Box: @unchecked Sendable { var result: Result<Int, ExportWriter.Failure>? }

    static func pipePair() -> (read: Int32, write: Int32) {
        var p: [Int32] = [-1, -1]
        _ = pipe(&p)
        return (p[0], p[1])
    }

    /// Reads what is in the pipe now (non-blocking), at most `limit` bytes.
    static func drain(_ fd: Int32, limit: Int = 1 << 20) -> Int {
        setNonBlockingCloExec(fd)
        var buf = [UInt8](repeating: 0, count: 1 << 16), total = 0
        while total < limit {
            let n = read(fd, &buf, min(buf.count, limit - total))
            if n <= 0 { break }
            total += n
        }
        return total
    }

    @Test func aSlowReaderGetsEverythingAndAStoppedOneIsGivenUp() throws {
        let clock = ManualClock()
        let loop = try EventLoop(clock: clock)
        let writer = ExportWriter(loop: loop, stallSeconds: 30, totalSeconds: 600)
        let bytes = [UInt8](repeating: 0x41, count: 400_000)

        // Slow: 16 KiB every 20 s (never 30 s without progress), 100+ s in all.
        let slow = Self.pipePair(), slowBox = Box()
        writer.start(bytes, into: slow.write) { slowBox.result = $0 }
        var received = 0
        while slowBox.result == nil, received < bytes.count + 1 {
            try loop.advanceTime(by: 20)
            received += Self.drain(slow.read, limit: 16 << 10)
            try loop.runReady()
        }
        received += Self.drain(slow.read)
        guard case .success(let n) = slowBox.result else { Issue.record("slow reader: \(String(describing: slowBox.result))"); return }
        #expect(n == bytes.count && received == bytes.count)
        close(slow.read)

        // Stopped: after the pipe is full nothing is read; given up 30 s after the last write.
        let stopped = Self.pipePair(), stoppedBox = Box()
        writer.start(bytes, into: stopped.write) { stoppedBox.result = $0 }
        try loop.advanceTime(by: 29)
        #expect(stoppedBox.result == nil && writer.waitingCount == 1)
        try loop.advanceTime(by: 2)
        guard case .failure(let failure) = stoppedBox.result else { Issue.record("stopped reader: \(String(describing: stoppedBox.result))"); return }
        #expect(failure.description.hasPrefix("the reader of the pipe pipe:[") && failure.description.contains("took nothing for 30 s (65536 of 400000 bytes written)"),
                "\(failure)")
        #expect(writer.waitingCount == 0)
        #expect(fcntl(stopped.write, F_GETFD) == -1, "the descriptor is closed")
        close(stopped.read)
    }

    @Test func aClosedReaderAndTooManyWaiting() throws {
        signal(SIGPIPE, SIG_IGN)
        let clock = ManualClock()
        let loop = try EventLoop(clock: clock)
        let writer = ExportWriter(loop: loop, stallSeconds: 30, totalSeconds: 600, maxWaiting: 2)
        let bytes = [UInt8](repeating: 0x42, count: 200_000)
        let closing = Self.pipePair(), closingBox = Box()
        writer.start(bytes, into: closing.write) { closingBox.result = $0 }
        close(closing.read)
        try loop.runReady()
        guard case .failure(.closed(_, let written, let total)) = closingBox.result else { Issue.record("\(String(describing: closingBox.result))"); return }
        #expect(written == 65536 && total == 200_000)

        var readEnds: [Int32] = []
        var boxes: [Box] = []
        for _ in 0..<3 {
            let p = Self.pipePair(), b = Box()
            readEnds.append(p.read); boxes.append(b)
            writer.start(bytes, into: p.write) { b.result = $0 }
        }
        #expect(boxes[0].result == nil && boxes[1].result == nil)
        guard case .failure(.busy(waiting: 2)) = boxes[2].result else { Issue.record("\(String(describing: boxes[2].result))"); return }
        // A small export that fits at once is never refused.
        let small = Self.pipePair(), smallBox = Box()
        writer.start([1, 2, 3], into: small.write) { smallBox.result = $0 }
        guard case .success(3) = smallBox.result else { Issue.record("\(String(describing: smallBox.result))"); return }
        // The whole limit: 600 s even for a reader that keeps taking a little.
        for _ in 0..<31 {
            try loop.advanceTime(by: 20)
            for r in readEnds.prefix(2) { _ = Self.drain(r, limit: 4096) }  // one page: the pipe takes more
            try loop.runReady()
        }
        for b in boxes.prefix(2) {
            guard case .failure(.tooLong(_, 600, _, _)) = b.result else { Issue.record("\(String(describing: b.result))"); continue }
        }
        for r in readEnds + [small.read] { close(r) }
    }
}
