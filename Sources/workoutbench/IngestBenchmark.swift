import Glibc
import WorkoutCore

/// `workoutbench ingest [FIXES]`: the real daemon, a running workout with the journal on, and
/// FIXES JSON fix lines (10 Hz times) written to the feed socket as fast as it takes them.
/// Rate = fixes recorded (status pointCount) / seconds from the first byte sent until the last
/// fix is counted.
enum IngestBenchmark {
    static func run(_ args: [String]) {
        let count = args.first.flatMap { Int($0) } ?? 500_000
        let daemon = DaemonProcess()
        daemon.start()
        guard daemon.request(#"{"command":"start","activity":"running"}"#)["ok"]?.boolValue == true else {
            BenchSupport.fail("start refused")
        }
        let lines = FixLines.make(count: count, start: BenchSupport.wallNow().rounded(.up) + 1, interval: 0.1)
        let t0 = BenchSupport.now()
        guard FixLines.send(lines, to: daemon.feedSocket) else { BenchSupport.fail("feed socket closed") }
        let sent = BenchSupport.now() - t0
        var last = -1, lastChange = BenchSupport.now(), n = 0
        while true {
            n = daemon.pointCount()
            if n >= count { break }
            if n != last { last = n; lastChange = BenchSupport.now() }
            if BenchSupport.now() - lastChange > 10 { break }
            usleep(5_000)
        }
        let dt = BenchSupport.now() - t0
        BenchSupport.report([("fixes_sent", String(count)), ("fixes_recorded", String(n)), ("seconds", BenchSupport.fmt(dt, 3)),
                             ("send_seconds", BenchSupport.fmt(sent, 3)), ("fixes_per_s", String(Int(Double(n) / dt))),
                             ("rss_kb", String(daemon.rssKB))])
    }
}
