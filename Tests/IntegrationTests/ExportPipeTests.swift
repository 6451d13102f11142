import Foundation
import Glibc
import Testing
@testable import WorkoutDaemon
import WorkoutClient

/// Issue 27 item 7: an export into a pipe nobody reads must not hold the bulk worker. Before the
/// fix the worker waited on the reader (30 s per stalled chunk), so six such exports held an
/// unrelated import 28-97 s. Embedded on a `ManualClock`: the stall is the test's clock moving.
@Suite struct ExportPipeTests {
    /// A workout whose GPX export (~280 KB) is far more than a FIFO holds (64 KiB).
    static func gpx(points: Int, start: Double) -> String {
        var s = #"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"# + "\n"
        for i in 0..<points {
            s += #"<trkpt lat="48.1" lon="\#(String(format: "%.6f", 11.5 + Double(i) * 4e-5))"><ele>500</ele><time>\#(FixFeeder.iso(start + Double(i)))</time></trkpt>"# + "\n"
        }
        return s + "</trkseg></trk></gpx>\n"
    }

    /// Six exports into FIFOs whose readers never read (held open by the test), as the red team
    /// had them: another export and an import are answered at once while they wait; none of them
    /// has ended 3.9 s later on the daemon's clock, and at 4 s without progress (the test's
    /// stall; 30 s in use) each ends with an error naming its FIFO. The daemon still answers.
    @Test func anExportIntoAFIFONobodyReadsHoldsNoOtherWork() throws {
        let d = try EmbeddedDaemon(clock: ManualClock())
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

        let held = fifos.map { open($0, O_RDWR | O_CLOEXEC) }  // both ends, so the open does not wait; never read
        defer { for fd in held { close(fd) } }
        var stuck: [LineConnection] = []
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
        let otherLine = try #require(try other.readLine(timeout: 10), "the other export answered")
        let otherExportSeconds = Reliability.monotonic() - t1
        let r = try DaemonHarness.parse(String(decoding: otherLine, as: UTF8.self))
        let size = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? -1
        #expect(r["ok"] as? Bool == true && size > 100_000 && r["bytes"] as? Int == size, "the other export: \(r), \(size) bytes")
        // The stuck exports have not answered yet (before the fix one answered first, when the
        // worker gave up on its reader).
        #expect(!stuck.contains { $0.wait(timeout: 0) != .timedOut }, "a stuck export answered before the other one: it held the worker")
        // And an import (the bulk worker again).
        let t2 = Reliability.monotonic()
        let i = (try? d.request(#"{"command":"import","files":["\#(second)"]}"#, timeoutSeconds: 10)) ?? [:]
        let importSeconds = Reliability.monotonic() - t2
        #expect((i["results"] as? [[String: Any]])?.first?["result"] as? String == "imported", "\(i)")

        // No progress for 3.9 s of the daemon's clock: still waiting on their readers.
        d.advance(3.9)
        #expect(!stuck.contains { $0.wait(timeout: 0.1) != .timedOut }, "a stuck export ended before its 4 s stall")
        // 4 s: each ends with an error naming its FIFO.
        d.advance(0.2)
        var stuckReplies: [String] = []
        for c in stuck {
            if let line = try c.readLine(timeout: 10) { stuckReplies.append(String(decoding: line, as: UTF8.self)) }
        }
        print("reliability: 6 exports into FIFOs never read: other export \(String(format: "%.3f", otherExportSeconds)) s, import \(String(format: "%.3f", importSeconds)) s, stuck exports still waiting at 3.9 s and ended by 4.1 s of the daemon's clock")
        #expect(stuckReplies.count == 6)
        for (reply, fifo) in zip(stuckReplies, fifos) {
            #expect(reply.contains(#""code":"io_error""#) && reply.contains("the FIFO \(fifo)") && reply.contains("took nothing for 4 s"), "\(reply)")
        }
        #expect((try? d.request(#"{"command":"status"}"#))?["ok"] as? Bool == true)
        var log = ""
        // Written by the log's thread, just after the reply.
        pollUntil(seconds: 5) { log += d.stderrText(); return log.contains("history.export_failed") }
        #expect(log.split(separator: "\n").contains { $0.contains("history.export_failed") && $0.contains(fifos[0]) }, "\(log.suffix(800))")
    }
}
