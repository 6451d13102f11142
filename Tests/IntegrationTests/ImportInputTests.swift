import Foundation
import Glibc
import Testing

/// Issue 15 item 9 (the daemon's own reads): import refuses what is not a regular file before
/// reading it: a FIFO hung the daemon, /dev/urandom stalled it for seconds.
@Suite(.serialized) struct ImportInputTests {
    @Test(.timeLimit(.minutes(1))) func fifoAndDeviceAreRefusedWithoutStalling() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        defer { d.stop() }
        let fifo = d.dir + "/track.gpx"
        #expect(mkfifo(fifo, 0o644) == 0)
        for (path, kind) in [(fifo, "a FIFO"), ("/dev/urandom", "a character device")] {
            let t0 = Date()
            let r = try d.ctl(["--json", "import", path])
            let took = Date().timeIntervalSince(t0)
            print("import \(path): exit \(r.status) in \(String(format: "%.3f", took)) s")
            #expect(r.status == 1)
            // Refused by the client before it passes a descriptor, or by the daemon's fstat.
            #expect(r.stdout.contains(kind) && r.stdout.contains("not a regular file"), "\(r.stdout) \(r.stderr)")
            #expect(took < 5)
            #expect(try d.request(#"{"command":"status"}"#)["ok"] as? Bool == true)
        }
    }
}
