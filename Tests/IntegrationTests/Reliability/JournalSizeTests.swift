import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutCore

extension ReliabilitySuite {
    /// Issue 27 item 3: a journal over 256 MiB (64 h at 10 Hz, 2 h at 300 Hz) lost the whole
    /// workout at restart ("Unreadable journal kept aside ... more than the limit"). The journal
    /// is now read in chunks whatever its size (and a new one rolls into segments:
    /// `JournalSegmentTests`). Heavy: 300 MB through a debug build takes ~15 s of CPU. The daemon is
    /// embedded: the time to ready is its start-up (the restore) without a process's.
    /// Opt-in (`heavy`): .ci/reliability.sh runs it alone, in a test process of its own.
    @Suite(.requires(ReliabilitySuite.heavy)) struct JournalSizeTests {
        @Test func aJournalOver300MBIsRestored() throws {
            let d = try EmbeddedDaemon(config: #"{"log":{"level":"warning"}}"#)
            try FileManager.default.createDirectory(atPath: d.stateDir, withIntermediateDirectories: true)
            let path = d.stateDir + "/current.journal"
            let t0 = (Date().timeIntervalSince1970 - 3600).rounded()
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            func put(_ r: JournalRecord) { _ = Array(r.encodeLine().utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
            put(.started(id: WorkoutID(start: t0, suffix: 7), activity: .running, time: t0))
            for k in 0..<100 { put(.fix(Fix(time: t0 + 1 + Double(k), latitude: 48 + Double(k) * 3e-5, longitude: 11))) }
            // Padding that is cheap to replay: markers of 1 MiB.
            let marker = Array(JournalRecord.marker(time: t0 + 101, text: String(repeating: "m", count: 1 << 20)).encodeLine().utf8)
            var size = 0
            while size <= 300_000_000 { size += marker.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
            for k in 100..<200 { put(.fix(Fix(time: t0 + 1 + Double(k), latitude: 48 + Double(k) * 3e-5, longitude: 11))) }
            put(.alive(time: t0 + 201))
            var st = stat()
            fstat(fd, &st)
            close(fd)
            let started = Reliability.monotonic()
            try d.start()  // the restore is part of the start: ready when it returns
            let seconds = Reliability.monotonic() - started
            let status = try d.request(#"{"command":"status"}"#)
            let w = status["workout"] as? [String: Any]
            #expect(w?["pointCount"] as? Int == 200, "every fix, before and after 300 MB: \(String(describing: w?["pointCount"]))")
            #expect(status["state"] as? String == "paused", "restored, paused: \(String(describing: status["state"]))")
            let names = try FileManager.default.contentsOfDirectory(atPath: d.stateDir)
            #expect(!names.contains { $0.contains("unreadable") }, "\(names)")
            Reliability.report("restore of a \(st.st_size / 1_000_000) MB journal", "\(w?["pointCount"] as? Int ?? -1) of 200 fixes restored, ready after \(String(format: "%.1f", seconds)) s (debug build)")
            d.stop()
        }
    }
}
