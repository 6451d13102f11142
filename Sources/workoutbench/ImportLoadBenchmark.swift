import Glibc
import Synchronization
import WorkoutCore

/// `workoutbench import-load FOLDER [RATE]`: issue 16's responsiveness figure. A live ride is
/// fed to the daemon's feed socket in real time at RATE Hz (5), `status` is asked every 20 ms
/// on one connection, and `workoutctl import FOLDER` runs meanwhile (scripts/bench-import.sh
/// passes six re-timed copies of a 12 MB NMEA log). Reports the status latencies before and
/// during the import (p50, p99, max), the import's wall time, and whether every fix sent was
/// counted with none late.
enum ImportLoadBenchmark {
    static func run(_ args: [String]) {
        guard let folder = args.first else { BenchSupport.fail("usage: import-load FOLDER [RATE]") }
        let rate = args.count > 1 ? Double(args[1]) ?? 5 : 5
        let daemon = DaemonProcess()
        daemon.start()
        let ride = LiveRide(daemon, rate: rate)
        let baseline = ride.baseline(seconds: 3)

        let t0 = BenchSupport.now()
        let pid = BenchSupport.spawn([BenchSupport.binDir() + "/workoutctl", "import", folder], environment: daemon.environment)
        var latencies: [Double] = []
        var maxAge = 0.0
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            let (dt, line) = ride.status()
            latencies.append(dt)
            let s = (try? JSON.parse(line)) ?? .null
            maxAge = max(maxAge, s["gps"]?["lastFixAgeSeconds"]?.doubleValue ?? 0)
            usleep(20_000)
        }
        let importSeconds = BenchSupport.now() - t0
        let (sent, counted, late) = ride.stop()
        let imported = daemon.request(#"{"command":"list"}"#)["workouts"]?.arrayValue?.count ?? -1
        func ms(_ v: Double) -> String { BenchSupport.fmt(v * 1000, 2) }
        BenchSupport.report([("import_exit", String(status)), ("import_s", BenchSupport.fmt(importSeconds, 2)), ("workouts", String(imported)),
                             ("status_n", String(latencies.count)),
                             ("status_p50_ms", ms(BenchSupport.percentile(latencies, 0.5))),
                             ("status_p99_ms", ms(BenchSupport.percentile(latencies, 0.99))),
                             ("status_max_ms", ms(latencies.max() ?? .nan)),
                             ("baseline_p50_ms", ms(BenchSupport.percentile(baseline, 0.5))),
                             ("baseline_p99_ms", ms(BenchSupport.percentile(baseline, 0.99))),
                             ("baseline_max_ms", ms(baseline.max() ?? .nan)),
                             ("fixes_sent", String(sent)), ("fixes_counted", String(counted)), ("fixes_late", String(late)),
                             ("feeder_late_sends", String(ride.feeder.lateSends.load(ordering: .relaxed))),
                             ("max_fix_age_s", BenchSupport.fmt(maxAge, 2))])
    }
}
