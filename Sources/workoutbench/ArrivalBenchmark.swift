import Glibc
import WorkoutCore

/// `workoutbench arrival [FILES] [POINTS]`: issue 30's scale figure. A running daemon; FILES
/// (10,000) workout files of POINTS (60) points each, as another machine wrote them, are
/// renamed into its history folder at once (a machine joining a shared folder: Syncthing
/// renames each arriving file into place). `status` is asked every 5 ms on one connection
/// meanwhile. Reports how long until every file is in the daemon's index (its index file names
/// them all: no `list` of 10,000 loads the loop meanwhile) and until `list` shows them all, and
/// the status latencies (p50, p99, max) while they were indexed, and for 2 s before (the
/// baseline under the same machine load).
enum ArrivalBenchmark {
    static func run(_ args: [String]) {
        let count = args.first.flatMap { Int($0) } ?? 10_000
        let points = args.dropFirst().first.flatMap { Int($0) } ?? 60
        let daemon = DaemonProcess()
        daemon.start()
        let staging = daemon.dir + "/staging"
        let workouts = daemon.dataDir + "/workouts"
        BenchSupport.mkdirs(staging)
        let other = MachineTag(rawValue: "joined")!
        var names: [String] = []
        var bytes = 0
        for k in 0..<count {
            var w = SaveBenchmark.workout(points: points, start: 1_600_000_000 + Double(k) * 86_400 * 0.9)
            w.summary.id = WorkoutID(start: w.summary.startedAt, suffix: UInt16(k % 65_536), machine: other)
            let file = WorkoutFile.encode(w, revision: Revision(editedAt: w.summary.startedAt + 3600, machine: other, host: "desktop"))
            bytes += file.count
            let name = w.id.rawValue + ".json"
            BenchSupport.writeAll(staging + "/" + name, file)
            names.append(name)
        }
        _ = daemon.status()
        guard let client = ControlClient(path: daemon.controlSocket) else { BenchSupport.fail("connect") }
        let index = daemon.dir + "/s/workoutd/index.jsonl"
        // The baseline: `status` the same way for 2 s before anything arrives (same machine load).
        var before: [Double] = []
        let b0 = BenchSupport.now()
        while BenchSupport.now() - b0 < 2 {
            let q0 = BenchSupport.now()
            guard client.send(#"{"command":"status"}"# + "\n"), client.readLine() != nil else { BenchSupport.fail("status failed") }
            before.append(BenchSupport.now() - q0)
            usleep(5_000)
        }
        let t0 = BenchSupport.now()
        for name in names where rename(staging + "/" + name, workouts + "/" + name) != 0 { BenchSupport.fail("rename \(name)") }
        let renamed = BenchSupport.now() - t0
        var latencies: [Double] = []
        var indexed = Double.nan
        var lastSize = -1
        while BenchSupport.now() - t0 < 300 {
            let q0 = BenchSupport.now()
            guard client.send(#"{"command":"status"}"# + "\n"), client.readLine() != nil else { BenchSupport.fail("status failed") }
            latencies.append(BenchSupport.now() - q0)
            var st = stat()
            if stat(index, &st) == 0, Int(st.st_size) != lastSize {
                lastSize = Int(st.st_size)
                let text = BenchSupport.readAll(index)
                var lines = 0
                for b in text where b == 10 { lines += 1 }
                if lines >= count { indexed = BenchSupport.now() - t0; break }
            }
            usleep(5_000)
        }
        // Listed: the catalog takes each chunk right after its index lines.
        var listedAfter = Double.nan
        while BenchSupport.now() - t0 < 300 {
            if (daemon.request(#"{"command":"list"}"#)["workouts"]?.arrayValue?.count ?? 0) >= count { listedAfter = BenchSupport.now() - t0; break }
            usleep(50_000)
        }
        BenchSupport.report([("files", String(count)), ("points", String(points)), ("mbytes", BenchSupport.fmt(Double(bytes) / 1e6, 1)),
                             ("renamed_s", BenchSupport.fmt(renamed, 3)), ("indexed_s", BenchSupport.fmt(indexed, 2)),
                             ("listed_s", BenchSupport.fmt(listedAfter, 2)), ("status_n", String(latencies.count)),
                             ("status_p50_ms", BenchSupport.fmt(BenchSupport.percentile(latencies, 0.5) * 1000, 2)),
                             ("status_p99_ms", BenchSupport.fmt(BenchSupport.percentile(latencies, 0.99) * 1000, 2)),
                             ("status_max_ms", BenchSupport.fmt((latencies.max() ?? .nan) * 1000, 2)),
                             ("before_n", String(before.count)), ("before_p99_ms", BenchSupport.fmt(BenchSupport.percentile(before, 0.99) * 1000, 2)),
                             ("before_max_ms", BenchSupport.fmt((before.max() ?? .nan) * 1000, 2))])
    }
}
