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
    /// The feeder: one fix line every 1/rate s of wall time, stamped with that time.
    final class Feeder: Sendable {
        let path: String
        let interval: Double
        let stopFlag = Atomic<Bool>(false)
        let sentCount = Atomic<Int>(0)
        let lateSends = Atomic<Int>(0)

        init(path: String, rate: Double) { self.path = path; self.interval = 1 / rate }

        func start() {
            let box = Unmanaged.passRetained(self)
            var thread = pthread_t()
            _ = pthread_create(&thread, nil, { arg in
                let f = Unmanaged<Feeder>.fromOpaque(arg!).takeRetainedValue()
                f.run()
                return nil
            }, box.toOpaque())
        }

        private func run() {
            guard let c = ControlClient(path: path) else { BenchSupport.fail("feed socket") }
            let t0 = (BenchSupport.wallNow() * 5).rounded(.up) / 5 + 0.2
            var k = 0
            while !stopFlag.load(ordering: .acquiring) {
                let t = t0 + Double(k) * interval
                let wait = t - BenchSupport.wallNow()
                if wait > 0 { usleep(UInt32(wait * 1e6)) } else if wait < -0.05 { lateSends.add(1, ordering: .relaxed) }
                let d = 6 * Double(k) * interval
                let line = "{\"class\":\"FIX\",\"time\":\"\(ISO8601.format(t, fractionDigits: 1))\",\"lat\":\(formatFixed(48.1 + d / 111_320, decimals: 7)),\"lon\":11.5,\"alt\":520.0,\"speed\":6.0,\"mode\":3,\"eph\":4}\n"
                guard c.send(line) else { BenchSupport.fail("feed socket closed") }
                sentCount.add(1, ordering: .releasing)
                k += 1
            }
        }
    }

    static func run(_ args: [String]) {
        guard let folder = args.first else { BenchSupport.fail("usage: import-load FOLDER [RATE]") }
        let rate = args.count > 1 ? Double(args[1]) ?? 5 : 5
        let daemon = DaemonProcess()
        daemon.start()
        _ = daemon.request(#"{"command":"start","activity":"cycling"}"#)
        let feeder = Feeder(path: daemon.feedSocket, rate: rate)
        feeder.start()
        BenchSupport.sleep(1.5)
        guard let client = ControlClient(path: daemon.controlSocket) else { BenchSupport.fail("connect") }
        func sample() -> (Double, JSON) {
            let q0 = BenchSupport.now()
            guard client.send(#"{"command":"status"}"# + "\n"), let line = client.readLine() else { BenchSupport.fail("status failed") }
            let dt = BenchSupport.now() - q0
            return (dt, (try? JSON.parse(line)) ?? .null)
        }
        var baseline: [Double] = []
        let b0 = BenchSupport.now()
        while BenchSupport.now() - b0 < 3 { baseline.append(sample().0); usleep(20_000) }

        let t0 = BenchSupport.now()
        let pid = BenchSupport.spawn([BenchSupport.binDir() + "/workoutctl", "import", folder], environment: daemon.environment)
        var latencies: [Double] = []
        var maxAge = 0.0
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            let (dt, s) = sample()
            latencies.append(dt)
            maxAge = max(maxAge, s["gps"]?["lastFixAgeSeconds"]?.doubleValue ?? 0)
            usleep(20_000)
        }
        let importSeconds = BenchSupport.now() - t0
        feeder.stopFlag.store(true, ordering: .releasing)
        BenchSupport.sleep(1.3)  // the last fixes are read at the next wake-up (1 s at the latest)
        let sent = feeder.sentCount.load(ordering: .acquiring)
        let w = daemon.status()["workout"]
        let counted = w?["pointCount"]?.intValue ?? -1
        let late = w?["rejected"]?["out_of_order"]?.intValue ?? 0
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
                             ("feeder_late_sends", String(feeder.lateSends.load(ordering: .relaxed))),
                             ("max_fix_age_s", BenchSupport.fmt(maxAge, 2))])
    }
}
