import Foundation
import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// Issue 27 item 1: with stderr a pipe nobody reads, the daemon blocked in write(2) (status
/// unanswered for over 15 s, the watchdog starved). Logging now never blocks its caller, drops
/// and counts what does not fit, and says so once stderr takes lines again.
@Suite struct LoggerTests {
    struct Numbered: LogEvent {
        var k: Int
        var name: String { "test.numbered" }
        var message: String { "Line number \(k)" }
        var fields: [(String, LogValue)] { [("k", .int(k)), ("pad", .string(String(repeating: "p", count: 150)))] }
    }

    static func pipePair() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    /// Reads the pipe until a line satisfies `until` (or 25 s pass: a loaded CI machine); returns
    /// the lines read.
    static func readLines(_ fd: Int32, until: (String) -> Bool) -> [String] {
        var buffer: [UInt8] = []
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(25)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { break }
            buffer += chunk[0..<n]
            while let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                lines.append(line)
                if until(line) { return lines }
            }
        }
        return lines
    }

    /// 20,000 lines (3.5 MB) into a 64 KiB pipe nobody reads: every `log` returns (it blocked
    /// at about the 350th line before), the lines that did not fit are counted, and once the
    /// pipe is read the lines come in order, then one `log.dropped` line with that count.
    @Test(.timeLimit(.minutes(1))) func aFullStderrPipeNeverBlocksTheCaller() throws {
        let (r, w) = Self.pipePair()
        defer { close(r); close(w) }
        let logger = Logger(environment: [:], minimumLevel: .info, stderrFD: w)
        for k in 0..<20_000 { logger.log(Numbered(k: k), wallTime: 1_800_000_000 + Double(k) / 1000) }
        let dropped = logger.stderrDropped
        #expect(dropped > 15_000, "the pipe and the queue hold a few thousand lines at most: \(dropped) dropped")

        let lines = Self.readLines(r) { $0.contains("event=log.dropped") }
        let numbers = lines.compactMap { line -> Int? in
            guard line.contains("event=test.numbered") else { return nil }
            return line.split(separator: " ").first { $0.hasPrefix("k=") }.flatMap { Int($0.dropFirst(2)) }
        }
        #expect(numbers == Array(0..<numbers.count), "the lines written are the first ones, in order")
        #expect(numbers.count + dropped == 20_000, "each line written or counted")
        let report = try #require(lines.last)
        #expect(report.contains("lines=\(dropped)") && report.contains("level=warning"), "\(report)")
        #expect(report.contains("from=2026-") || report.contains("from=2027-"), "\(report)")

        // Read again: lines flow as before.
        logger.log(Numbered(k: 99_999), wallTime: 1_800_000_100)
        #expect(Self.readLines(r) { $0.contains("k=99999") }.last?.contains("k=99999") == true)
    }

    /// A 30 KB marker text was written into the log whole; now each value is bounded.
    @Test func everyLineIsBounded() throws {
        let (r, w) = Self.pipePair()
        defer { close(r); close(w) }
        let logger = Logger(environment: [:], minimumLevel: .info, stderrFD: w)
        let text = String(repeating: "é", count: 15_000)  // 30,000 bytes
        logger.log(LifecycleLogEvent.marker(WorkoutID(start: 1_800_000_000, suffix: 1), text), wallTime: 1_800_000_000)
        let line = try #require(Self.readLines(r) { $0.contains("event=workout.marker") }.last)
        #expect(line.utf8.count < 2400, "message and field each cut: \(line.utf8.count) bytes")
        let parsed = try #require(LogfmtParser.parse(line))
        let kept = try #require(parsed["text"])
        #expect(kept.hasPrefix(String(repeating: "é", count: 512)) && kept.hasSuffix("… [28976 bytes cut]"), "\(kept.suffix(40))")
    }
}
