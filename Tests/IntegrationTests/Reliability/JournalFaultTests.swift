import Foundation
import Glibc
import Testing
import TestRequirements

extension ReliabilitySuite {
    /// Issue 15 item 4: the state disk is full at start-up and the journal ends in a torn record.
    /// The damaged end cannot be copied aside; it must still be cut (and said so), so records
    /// written later are not appended after the torn line and lost at the next restore.
    @Suite struct JournalFaultTests {
        static func points(_ d: some DaemonUnderTest) throws -> Int {
            ((try d.request(#"{"command":"status"}"#)["workout"] as? [String: Any])?["pointCount"] as? Int) ?? -1
        }

        @Test(.requires(.root))
        func fullStateDiskWithATornJournalTail() throws {
            guard Reliability.requireRoot() else { return }
            let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"journalFlushSeconds":0.1,"autoResumeAfterRestore":true}"#)
            let mount = d.dir + "/s"
            try Reliability.mountTmpfs(mount, size: "256k")
            defer { Reliability.unmount(mount) }
            try d.start()
            #expect(try d.request(#"{"command":"start","activity":"walking"}"#)["ok"] as? Bool == true)
            let t0 = Date().timeIntervalSince1970
            var feeder = FixFeeder(socket: d.feedSocket, start: t0, rate: 20)
            usleep(1_500_000)
            feeder.stop()
            usleep(400_000)  // flushed (0.1 s)
            let before = try Self.points(d)
            d.kill9()

            // A torn record at the end, then the disk filled to the last block.
            let journal = d.stateDir + "/current.journal"
            let torn = #"{"r":"fix","t":17"#
            let fd = open(journal, O_WRONLY | O_APPEND)
            _ = torn.withCString { write(fd, $0, strlen($0)) }
            close(fd)
            _ = try Reliability.run(["/bin/dd", "if=/dev/zero", "of=\(mount)/filler", "bs=4k"])
            var vfs = statvfs()
            #expect(statvfs(mount, &vfs) == 0 && vfs.f_bavail == 0, "the state disk is full")

            try d.start()
            let log = d.stderrText()
            print("reliability: restore with the state disk full: \(log.split(separator: "\n").first { $0.contains("journal") } ?? "(nothing logged)")")
            #expect(log.contains("journal.torn_end_cut") && log.contains("No space left on device"), "said so: \(log)")
            let text = try String(contentsOfFile: journal, encoding: .utf8)
            #expect(text.hasSuffix("\n") && !text.contains(torn), "the torn record was cut")
            #expect(try Self.points(d) == before, "restored \(before) points")

            // Room again: the workout goes on, and what is recorded now is restored after a crash.
            try FileManager.default.removeItem(atPath: mount + "/filler")
            _ = try? d.request(#"{"command":"resume"}"#)
            feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, index0: 1000, rate: 20)
            usleep(1_500_000)
            feeder.stop()
            usleep(400_000)
            let counted = try Self.points(d)
            #expect(counted > before)
            d.kill9()
            try d.start()
            let restored = try Self.points(d)
            print("reliability: torn journal + full disk, then \(counted - before) more fixes and a crash: restored \(restored) of \(counted)")
            #expect(restored == counted, "every fix after the cut was restored")
            d.stop()
        }

        /// Issue 27 item 2: the state disk fills for 4 s mid-recording and frees again, then a
        /// kill. Before: status counted 91-120 points, restore gave 31 (a fix record cut at byte
        /// 4,096 with the rewritten buffer glued on; restore stopped there). Now a failed write
        /// is cut back to whole records: every counted fix is restored.
        @Test(.requires(.root))
        func stateDiskFillsAndFreesThenAKill() throws {
            guard Reliability.requireRoot() else { return }
            let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"autoResumeAfterRestore":true,"log":{"level":"warning"}}"#)
            let mount = d.dir + "/s"
            try Reliability.mountTmpfs(mount, size: "256k")
            defer { Reliability.unmount(mount) }
            try d.start()
            #expect(try d.request(#"{"command":"start","activity":"walking"}"#)["ok"] as? Bool == true)
            let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 10)
            usleep(1_500_000)
            // Fill the disk for 4 s (the journal's last page keeps some room: a short write).
            _ = try Reliability.run(["/bin/dd", "if=/dev/zero", "of=\(mount)/filler", "bs=4k"])
            usleep(4_000_000)
            let duringFull = try Self.points(d)
            let error = (try d.request(#"{"command":"status"}"#)["saveError"] as? String) ?? ""
            try FileManager.default.removeItem(atPath: mount + "/filler")
            usleep(1_500_000)
            feeder.stop()
            usleep(300_000)  // the last read turn written
            let counted = try Self.points(d)
            d.kill9()
            try d.start()
            let restored = try Self.points(d)
            let journal = try String(contentsOfFile: d.stateDir + "/current.journal", encoding: .utf8)
            Reliability.report("state disk full for 4 s at 10 Hz, then a kill", "status counted \(counted) points (\(duringFull) while full, saveError \"\(error)\"), restored \(restored)")
            #expect(error.contains("No space left on device"), "the full disk was noticed: \(error)")
            #expect(restored == counted, "every counted fix restored: \(restored) of \(counted)")
            #expect(!d.stderrText().contains("journal.kept_aside"), "no damaged record")
            #expect(journal.split(separator: "\n").allSatisfy { $0.contains("*") })
            d.stop()
        }
    }
}
