import Foundation
import Glibc
import Testing
@testable import WorkoutDaemon
import WorkoutClient

/// Issue 27 item 7: an export into a pipe nobody reads must not hold the bulk worker. Before the
/// fix the worker waited on the reader (30 s per stalled chunk), so six such exports held an
/// unrelated import 28-97 s.
@Suite(.offPool) struct ExportPipeTests {
    struct Outcome: Sendable {
        var otherExportSeconds = -1.0
        var otherExportOK = false
        var otherBytesMatch = false
        var stuckAnsweredBeforeOther = true
        var importSeconds = -1.0
        var imported = false
        var stuckSeconds = -1.0
        var stuckReplies: [String] = []
        var statusAfter = false
    }

    /// A workout whose GPX export (~280 KB) is far more than a FIFO holds (64 KiB).
    static func gpx(points: Int, start: Double) -> String {
        var s = #"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"# + "\n"
        for i in 0..<points {
            s += #"<trkpt lat="48.1" lon="\#(String(format: "%.6f", 11.5 + Double(i) * 4e-5))"><ele>500</ele><time>\#(FixFeeder.iso(start + Double(i)))</time></trkpt>"# + "\n"
        }
        return s + "</trkseg></trk></gpx>\n"
    }

    /// Six exports into FIFOs whose readers never read (held open by the test), as the red team
    /// had them: another export and an import are answered at once while they wait, and after
    /// 4 s without progress (the test's stall; 30 s in use) each ends with an error naming its
    /// FIFO. The daemon still answers.
    @Test func anExportIntoAFIFONobodyReadsHoldsNoOtherWork() async throws {
        let d = try EmbeddedDaemon()
        d.ports.exportStallSeconds = 4
        try d.start()
        defer { d.stop() }
        let first = d.dir + "/a.gpx", second = d.dir + "/b.gpx"
        try Self.gpx(points: 2_500, start: 1_700_000_000).write(toFile: first, atomically: true, encoding: .utf8)
        try Self.gpx(points: 50, start: 1_700_100_000).write(toFile: second, atomically: true, encoding: .utf8)
        let imported = try d.request(#"{"command":"import","files":["\#(first)"]}"#)
        let id = try #require((imported["results"] as? [[String: Any]])?.first?["id"] as? String, "\(imported)")
        let fifos = (0..<6).map { d.dir + "/out\($0).fifo" }
        for fifo in fifos { #expect(mkfifo(fifo, 0o600) == 0) }

        let o = try await offPool { () throws -> Outcome in
            var o = Outcome()
            let held = fifos.map { open($0, O_RDWR | O_CLOEXEC) }  // both ends, so the open does not wait; never read
            defer { for fd in held { close(fd) } }
            var stuck: [LineConnection] = []
            let t0 = Reliability.monotonic()
            for fd in held {
                let c = try LineConnection.connect(path: d.controlSocket)
                try c.send(line: #"{"command":"export","id":"\#(id)","format":"gpx","descriptor":true}"#, descriptors: [fd])
                stuck.append(c)
            }

            // Another export, into a regular file, while the first waits on its reader.
            let out = d.dir + "/other.gpx"
            let outFD = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            let other = try LineConnection.connect(path: d.controlSocket)
            let t1 = Reliability.monotonic()
            try other.send(line: #"{"command":"export","id":"\#(id)","format":"gpx","descriptor":true}"#, descriptors: [outFD])
            close(outFD)
            if let line = try other.readLine(timeout: 10) {
                o.otherExportSeconds = Reliability.monotonic() - t1
                let r = try DaemonHarness.parse(String(decoding: line, as: UTF8.self))
                o.otherExportOK = r["ok"] as? Bool == true
                let size = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? -1
                o.otherBytesMatch = size > 100_000 && r["bytes"] as? Int == size
            }
            // The stuck exports have not answered yet (before the fix one answered first, when the
            // worker gave up on its reader).
            o.stuckAnsweredBeforeOther = stuck.contains { $0.wait(timeout: 0) != .timedOut }
            // And an import (the bulk worker again).
            let t2 = Reliability.monotonic()
            let r = (try? d.request(#"{"command":"import","files":["\#(second)"]}"#, timeoutSeconds: 10)) ?? [:]
            o.importSeconds = Reliability.monotonic() - t2
            o.imported = (r["results"] as? [[String: Any]])?.first?["result"] as? String == "imported"

            for c in stuck {
                if let line = try c.readLine(timeout: 20) {
                    o.stuckSeconds = Reliability.monotonic() - t0
                    o.stuckReplies.append(String(decoding: line, as: UTF8.self))
                }
            }
            o.statusAfter = (try? d.request(#"{"command":"status"}"#))?["ok"] as? Bool == true
            return o
        }
        print("reliability: 6 exports into FIFOs never read: other export \(String(format: "%.3f", o.otherExportSeconds)) s, import \(String(format: "%.3f", o.importSeconds)) s, stuck exports ended after \(String(format: "%.2f", o.stuckSeconds)) s")
        #expect(o.otherExportOK && o.otherBytesMatch, "the other export: \(o)")
        #expect(!o.stuckAnsweredBeforeOther, "a stuck export answered before the other one: it held the worker")
        #expect(o.imported, "\(o)")
        #expect(o.stuckReplies.count == 6)
        for (reply, fifo) in zip(o.stuckReplies, fifos) {
            #expect(reply.contains(#""code":"io_error""#) && reply.contains("the FIFO \(fifo)") && reply.contains("took nothing for 4 s"), "\(reply)")
        }
        #expect(o.stuckSeconds >= 3.9, "ended after \(o.stuckSeconds) s, before the stall")
        #expect(o.statusAfter)
        var log = ""
        for _ in 0..<100 where !log.contains("history.export_failed") {  // written by the log's thread, just after the reply
            log += d.stderrText()
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(log.split(separator: "\n").contains { $0.contains("history.export_failed") && $0.contains(fifos[0]) }, "\(log.suffix(800))")
    }
}
