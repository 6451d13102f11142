import Foundation
import Glibc
import Testing

/// Issue 15 item 5 and the "unreadable journal" message, against the real daemon: a FIFO in the
/// journal's place does not hang start-up and is kept aside as unreadable; a journal whose line
/// ends became CRLF is restored.
@Suite(.serialized, .offPool) struct JournalRestoreTests {
    @Test(.timeLimit(.minutes(1))) func fifoInTheJournalsPlaceDoesNotHangStartUp() throws {
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try FileManager.default.createDirectory(atPath: d.stateDir, withIntermediateDirectories: true)
        let journal = d.stateDir + "/current.journal"
        #expect(mkfifo(journal, 0o600) == 0)
        let t0 = Date()
        try d.start()  // waits for status; hung before (open of the FIFO blocked)
        let startUp = Date().timeIntervalSince(t0)
        print("journal is a FIFO: start-up took \(String(format: "%.2f", startUp)) s")
        #expect(try d.request(#"{"command":"status"}"#)["state"] as? String == "idle")
        let log = d.stderrText()
        #expect(log.contains("Unreadable journal kept aside") && log.contains("is a FIFO, not a regular file"), "\(log)")
        #expect(!log.contains("Damaged end"), "\(log)")
        #expect(!FileManager.default.fileExists(atPath: journal), "moved aside")
        let names = try FileManager.default.contentsOfDirectory(atPath: d.stateDir)
        #expect(names.contains { $0.hasPrefix("current.journal.unreadable-") }, "\(names)")
        // A workout can be recorded (a fresh journal is a regular file).
        #expect(try d.request(#"{"command":"start","activity":"running"}"#)["ok"] as? Bool == true)
        d.stop()
    }

    @Test func crlfJournalIsRestored() throws {
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"journalFlushSeconds":0.1}"#)
        try d.start()
        #expect(try d.request(#"{"command":"start","activity":"walking"}"#)["ok"] as? Bool == true)
        let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 20)
        usleep(1_000_000)
        feeder.stop()
        usleep(300_000)
        let counted = (try d.request(#"{"command":"status"}"#)["workout"] as? [String: Any])?["pointCount"] as? Int ?? -1
        d.kill9()
        let journal = d.stateDir + "/current.journal"
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: journal, atomically: false, encoding: .utf8)
        try d.start()
        let s = try d.request(#"{"command":"status"}"#)
        let restored = (s["workout"] as? [String: Any])?["pointCount"] as? Int ?? -1
        print("CRLF journal: restored \(restored) of \(counted) points, state \(s["state"] ?? "?")")
        #expect(counted > 5 && restored == counted, "restored \(restored) of \(counted)")
        d.stop()
    }
}
