import Glibc
import WorkoutCore

/// `workoutbench memory`: resident memory of the daemon idle (1.5 s after ready, and settled
/// 3.5 s after), then with a 24-hour 1 Hz workout
/// (86,400 fixes fed fast) in progress; then `stop` of that workout while `status` is asked
/// continuously: how long the save takes (stop answered -> idle) and the slowest status reply
/// (`status_max_index`: which one; the last is the reply that saw the save finished).
enum MemoryBenchmark {
    static func run(_ args: [String]) {
        let fixes = args.first.flatMap { Int($0) } ?? 86_400
        let daemon = DaemonProcess()
        daemon.start()
        BenchSupport.sleep(1.5)
        let idle = daemon.rssKB
        // Settled: past the daemon's own settling (`Daemon.settleSeconds`, 2 s after ready,
        // when the code start-up ran is handed back).
        BenchSupport.sleep(2)
        let settled = daemon.rssKB
        _ = daemon.request(#"{"command":"start","activity":"running"}"#)
        let lines = FixLines.make(count: fixes, start: BenchSupport.wallNow().rounded(.up) + 1, interval: 1)
        guard FixLines.send(lines, to: daemon.feedSocket) else { BenchSupport.fail("feed socket closed") }
        let t0 = BenchSupport.now()
        while daemon.pointCount() < fixes {
            if BenchSupport.now() - t0 > 60 { BenchSupport.fail("only \(daemon.pointCount()) of \(fixes) fixes recorded") }
            usleep(10_000)
        }
        BenchSupport.sleep(1.5)  // a journal flush and a status tick
        let active = daemon.rssKB

        // Save: stop, then ask status back to back until idle.
        guard let client = ControlClient(path: daemon.controlSocket) else { BenchSupport.fail("connect") }
        let s0 = BenchSupport.now()
        guard client.request(#"{"command":"stop"}"#)?["ok"]?.boolValue == true else { BenchSupport.fail("stop refused") }
        let stopReply = BenchSupport.now() - s0
        var latencies: [Double] = []
        var saved = Double.nan
        while BenchSupport.now() - s0 < 30 {
            let q0 = BenchSupport.now()
            guard let r = client.request(#"{"command":"status"}"#) else { BenchSupport.fail("status failed") }
            latencies.append(BenchSupport.now() - q0)
            if r["state"]?.stringValue == "idle" { saved = BenchSupport.now() - s0; break }
        }
        let after = daemon.rssKB
        BenchSupport.report([("idle_rss_kb", String(idle)), ("settled_rss_kb", String(settled)), ("active_rss_kb", String(active)), ("fixes", String(fixes)),
                             ("after_save_rss_kb", String(after)),
                             ("stop_reply_ms", BenchSupport.fmt(stopReply * 1000)),
                             ("save_ms", BenchSupport.fmt(saved * 1000)),
                             ("status_during_save", String(latencies.count)),
                             ("status_max_ms", BenchSupport.fmt((latencies.max() ?? .nan) * 1000, 3)),
                             ("status_median_ms", BenchSupport.fmt(BenchSupport.median(latencies) * 1000, 3)),
                             ("status_max_index", String(latencies.indices.max { latencies[$0] < latencies[$1] } ?? -1))])
    }
}
