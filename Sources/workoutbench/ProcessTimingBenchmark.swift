import Glibc
import WorkoutCore

/// `workoutbench status-process [RUNS]`: `workoutctl status` as a whole process (spawn to exit)
/// against a running daemon, RUNS times after 5 warm-up runs; median and percentiles.
enum ProcessTimingBenchmark {
    static func run(_ args: [String]) {
        let runs = args.first.flatMap { Int($0) } ?? 200
        let daemon = DaemonProcess()
        daemon.start()
        _ = daemon.request(#"{"command":"start","activity":"running"}"#)
        let ctl = BenchSupport.binDir() + "/workoutctl"
        let env = daemon.environment
        var times: [Double] = []
        for k in 0..<(runs + 5) {
            let t0 = BenchSupport.now()
            let status = BenchSupport.spawnAndWait([ctl, "status"], environment: env)
            let dt = BenchSupport.now() - t0
            if status != 0 { BenchSupport.fail("workoutctl status exited with \(status)") }
            if k >= 5 { times.append(dt) }
        }
        BenchSupport.report([("runs", String(runs)), ("median_ms", BenchSupport.fmt(BenchSupport.median(times) * 1000, 3)),
                             ("p90_ms", BenchSupport.fmt(BenchSupport.percentile(times, 0.9) * 1000, 3)),
                             ("min_ms", BenchSupport.fmt((times.min() ?? .nan) * 1000, 3))])
    }
}
