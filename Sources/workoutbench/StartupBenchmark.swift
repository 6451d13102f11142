import Glibc
import WorkoutCore
import WorkoutDaemon

/// `workoutbench startup [WORKOUTS] [RUNS] [legacy]`: a data dir with WORKOUTS saved workouts
/// (their files in the history folder, and this machine's `index.jsonl` in the state directory,
/// one stamped line each, as HistoryStore writes them), then the daemon started RUNS times:
/// seconds from exec until the control socket answers `status`; median (the first start, which
/// reads the whole index and writes `index.start`, is reported apart). `legacy` writes the
/// index as versions before issue 30 did instead (in the history folder, lines without file
/// stamps): the first start after an upgrade, which stamps every file and writes the index anew.
enum StartupBenchmark {
    static func run(_ args: [String]) {
        let count = args.first.flatMap { Int($0) } ?? 10_000
        let runs = args.dropFirst().first.flatMap { Int($0) } ?? 7
        let legacy = args.dropFirst(2).first == "legacy"
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
            let file = HistoryFileName.of(w.id)
            BenchSupport.writeAll(workouts + "/" + file, WorkoutFile.encode(w))
            if legacy {
                var compact = w.summary
                compact.splits = []
                compact.laps = []
                index += Array((JSON.object(JSONObject([("put", compact.json())])).serialized() + "\n").utf8)
            } else {
                guard let stamp = HistoryStore.stamp(workouts + "/" + file) else { BenchSupport.fail("stat \(file)") }
                index += Array(IndexRecord.line(put: WorkoutVersion(file: file, summary: w.summary, revision: nil, imported: false, stamp: stamp)).utf8)
            }
        }
        if legacy {
            BenchSupport.writeAll(daemon.dataDir + "/index.jsonl", index)
        } else {
            BenchSupport.mkdirs(daemon.stateDir)
            BenchSupport.writeAll(daemon.stateDir + "/index.jsonl", index)
        }
        // The first start reads the index whole and leaves `index.start` for the next ones (as the
        // first start after an upgrade, or after a crash, does): timed apart.
        let first = daemon.start()
        daemon.stop()
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
        BenchSupport.report([("workouts", String(count)), ("layout", legacy ? "legacy" : "current"), ("listed", String(listed)), ("index_bytes", String(index.count)),
                             ("first_ms", BenchSupport.fmt(first * 1000)),
                             ("median_ms", BenchSupport.fmt(BenchSupport.median(times) * 1000)),
                             ("min_ms", BenchSupport.fmt((times.min() ?? .nan) * 1000))])
    }
}
