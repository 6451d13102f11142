import Foundation
import Glibc
import Testing
@testable import WorkoutDaemon

/// Issue 15 item 5 and the "unreadable journal" message, against the daemon (embedded): a FIFO
/// in the journal's place does not hang start-up and is kept aside as unreadable; a journal whose
/// line ends became CRLF is restored.
@Suite(.serialized) struct JournalRestoreTests {
    @Test(.timeLimit(.minutes(1))) func fifoInTheJournalsPlaceDoesNotHangStartUp() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try FileManager.default.createDirectory(atPath: d.stateDir, withIntermediateDirectories: true)
        let journal = d.stateDir + "/current.journal"
        #expect(mkfifo(journal, 0o600) == 0)
        let t0 = Date()
        try d.start()  // restores the journal; hung before (open of the FIFO blocked)
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

    /// The journal is flushed (`journalFlushSeconds` on the test's clock), the directories copied
    /// as a SIGKILL would leave them, and the copy's journal turned CRLF before the next start.
    @Test func crlfJournalIsRestored() throws {
        let clock = ManualClock()
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"journalFlushSeconds":0.1}"#, clock: clock)
        try d.start()
        #expect(try d.request(#"{"command":"start","activity":"walking"}"#)["ok"] as? Bool == true)
        // A second of fixes at 20 Hz, 3 m/s east, each sent at its time on the daemon's clock and
        // read before the clock moves on (a request first reads what the feed socket holds).
        let feed = try UnixClient(path: d.feedSocket)
        defer { feed.close() }
        for i in 0..<20 {
            let lon = 11.5 + Double(i) * 3 / 20 / (111_320 * cos(48.1 * .pi / 180))
            try feed.send(#"{"class":"FIX","time":"\#(FixFeeder.iso(clock.wall()))","lat":48.1,"lon":\#(String(format: "%.8f", lon)),"alt":500,"mode":3,"eph":3}"# + "\n")
            _ = try d.request(#"{"command":"status"}"#)
            d.advance(0.05)
        }
        d.advance(0.3)  // journal flushes
        let counted = (try d.request(#"{"command":"status"}"#)["workout"] as? [String: Any])?["pointCount"] as? Int ?? -1
        let next = try EmbeddedDaemon(copyingStateOf: d)
        d.stop()
        let journal = next.stateDir + "/current.journal"
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        try text.replacingOccurrences(of: "\n", with: "\r\n").write(toFile: journal, atomically: false, encoding: .utf8)
        try next.start()
        defer { next.stop() }
        let s = try next.request(#"{"command":"status"}"#)
        let restored = (s["workout"] as? [String: Any])?["pointCount"] as? Int ?? -1
        print("CRLF journal: restored \(restored) of \(counted) points, state \(s["state"] ?? "?")")
        #expect(counted > 5 && restored == counted, "restored \(restored) of \(counted)")
    }
}
