import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing
import WorkoutCore
@testable import WorkoutDaemon

@Suite struct JournalTests {
    static func tempDir() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("wj.\(UUID().uuidString.prefix(8))").path
    }

    /// The periodic flush writes on the caller's thread and fsyncs on another queue: the bytes are
    /// in the file when it returns (before the sync has run), one sync is in flight at a time, and
    /// its result comes back through `done`.
    @Test func backgroundFlushWritesAtOnceAndSyncsElsewhere() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let j = Journal(path: dir + "/current.journal")
        j.appendNow(.started(id: WorkoutID(start: 1_800_000_000, suffix: 1), activity: .running, time: 1_800_000_000))
        for k in 0..<10 { j.appendFix(Fix(time: 1_800_000_001 + Double(k), latitude: 48, longitude: 11)) }
        let syncer = DispatchQueue(label: "test.journal-sync")
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        syncer.async { gate.wait() }  // hold the syncer: the flush must not wait for it
        let results = Mutex<[SystemError?]>([])
        j.flushInBackground(alive: 1_800_000_011, on: syncer) { e in results.withLock { $0.append(e) }; finished.signal() }
        let lines = try String(contentsOfFile: dir + "/current.journal", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 12, "start, 10 fixes and the alive mark written before any sync ran")
        // A second flush while the first sync waits: written, no second sync started.
        j.appendFix(Fix(time: 1_800_000_012, latitude: 48, longitude: 11))
        j.flushInBackground(alive: 1_800_000_012, on: syncer) { e in results.withLock { $0.append(e) }; finished.signal() }
        #expect(try String(contentsOfFile: dir + "/current.journal", encoding: .utf8).split(separator: "\n").count == 14)
        gate.signal()
        #expect(finished.wait(timeout: .now() + 5) == .success)
        syncer.sync {}
        #expect(results.withLock { $0.count } == 1, "one sync in flight at a time")
        #expect(results.withLock { $0.first! } == nil)
        j.backgroundSyncFinished(nil)
        #expect(j.lastError == nil)
    }

    /// `remove` drops the name at once and hands over a descriptor of the unlinked file: the
    /// caller's close (off the event loop in the daemon) is what frees its blocks.
    @Test func removeUnlinksAndHandsOverTheLastDescriptor() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let j = Journal(path: dir + "/current.journal")
        let id = WorkoutID(start: 1_800_000_000, suffix: 1)
        j.appendNow(.started(id: id, activity: .running, time: 1_800_000_000))
        for k in 0..<1000 { j.appendFix(Fix(time: 1_800_000_001 + Double(k), latitude: 48, longitude: 11)) }
        j.flush(alive: 1_800_001_001)
        #expect(j.exists)
        var released: [Int32] = []
        j.remove { released.append($0) }
        #expect(!j.exists)
        try #require(released.count == 1)
        var st = stat()
        #expect(fstat(released[0], &st) == 0)
        #expect(st.st_nlink == 0, "the descriptor is of the unlinked journal")
        #expect(st.st_size > 50_000, "and holds what was written")
        #expect(close(released[0]) == 0)

        // The next workout starts a fresh journal (no leftover moved aside, no stale descriptor).
        j.appendNow(.started(id: WorkoutID(start: 1_800_002_000, suffix: 2), activity: .running, time: 1_800_002_000))
        #expect(j.lastError == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(names == ["current.journal"])
        let text = try String(contentsOfFile: dir + "/current.journal", encoding: .utf8)
        #expect(text.split(separator: "\n").count == 1)
    }

    /// A journal not open in this process (restored, or never written) is removed the same way.
    @Test func removeWithoutAnOpenDescriptor() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/current.journal"
        try "left by an earlier run\n".write(toFile: path, atomically: false, encoding: .utf8)
        let j = Journal(path: path)
        var released: [Int32] = []
        j.remove { released.append($0) }
        #expect(!j.exists)
        #expect(released.count == 1)
        released.forEach { _ = close($0) }

        // Nothing to remove: nothing to release.
        j.remove { released.append($0) }
        #expect(released.count == 1)
    }

    /// Issue 27 item 2: the state disk fills mid-recording and frees again. A write the full disk
    /// cut short (the rest of the file's last page taken) left half a record, and the retry
    /// glued the whole buffer after it: restore stopped there (31 of 91-120 counted points).
    /// Now a failed write is cut back to whole records, and the retry writes them once.
    @Test func aWriteCutShortByAFullDiskLeavesWholeRecords() throws {
        guard let disk = SmallDisk.mount(size: "64k") else { return }
        defer { disk.unmount() }
        let path = disk.path + "/current.journal"
        let j = Journal(path: path)
        j.appendNow(.started(id: WorkoutID(start: 1_800_000_000, suffix: 1), activity: .running, time: 1_800_000_000))
        var counted = 0
        func fixes(_ n: Int) {
            for _ in 0..<n {
                j.appendFix(Fix(time: 1_800_000_001 + Double(counted) * 0.1, latitude: 48 + Double(counted) * 1e-5, longitude: 11))
                counted += 1
            }
            j.writeBuffered()
        }
        fixes(25)
        #expect(j.lastError == nil)
        let filler = disk.fill()
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_size % 4096 != 0, "room left in the journal's last page")
        fixes(100)  // more than that room: a short write, then ENOSPC
        #expect(j.lastError?.code == ENOSPC)
        fixes(10)
        #expect(j.lastError?.code == ENOSPC)
        unlink(filler)
        fixes(5)
        #expect(j.lastError == nil)
        let r = try #require(Journal(path: path).recover(now: 1_800_001_000))
        #expect(r.badBytes == 0, "whole records only")
        #expect(r.records.count == 1 + counted, "every counted fix restored: \(r.records.count - 1) of \(counted)")
    }
}
