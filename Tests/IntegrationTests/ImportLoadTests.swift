import Foundation
import Glibc
import Testing
import TestRequirements

/// Issue 16, done-when: during a live ride fed at 5 Hz, `workoutctl import` of six copies of a
/// 12 MB NMEA log (nmea-rtk re-timed by scripts/retime-nmea.py, each copy on another day, built
/// in the test's temp dir) leaves the daemon responsive and every fix of the ride counted on
/// time. Before, the import ran on the event loop and froze it for seconds per file. The speed
/// targets (`status` p99 under 10 ms, max under 100 ms) are a benchmark, not asserted here
/// (`workoutbench import-load`, BENCHMARKS.md): this test reports the latencies it saw and
/// asserts only a bound no responsive loop comes near (a stalled loop takes seconds).
@Suite(.serialized, .requires(.sharedData, .program(.python3)))
struct ImportLoadTests {
    @Test func liveRideStaysResponsiveDuringALargeImport() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        let folder = d.dir + "/logs"
        let bytes = try RetimedLogs.write(capture: "nmea-rtk.log", seconds: 6700, copies: 6, into: folder)
        #expect(bytes >= 6 * 12_000_000, "six logs of 12 MB: \(bytes) bytes")

        _ = try d.request(#"{"command":"start","activity":"cycling"}"#)
        let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 5, speed: 6)
        // The ride under way: its fixes counted as they come.
        let riding = try d.waitForStatus(seconds: 10) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0) >= 5 }
        try #require((riding["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0 >= 5, "\(riding)")

        final class Box: @unchecked Sendable { var result: (status: Int32, out: String, err: String)?; var done = false; let lock = NSLock() }
        let box = Box()
        let env = d.environment
        let importer = Thread {
            let r = try? Reliability.run([DaemonHarness.binary("workoutctl"), "import", folder], environment: env)
            box.lock.lock(); box.result = r; box.done = true; box.lock.unlock()
        }
        var maxFixAge = 0.0
        let c = try UnixClient(path: d.controlSocket)
        defer { c.close() }
        /// `status` on one connection every `interval` seconds while `going()`: each reply's
        /// latency (the samples are the test's rate, not a wait for anything).
        func sample(every interval: Double, while going: () -> Bool) throws -> [Double] {
            var out: [Double] = []
            var pace = Pace(every: interval)
            while going() {
                let s = Reliability.monotonic()
                try c.send(#"{"command":"status"}"# + "\n")
                guard let line = try c.readLine() else { throw HarnessError.closed }
                out.append(Reliability.monotonic() - s)
                let status = try DaemonHarness.parse(line)
                if let age = (status["gps"] as? [String: Any])?["lastFixAgeSeconds"] as? Double { maxFixAge = max(maxFixAge, age) }
                pace.next()
            }
            return out
        }
        // The same sampling for 1 s before the import (50 samples): what this machine gives
        // without it, for the report.
        let b0 = Reliability.monotonic()
        let baseline = try sample(every: 0.02) { Reliability.monotonic() - b0 < 1 }
        maxFixAge = 0
        let t0 = Reliability.monotonic()
        importer.start()
        // Every 5 ms: the import takes ~1.5 s with the optimized core (160 s before, at -Onone),
        // and at least 50 samples must fall inside it.
        let latencies = try sample(every: 0.005) { box.lock.lock(); defer { box.lock.unlock() }; return !box.done }
        let importSeconds = Reliability.monotonic() - t0
        feeder.stop()
        // The last fixes are read at the next wake-up (1 s at the latest).
        let status = try d.waitForStatus(seconds: 3) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int ?? -1) >= feeder.sent }
        let workout = status["workout"] as? [String: Any] ?? [:]
        let points = workout["pointCount"] as? Int ?? -1
        let rejected = workout["rejected"] as? [String: Any] ?? [:]

        let r = try #require(box.result)
        #expect(r.status == 0, "import: \(r.out)\(r.err)")
        #expect(r.out.contains("6 imported"), "\(r.out)")
        let p99 = Reliability.quantile(latencies, 0.99), worst = latencies.max() ?? .nan
        Reliability.report("status during import of 6 x 12 MB NMEA at 5 Hz", "n=\(latencies.count) p50=\(Reliability.ms(Reliability.quantile(latencies, 0.5))) p99=\(Reliability.ms(p99)) max=\(Reliability.ms(worst)); import \(String(format: "%.1f", importSeconds)) s (\(bytes / 1_000_000) MB)")
        Reliability.report("status before the import (same ride)", "n=\(baseline.count) p50=\(Reliability.ms(Reliability.quantile(baseline, 0.5))) p99=\(Reliability.ms(Reliability.quantile(baseline, 0.99))) max=\(Reliability.ms(baseline.max() ?? .nan))")
        Reliability.report("ride during import", "\(feeder.sent) fixes sent, \(points) counted, rejected \(rejected), largest lastFixAgeSeconds \(String(format: "%.2f", maxFixAge))")
        #expect(latencies.count >= 50, "enough samples: \(latencies.count)")
        #expect(p99 < 0.5, "status p99 \(Reliability.ms(p99)) (target 10 ms: see BENCHMARKS.md)")
        #expect(worst < 2.0, "status max \(Reliability.ms(worst)) (target 100 ms: see BENCHMARKS.md)")
        #expect(points == feeder.sent, "every fix sent during the import is counted: \(points) of \(feeder.sent)")
        #expect(rejected["out_of_order"] == nil, "no fix came late: \(rejected)")
        #expect(maxFixAge < 1.5, "fixes read at least once a second during the import: \(maxFixAge) s")
        let list = try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []
        #expect(list.count == 6)
    }
}
