import Foundation
import Glibc
import Testing

/// Issue 26, item 4: when `poll(2)` failed, the loop broke out and `run` returned 0 without a
/// word or a journal flush, so systemd's `Restart=on-failure` never fired. Now the daemon logs
/// `daemon.loop_failed`, writes and fsyncs the journal, and exits 70; the next start restores
/// the workout. (The test hook WORKOUTD_TEST_FAIL_POLL makes poll fail once its file exists.)
@Suite(.offPool) struct LoopFailureTests {
    @Test func aPollFailureIsLoggedAndExitsNonZeroKeepingTheWorkout() throws {
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0,"journalFlushSeconds":1}"#)
        let flag = d.dir + "/fail-poll"
        d.environment["WORKOUTD_TEST_FAIL_POLL"] = flag
        try d.start()
        let id = try #require((try d.request(#"{"command":"start","activity":"running"}"#)["workout"] as? [String: Any])?["id"] as? String)
        let feed = try UnixClient(path: d.feedSocket)
        defer { feed.close() }
        let t0 = Date().timeIntervalSince1970
        for i in 0..<5 {
            try feed.send(#"{"class":"FIX","time":"\#(FixFeeder.iso(t0 + Double(i)))","lat":48.1,"lon":\#(11.5 + Double(i) * 0.00004),"mode":3,"eph":3}"# + "\n")
        }
        try d.waitForStatus(seconds: 5) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int) == 5 }
        #expect(creat(flag, 0o600) >= 0)
        let p = try #require(d.process)
        for _ in 0..<200 where p.isRunning { usleep(25_000) }  // the 1 s tick wakes the loop at the latest
        guard !p.isRunning else {
            d.kill9()
            Issue.record("workoutd still running 5 s after poll(2) began to fail")
            return
        }
        #expect(p.terminationStatus == 70, "exit status \(p.terminationStatus): Restart=on-failure needs non-zero")
        let log = d.stderrText()
        #expect(log.contains("event=daemon.loop_failed") && log.contains("poll"), "\(log.suffix(600))")
        #expect(!log.contains("event=daemon.stopped"), "a failed loop is not a clean stop")
        #expect(CrashRestoreTests.journalFixTimes(d).count == 5, "the journal holds every counted fix")
        #expect(access(flag, F_OK) != 0, "the hook fires once")
        try d.start()
        let restored = try d.waitForStatus(seconds: 5) { $0["state"] as? String == "paused" }
        #expect((restored["workout"] as? [String: Any])?["id"] as? String == id)
        #expect((restored["workout"] as? [String: Any])?["pointCount"] as? Int == 5)
        d.stop()
    }
}
