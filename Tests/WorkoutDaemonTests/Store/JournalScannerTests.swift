import Foundation
import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// The journal is read in chunks (it has no size limit): whatever the chunk size, the same
/// records, the same skipped lines and the same torn tail.
@Suite struct JournalScannerTests {
    static let torn = #"{"r":"fix","p":[1800000041,48"#

    static func journalBytes() -> (bytes: [UInt8], records: Int) {
        var text = JournalRecord.started(id: WorkoutID(start: 1_800_000_000, suffix: 1), activity: .running, time: 1_800_000_000).encodeLine()
        var records = 1
        for k in 0..<40 {
            text += JournalRecord.fix(Fix(time: 1_800_000_001 + Double(k), latitude: 48 + Double(k) * 1e-5, longitude: 11)).encodeLine()
            records += 1
            if k == 10 { text += "damaged line\n" }
            if k == 20 { text += JournalRecord.marker(time: 1_800_000_021, text: String(repeating: "long ", count: 300)).encodeLine(); records += 1 }
            if k == 30 { text += String(repeating: "z", count: 3000) + "\r\n" }  // a line over the limit below
            if k == 35 { text += JournalRecord.lap(time: 1_800_000_036).encodeLine().replacingOccurrences(of: "\n", with: "\r\n"); records += 1 }
        }
        text += torn
        return (Array(text.utf8), records)
    }

    @Test func everyChunkSizeReadsTheSame() throws {
        let dir = JournalTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/current.journal"
        let (bytes, records) = Self.journalBytes()
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var reference: JournalScanner.Result?
        for chunk in [1, 2, 3, 7, 64, 1000, 4096, 1 << 20] {
            var count = 0
            let r = try JournalScanner.scan(path, chunkBytes: chunk, maxLineBytes: 2048) { _ in count += 1 }
            #expect(count == records, "chunk \(chunk)")
            #expect(r.size == bytes.count)
            #expect(r.skippedLines == 2 && r.tailLines == 1, "chunk \(chunk): \(r.skippedLines) skipped, \(r.tailLines) torn")
            #expect(r.skippedBytes == 13 + 3002 && r.tailBytes == Self.torn.utf8.count)
            #expect(r.kept.count == 13 + 2048 + Self.torn.utf8.count, "a line over the limit is kept only up to it")
            if let reference { #expect(r.kept == reference.kept && r.goodEnd == reference.goodEnd, "chunk \(chunk)") }
            reference = reference ?? r
        }
    }
}
