import Foundation
import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// Issue 27 item 3: a journal rolls into segments instead of growing into a size cliff (a
/// journal over 256 MiB was "kept aside" at restart: the whole workout lost).
@Suite struct JournalSegmentTests {
    static let id = WorkoutID(start: 1_800_000_000, suffix: 1)

    static func record(_ j: Journal, fixes: Int, from k0: Int = 0) {
        for k in k0..<(k0 + fixes) {
            j.appendFix(Fix(time: 1_800_000_001 + Double(k), latitude: 48 + Double(k) * 1e-5, longitude: 11))
            if k % 10 == 9 { j.flush(alive: 1_800_000_001 + Double(k)) }
        }
        j.flush(alive: 1_800_000_001 + Double(k0 + fixes))
    }

    static func fixTimes(_ r: Journal.Recovery) -> [Double] {
        r.records.compactMap { if case .fix(let f) = $0 { return f.time } else { return nil } }
    }

    /// A small segment size: the journal becomes several files, read back in order as one,
    /// removed, set aside and kept aside as one.
    @Test func aLongJournalRollsIntoSegmentsReadBackInOrder() throws {
        let dir = JournalTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/current.journal"
        let j = Journal(path: path, segmentBytes: 8 << 10)
        j.appendNow(.started(id: Self.id, activity: .running, time: 1_800_000_000))
        Self.record(j, fixes: 600)
        #expect(j.lastError == nil)
        let sealed = JournalSegments(path: path).sealedPaths()
        #expect(sealed.count >= 8, "600 fixes of ~130 bytes in 8 KiB segments: \(sealed.count) sealed")
        for s in sealed {
            var st = stat()
            #expect(stat(s, &st) == 0 && st.st_size >= 8 << 10 && st.st_size < 9 << 10, "sealed at the first record past the size")
        }
        let r = try #require(Journal(path: path).recover(now: 1_800_001_000))
        #expect(r.badBytes == 0 && r.keptAside == nil)
        #expect(Self.fixTimes(r) == (0..<600).map { 1_800_000_001 + Double($0) }, "every fix, in order")
        guard case .started? = r.records.first else { Issue.record("starts with the start record"); return }

        // Set aside (a new workout starts before this one is saved): every segment moves.
        let aside = try #require(j.setAside(Self.id))
        #expect(!j.exists)
        #expect(j.setAsidePaths() == [aside])
        #expect(Self.fixTimes(try #require(Journal(path: aside).recover(now: 1_800_001_000))).count == 600)
        #expect(j.setAsideFiles(Self.id).count == sealed.count + 1)

        // Kept aside (unrestorable): every segment moves, nothing left under the journal's name.
        let k = Journal(path: aside)
        let kept = try #require(k.keepAside(reason: "unrestorable", now: 1_800_001_000))
        #expect(!k.exists && Journal(path: kept).exists)
        #expect(Self.fixTimes(try #require(Journal(path: kept).recover(now: 1_800_001_000))).count == 600)

        // Removed: every segment goes, each released.
        var released: [Int32] = []
        Journal(path: kept).remove { released.append($0) }
        #expect(released.count == sealed.count + 1)
        released.forEach { _ = close($0) }
        #expect(JournalRecoveryTests.names(dir).isEmpty)
    }

    /// A crash right after a segment was sealed (no active segment yet): still one journal,
    /// restored whole, and the next record starts the new active segment after it.
    @Test func sealedSegmentsWithoutAnActiveOne() throws {
        let dir = JournalTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/current.journal"
        let j = Journal(path: path, segmentBytes: 4 << 10)
        j.appendNow(.started(id: Self.id, activity: .running, time: 1_800_000_000))
        Self.record(j, fixes: 100)
        unlink(path)  // as if the crash came between the seal and the next write
        let restored = Journal(path: path, segmentBytes: 4 << 10)
        #expect(restored.exists)
        let r = try #require(restored.recover(now: 1_800_001_000))
        let before = Self.fixTimes(r)
        #expect(before.count > 50 && r.badBytes == 0)
        Self.record(restored, fixes: 10, from: 1000)
        let again = try #require(Journal(path: path).recover(now: 1_800_001_000))
        #expect(Self.fixTimes(again) == before + (1000..<1010).map { 1_800_000_001 + Double($0) })
    }
}
