import Foundation
import Glibc
import Testing
@testable import WorkoutDaemon
import Synchronization

/// Issue 26, item 4: when `poll(2)` failed, the loop broke out and `run` returned 0 without a
/// word or a journal flush, so systemd's `Restart=on-failure` never fired. Now the daemon logs
/// `daemon.loop_failed`, writes and fsyncs the journal, and exits 70; the next start restores
/// the workout. (The daemon's poller port fails once when the test says; its loop's exit status
/// is what workoutd exits with.)
@Suite struct LoopFailureTests {
    @Test func aPollFailureIsLoggedAndExitsNonZeroKeepingTheWorkout() throws {
        let fail = Mutex(false), failed = Mutex(0)
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0,"journalFlushSeconds":1}"#)
        d.ports.poller = { epollFD, events, capacity, timeout in
            if fail.withLock({ f in defer { f = false }; return f }) { failed.withLock { $0 += 1 }; errno = ENOMEM; return -1 }
            return EventLoop.wait(epollFD, events, capacity, timeout)
        }
        try d.start()
        let id = try #require((try d.request(#"{"command":"start","activity":"running"}"#)["workout"] as? [String: Any])?["id"] as? String)
        let feed = try UnixClient(path: d.feedSocket)
        defer { feed.close() }
        let t0 = Date().timeIntervalSince1970
        for i in 0..<5 {
            try feed.send(#"{"class":"FIX","time":"\#(FixFeeder.iso(t0 + Double(i)))","lat":48.1,"lon":\#(11.5 + Double(i) * 0.00004),"mode":3,"eph":3}"# + "\n")
        }
        try d.waitForStatus(seconds: 5) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int) == 5 }
        fail.withLock { $0 = true }
        guard let status = d.waitForExit(seconds: 5) else {  // the 1 s tick wakes the loop at the latest
            Issue.record("the loop still ran 5 s after poll(2) began to fail")
            return
        }
        #expect(status == 70, "exit status \(status): Restart=on-failure needs non-zero")
        let log = d.stderrText()
        #expect(log.contains("event=daemon.loop_failed") && log.contains("poll"), "\(log.suffix(600))")
        #expect(!log.contains("event=daemon.stopped"), "a failed loop is not a clean stop")
        #expect(CrashRestoreTests.journalFixTimes(d).count == 5, "the journal holds every counted fix")
        #expect(failed.withLock { $0 } == 1, "poll failed once")
        let next = try EmbeddedDaemon(copyingStateOf: d)
        try next.start()
        defer { next.stop() }
        let restored = try next.waitForStatus(seconds: 5) { $0["state"] as? String == "paused" }
        #expect((restored["workout"] as? [String: Any])?["id"] as? String == id)
        #expect((restored["workout"] as? [String: Any])?["pointCount"] as? Int == 5)
    }
}
