import Foundation
import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// A file's head is read without its points, also when the head passes the first 64 KiB.
@Suite struct HistoryReaderTests {
    /// Bytes this thread has read through read(2)/pread(2) (`rchar` of /proc/thread-self/io).
    static func bytesReadByThisThread() -> Int {
        let text = (try? String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix("rchar:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? -1
    }

    /// Issue 27 item 6, seen again: a 1.5 M-point import peaked at 268 MB (154 MB in two other
    /// runs) when the history follower read its new file's head. The summary of such a workout
    /// (thousands of splits) is over 64 KiB, and the reader then read the whole file, 171 MB,
    /// to decode a head of a few hundred KB. Here a head of ~300 KB before 24 MB of other
    /// members: the reader takes 4 times more each time it needs more, so well under 2 MB.
    @Test func aHeadOver64KiBIsReadWithoutTheRestOfTheFile() throws {
        let dir = JournalTests.tempDir()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let start = 1_795_340_000.0
        var s = WorkoutSummary(id: WorkoutID(start: start, suffix: 1), activity: .running, startedAt: start, endedAt: start + 600)
        s.elapsedSeconds = 600
        let w = Workout(summary: s, points: [], source: "recorded")
        var bytes = WorkoutFile.encode(w)
        #expect(bytes.first == UInt8(ascii: "{") && bytes.last.map { $0 == UInt8(ascii: "}") || $0 == 10 } == true)
        while bytes.last == 10 { bytes.removeLast() }
        // An unknown member of ~300 KB before the summary (the head decoder skips it, as it
        // would a long summary), and 24 MB after it.
        let pad = Array(#"{"padding":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 300_000) + Array(#"","#.utf8)
        bytes.replaceSubrange(0..<1, with: pad)
        bytes.removeLast()
        bytes += Array(#","filler":""#.utf8) + [UInt8](repeating: UInt8(ascii: "y"), count: 24_000_000) + Array(#""}"#.utf8)
        let path = dir + "/w.json"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))

        let before = Self.bytesReadByThisThread()
        let (head, _) = try HistoryReader.read(path: path)
        let read = Self.bytesReadByThisThread() - before
        #expect(head.summary.id == s.id && head.source == "recorded")
        #expect(before >= 0 && read < 2_000_000, "read \(read) bytes of a \(bytes.count)-byte file for its head")
    }
}
