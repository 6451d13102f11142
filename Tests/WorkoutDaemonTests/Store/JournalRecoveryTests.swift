import Foundation
import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// Issue 15 items 3 and 5: kept-aside names, CRLF journals, a FIFO in the journal's place.
@Suite struct JournalRecoveryTests {
    static func journal(_ dir: String, fixes: Int) -> Journal {
        let j = Journal(path: dir + "/current.journal")
        j.appendNow(.started(id: WorkoutID(start: 1_800_000_000, suffix: 1), activity: .running, time: 1_800_000_000))
        for k in 0..<fixes { j.appendFix(Fix(time: 1_800_000_001 + Double(k), latitude: 48 + Double(k) * 1e-4, longitude: 11)) }
        j.flush(alive: 1_800_000_100)
        return j
    }

    static func names(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }

    /// Two restarts in the same second each keep their damaged tail: the second must not
    /// overwrite the first (it did: both were `current.journal.damaged-<t>`).
    @Test func tornTailsKeptAsideInTheSameSecondGetTheirOwnNames() throws {
        let dir = JournalTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/current.journal"
        _ = Self.journal(dir, fixes: 3)
        var asides: [String] = []
        for tail in ["{\"r\":\"fix\",\"torn-one", "{\"r\":\"fix\",\"torn-two"] {
            let fd = open(path, O_WRONLY | O_APPEND)
            _ = tail.withCString { write(fd, $0, strlen($0)) }
            close(fd)
            let r = try #require(Journal(path: path).recover(now: 1_800_000_200.5))
            #expect(r.records.count == 5)
            asides.append(try #require(r.keptAside))
        }
        #expect(asides[0] != asides[1])
        #expect(try String(contentsOfFile: asides[0], encoding: .utf8) == "{\"r\":\"fix\",\"torn-one")
        #expect(try String(contentsOfFile: asides[1], encoding: .utf8) == "{\"r\":\"fix\",\"torn-two")

        // keepAside (unreadable / unrestorable / leftover) is unique the same way.
        let a = Journal(path: path).keepAside(reason: "damaged", now: 1_800_000_200.9)
        #expect(a != nil && !asides.contains(a!))
        #expect(Self.names(dir).count == 3)
    }

    /// A journal whose line ends became CRLF (copied through another system) is restored whole.
    @Test func crlfJournalIsRestored() throws {
        let dir = JournalTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/current.journal"
        _ = Self.journal(dir, fixes: 10)
        let lf = try String(contentsOfFile: path, encoding: .utf8)
        try lf.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: path, atomically: false, encoding: .utf8)
        let r = try #require(Journal(path: path).recover(now: 1_800_000_200))
        #expect(r.records.count == 12, "start, 10 fixes, alive")
        #expect(r.badBytes == 0 && r.keptAside == nil)
    }

    /// A FIFO in the journal's place is refused at once: reading it (open blocks until a writer
    /// comes) hung start-up before.
    @Test(.timeLimit(.minutes(1))) func fifoInTheJournalsPlaceIsRefusedWithoutBlocking() throws {
        let dir = JournalTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/current.journal"
        #expect(mkfifo(path, 0o600) == 0)
        let j = Journal(path: path)
        let t0 = Date()
        #expect(j.recover(now: 1_800_000_000) == nil)
        #expect(j.readError?.description.contains("is a FIFO, not a regular file") == true)
        // Nor does appending open it (O_WRONLY on a FIFO without a reader blocks too).
        j.appendFix(Fix(time: 1_800_000_001, latitude: 48, longitude: 11))
        j.flush(alive: 1_800_000_002)
        #expect(j.lastError?.description.contains("not a regular file") == true)
        #expect(Date().timeIntervalSince(t0) < 5)
        let aside = try #require(j.keepAside(reason: "unreadable", now: 1_800_000_000))
        #expect(aside.hasSuffix(".unreadable-1800000000"))
        #expect(!j.exists)
    }

    /// Never append after a torn record: when the torn end cannot be cut when recovered, the
    /// journal is cut before the next write (or nothing is written).
    @Test func noRecordFollowsATornOne() throws {
        let dir = JournalTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/current.journal"
        _ = Self.journal(dir, fixes: 3)
        let fd = open(path, O_WRONLY | O_APPEND)
        _ = "{\"r\":\"fix\",\"t\":18".withCString { write(fd, $0, strlen($0)) }
        close(fd)
        let j = Journal(path: path)
        let r = try #require(j.recover(now: 1_800_000_200))
        #expect(r.records.count == 5 && r.badBytes == 17)
        j.appendFix(Fix(time: 1_800_000_300, latitude: 48, longitude: 11))
        j.flush(alive: 1_800_000_301)
        let again = try #require(Journal(path: path).recover(now: 1_800_000_400))
        #expect(again.records.count == 7, "every record after the cut is read back")
        #expect(again.badBytes == 0)
    }

    /// Issue 27 item 4: one flipped bit mid-journal cost every later record (14 of 30 kept),
    /// though each has its own checksum. Now the bad record is skipped and kept aside, the
    /// others restored, and the journal is not cut (appends still follow the last record).
    @Test func aFlippedBitCostsOneRecordNotTheRest() throws {
        let dir = JournalTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/current.journal"
        _ = Self.journal(dir, fixes: 30)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        let line15 = lines[15]  // start is line 0: the 15th fix
        bytes[line15.startIndex + 20] ^= 0x04
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let j = Journal(path: path)
        let r = try #require(j.recover(now: 1_800_000_200))
        let fixes = r.records.filter { if case .fix = $0 { true } else { false } }.count
        #expect(fixes == 29, "29 of 30 fixes restored (before: 14)")
        #expect(r.records.count == 31 && r.skippedRecords == 1)
        #expect(r.badBytes == line15.count + 1)
        let aside = try #require(r.keptAside)
        #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == Data(bytes[line15.startIndex...line15.endIndex]))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == bytes.count, "nothing cut: the damage was mid-journal")
        // A record appended now is read back after all the others.
        j.appendFix(Fix(time: 1_800_000_300, latitude: 48, longitude: 11))
        j.flush(alive: nil)
        #expect(try #require(Journal(path: path).recover(now: 1_800_000_400)).records.count == 32)
    }

    /// A bad line, then good ones, then a torn end: the bad line is skipped, the torn end cut.
    @Test func skippedRecordsAndATornEnd() throws {
        let dir = JournalTests.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/current.journal"
        _ = Self.journal(dir, fixes: 5)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        let garbage = "garbage that is no record"
        let badSum = "{\"r\":\"lap\",\"t\":1800000003}*00000000"
        let torn = "{\"r\":\"fix\",\"p\":[18"
        lines.insert(garbage, at: 2)
        lines.insert(badSum, at: 4)
        text = lines.joined(separator: "\n") + "\n" + torn
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let r = try #require(Journal(path: path).recover(now: 1_800_000_200))
        #expect(r.records.count == 7 && r.skippedRecords == 2)
        #expect(r.tornBytes == torn.utf8.count && r.badBytes == garbage.utf8.count + 1 + badSum.utf8.count + 1 + torn.utf8.count)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasSuffix("}*" + String(lines.last!.suffix(8)) + "\n"), "torn end cut")
    }
}
