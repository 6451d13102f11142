import Foundation
import Glibc
import Testing
import TestRequirements
@testable import WorkoutDaemon

extension ReliabilitySuite {
    /// Issue 15 item 4: the state disk is full at start-up and the journal ends in a torn record.
    /// The damaged end cannot be copied aside; it must still be cut (and said so), so records
    /// written later are not appended after the torn line and lost at the next restore.
    /// The state disk is a real tmpfs filled by `dd` (root); the daemon is embedded on a
    /// `ManualClock`, and a kill is what it leaves on disk: the next daemon starts on a copy of
    /// its directories (`EmbeddedDaemon(copyingStateOf:)`), its state directory on a tmpfs of its
    /// own where the test needs that disk full.
    @Suite struct JournalFaultTests {
        static func points(_ d: some DaemonUnderTest) throws -> Int {
            ((try d.request(#"{"command":"status"}"#)["workout"] as? [String: Any])?["pointCount"] as? Int) ?? -1
        }

        /// Sends `count` fixes of a `rate` Hz track from fix time `start` (track index `index0`),
        /// one write each, as a receiver sends them (one feed read turn, one journal write each):
        /// each is counted by the workout (which held `before` points), then the clock moves to
        /// the next fix's time. Returns the next fix's time.
        static func feed(_ d: EmbeddedDaemon, start: Double, index0: Int = 0, before: Int, count: Int, rate: Int) throws -> Double {
            let c = try UnixClient(path: d.feedSocket)
            defer { c.close() }
            for k in 0..<count {
                try c.send(ShutdownRestartTests.fixLines(start: start, from: k, count: 1, index0: index0, rate: rate))
                try d.waitForStatus(seconds: 5) { (ShutdownRestartTests.pointCount($0) ?? 0) >= before + k + 1 }
                d.advance(1 / Double(rate))
            }
            return start + Double(count) / Double(rate)
        }

        /// `dir` moved onto a fresh tmpfs of `size` mounted in its place, its files copied over.
        static func ontoTmpfs(_ dir: String, size: String) throws {
            try FileManager.default.moveItem(atPath: dir, toPath: dir + ".copy")
            try Reliability.mountTmpfs(dir, size: size)
            let r = try Reliability.run(["/bin/cp", "-a", dir + ".copy/.", dir])
            #expect(r.status == 0, "cp: \(r.err)")
            try FileManager.default.removeItem(atPath: dir + ".copy")
        }

        @Test(.requires(.root))
        func fullStateDiskWithATornJournalTail() throws {
            guard Reliability.requireRoot() else { return }
            let clock = ManualClock()
            let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"journalFlushSeconds":0.1,"autoResumeAfterRestore":true}"#, clock: clock)
            let mount = d.dir + "/s"
            try Reliability.mountTmpfs(mount, size: "256k")
            defer { Reliability.unmount(mount) }
            try d.start()
            defer { d.stop() }
            #expect(try d.request(#"{"command":"start","activity":"walking"}"#)["ok"] as? Bool == true)
            var next = try Self.feed(d, start: clock.wall(), before: 0, count: 30, rate: 20)  // 1.5 s; flushed (0.1 s)
            let before = try Self.points(d)

            // The kill: the next daemon starts on what is on disk now, its state disk the same
            // 256 KiB tmpfs, with a torn record at the journal's end, then filled to the last block.
            let restarted = try EmbeddedDaemon(copyingStateOf: d)
            let mount2 = restarted.dir + "/s"
            try Self.ontoTmpfs(mount2, size: "256k")
            defer { Reliability.unmount(mount2) }
            let journal = restarted.stateDir + "/current.journal"
            let torn = #"{"r":"fix","t":17"#
            let fd = open(journal, O_WRONLY | O_APPEND)
            _ = torn.withCString { write(fd, $0, strlen($0)) }
            close(fd)
            _ = try Reliability.run(["/bin/dd", "if=/dev/zero", "of=\(mount2)/filler", "bs=4k"])
            var vfs = statvfs()
            #expect(statvfs(mount2, &vfs) == 0 && vfs.f_bavail == 0, "the state disk is full")

            try restarted.start()
            defer { restarted.stop() }
            let log = restarted.stderrText()
            print("reliability: restore with the state disk full: \(log.split(separator: "\n").first { $0.contains("journal") } ?? "(nothing logged)")")
            #expect(log.contains("journal.torn_end_cut") && log.contains("No space left on device"), "said so: \(log)")
            let text = try String(contentsOfFile: journal, encoding: .utf8)
            #expect(text.hasSuffix("\n") && !text.contains(torn), "the torn record was cut")
            #expect(try Self.points(restarted) == before, "restored \(before) points")

            // Room again: the workout goes on, and what is recorded now is restored after a crash.
            try FileManager.default.removeItem(atPath: mount2 + "/filler")
            _ = try? restarted.request(#"{"command":"resume"}"#)
            next = try Self.feed(restarted, start: next, index0: 1000, before: before, count: 30, rate: 20)
            let counted = try Self.points(restarted)
            #expect(counted > before)
            let last = try EmbeddedDaemon(copyingStateOf: restarted)
            try last.start()
            defer { last.stop() }
            let restored = try Self.points(last)
            print("reliability: torn journal + full disk, then \(counted - before) more fixes and a crash: restored \(restored) of \(counted)")
            #expect(restored == counted, "every fix after the cut was restored")
        }

        /// Issue 27 item 2: the state disk fills for 4 s mid-recording and frees again, then a
        /// kill. Before: status counted 91-120 points, restore gave 31 (a fix record cut at byte
        /// 4,096 with the rewritten buffer glued on; restore stopped there). Now a failed write
        /// is cut back to whole records: every counted fix is restored.
        @Test(.requires(.root))
        func stateDiskFillsAndFreesThenAKill() throws {
            guard Reliability.requireRoot() else { return }
            let clock = ManualClock()
            let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"autoResumeAfterRestore":true,"log":{"level":"warning"}}"#, clock: clock)
            let mount = d.dir + "/s"
            try Reliability.mountTmpfs(mount, size: "256k")
            defer { Reliability.unmount(mount) }
            try d.start()
            defer { d.stop() }
            #expect(try d.request(#"{"command":"start","activity":"walking"}"#)["ok"] as? Bool == true)
            var next = try Self.feed(d, start: clock.wall(), before: 0, count: 15, rate: 10)
            // Fill the disk for 4 s at 10 Hz (the journal's last page keeps some room: a short write).
            _ = try Reliability.run(["/bin/dd", "if=/dev/zero", "of=\(mount)/filler", "bs=4k"])
            next = try Self.feed(d, start: next, index0: 15, before: 15, count: 40, rate: 10)
            let duringFull = try Self.points(d)
            let error = (try d.request(#"{"command":"status"}"#)["saveError"] as? String) ?? ""
            try FileManager.default.removeItem(atPath: mount + "/filler")
            _ = try Self.feed(d, start: next, index0: 55, before: 55, count: 15, rate: 10)
            let counted = try Self.points(d)
            let restarted = try EmbeddedDaemon(copyingStateOf: d)
            try restarted.start()
            defer { restarted.stop() }
            let restored = try Self.points(restarted)
            let journal = try String(contentsOfFile: restarted.stateDir + "/current.journal", encoding: .utf8)
            Reliability.report("state disk full for 4 s at 10 Hz, then a kill", "status counted \(counted) points (\(duringFull) while full, saveError \"\(error)\"), restored \(restored)")
            #expect(error.contains("No space left on device"), "the full disk was noticed: \(error)")
            #expect(restored == counted, "every counted fix restored: \(restored) of \(counted)")
            #expect(!restarted.stderrText().contains("journal.kept_aside"), "no damaged record")
            #expect(journal.split(separator: "\n").allSatisfy { $0.contains("*") })
        }
    }
}
