import Glibc
import WorkoutCore

/// `workoutbench startup [WORKOUTS] [RUNS]`: a data dir with WORKOUTS saved workouts (files and
/// index.jsonl, as HistoryStore writes them), then the daemon started RUNS times: seconds from
/// exec until the control socket answers `status`; median.
enum StartupBenchmark {
    static func run(_ args: [String]) {
        let count = args.first.flatMap { Int($0) } ?? 10_000
        let runs = args.dropFirst().first.flatMap { Int($0) } ?? 7
        let daemon = DaemonProcess()
        let workouts = daemon.dataDir + "/workouts"
        BenchSupport.mkdirs(workouts)
        BenchSupport.mkdirs(daemon.dataDir + "/trash")
        var index: [UInt8] = []
        let base = 1_600_000_000.0
        for k in 0..<count {
            // About one workout a day, 45 minutes, 10 points each (the index is what start-up reads).
            var w = SaveBenchmark.workout(points: 10, start: base + Double(k) * 86_400 * 0.9)
            w.summary.elapsedSeconds = 2700
            BenchSupport.writeAll(workouts + "/" + w.id.rawValue + ".json", WorkoutFile.encode(w))
            var compact = w.summary
            compact.splits = []
            compact.laps = []
            index += Array((JSON.object(JSONObject([("put", compact.json())])).serialized() + "\n").utf8)
        }
        BenchSupport.writeAll(daemon.dataDir + "/index.jsonl", index)
        var times: [Double] = []
        for _ in 0..<runs {
            times.append(daemon.start())
            daemon.stop()
        }
        daemon.start()
        // Count what the daemon loaded, year by year (a `list` of all 10,000 works too since the
        // output cap applies to watch subscribers only; by year exercises the date filter).
        var listed = 0
        for year in 2020...2050 {
            let r = daemon.request(#"{"command":"list","from":"\#(year)-01-01","to":"\#(year)-12-31"}"#)
            listed += r["workouts"]?.arrayValue?.count ?? 0
        }
        BenchSupport.report([("workouts", String(count)), ("listed", String(listed)), ("index_bytes", String(index.count)),
                             ("median_ms", BenchSupport.fmt(BenchSupport.median(times) * 1000)),
                             ("min_ms", BenchSupport.fmt((times.min() ?? .nan) * 1000))])
    }
}
