import Glibc
import WorkoutCore
import WorkoutDaemon

/// `workoutbench analytics [WORKOUTS] [YEARS] [RUNS]` (issue 40's figures): a history of WORKOUTS
/// rides with power (default 5,000) spread over the last YEARS years (10), each 10 minutes of 1 Hz
/// TCX trackpoints imported in process (`Importer`, as `import` does) with its own power shape,
/// written with the index as `HistoryStore` writes it; then the release daemon answers, medians
/// of RUNS (9), each timed from the request's first byte to the reply's last on one connection:
/// `fitness` over the whole span, the `/fitness` page (730 days shown, the model run over the
/// whole history), and `power-curve` over all of it: the first request (it reads every file and
/// keeps each curve) and the next ones.
enum AnalyticsBenchmark {
    static let config = """
        {"feeds": [{"kind": "socket", "path": "$XDG_RUNTIME_DIR/workoutd/feed.sock"}], "timeZone": "UTC", "ftpWatts": 250,
         "limits": {"maxClients": 128}, "web": {"listen": "127.0.0.1:0"}}
        """

    static func run(_ args: [String]) {
        let count = args.first.flatMap { Int($0) } ?? 5_000
        let years = args.dropFirst().first.flatMap { Int($0) } ?? 10
        let runs = args.dropFirst(2).first.flatMap { Int($0) } ?? 9
        let daemon = DaemonProcess(config: config)
        let workouts = daemon.dataDir + "/workouts"
        BenchSupport.mkdirs(workouts)
        BenchSupport.mkdirs(daemon.dataDir + "/trash")
        BenchSupport.mkdirs(daemon.stateDir)
        let oneDay = 86_400.0
        let today = (BenchSupport.wallNow() / oneDay).rounded(.down) * oneDay
        let span = Double(years) * 365.25 * oneDay
        var index: [UInt8] = []
        let g0 = BenchSupport.now()
        for k in 0..<count {
            let start = today - span + Double(k) * span / Double(count) + 7 * 3600
            let w = ride(start: start, seed: k)
            let file = HistoryFileName.of(w.id)
            BenchSupport.writeAll(workouts + "/" + file, WorkoutFile.encode(w, revision: nil))
            guard let stamp = HistoryStore.stamp(workouts + "/" + file) else { BenchSupport.fail("stat \(file)") }
            index += Array(IndexRecord.line(put: WorkoutVersion(file: file, summary: w.summary, revision: nil, imported: true, stamp: stamp)).utf8)
        }
        BenchSupport.writeAll(daemon.stateDir + "/index.jsonl", index)
        let made = BenchSupport.now() - g0
        daemon.start()
        let from = day(today - span), to = day(today)
        let fitness = #"{"command":"fitness","from":"\#(from)","to":"\#(to)"}"#
        var days = 0
        let fitnessTimes = (0..<runs).map { _ in
            let t0 = BenchSupport.now()
            let r = daemon.request(fitness)
            days = r["days"]?.arrayValue?.count ?? -1
            return BenchSupport.now() - t0
        }
        let (port, cookie) = WebBenchmark.access(daemon)
        var pageStatus = 0, pageBytes = 0
        let pageTimes = (0..<runs).map { _ in
            let (s, status, bytes) = WebBenchmark.get(port, "/fitness?days=730", cookie: cookie)
            pageStatus = status; pageBytes = bytes
            return s
        }
        let curve = #"{"command":"power-curve"}"#
        let c0 = BenchSupport.now()
        let first = daemon.request(curve)
        let firstTime = BenchSupport.now() - c0
        var measured = 0, points = 0
        let curveTimes = (0..<runs).map { _ in
            let t0 = BenchSupport.now()
            let r = daemon.request(curve)
            measured = r["measured"]?.intValue ?? -1
            points = r["curve"]?.arrayValue?.count ?? -1
            return BenchSupport.now() - t0
        }
        BenchSupport.report([("workouts", String(count)), ("years", String(years)), ("made_s", BenchSupport.fmt(made)),
                             ("fitness_days", String(days)), ("fitness_ms", BenchSupport.fmt(BenchSupport.median(fitnessTimes) * 1000)),
                             ("page_status", String(pageStatus)), ("page_bytes", String(pageBytes)),
                             ("page_ms", BenchSupport.fmt(BenchSupport.median(pageTimes) * 1000)),
                             ("curve_workouts", String(first["workouts"]?.intValue ?? -1)), ("curve_first_measured", String(first["measured"]?.intValue ?? -1)),
                             ("curve_first_ms", BenchSupport.fmt(firstTime * 1000)),
                             ("curve_points", String(points)), ("curve_measured", String(measured)),
                             ("curve_ms", BenchSupport.fmt(BenchSupport.median(curveTimes) * 1000))])
    }

    /// A 10-minute ride with power, imported from TCX: a steady part and an effort whose length
    /// and watts vary with `seed`, so the curve's best points come from many workouts.
    static func ride(start: Double, seed: Int) -> RecordedWorkout {
        let seconds = 600
        let effort = 5 + (seed * 37) % 400, watts = 180 + (seed * 53) % 250
        var s = #"<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2"><Activities><Activity Sport="Biking"><Id>\#(iso(start))</Id><Lap StartTime="\#(iso(start))"><TotalTimeSeconds>\#(seconds)</TotalTimeSeconds><DistanceMeters>\#(seconds * 8)</DistanceMeters><Calories>0</Calories><Intensity>Active</Intensity><TriggerMethod>Manual</TriggerMethod><Track>"#
        for k in 0...seconds {
            let w = k >= 100 && k < 100 + effort ? watts : 150 + (k * 7 + seed) % 30
            s += "<Trackpoint><Time>\(iso(start + Double(k)))</Time><Position><LatitudeDegrees>\(48 + Double(k) * 8 / 111_195)</LatitudeDegrees>"
            s += "<LongitudeDegrees>11.5</LongitudeDegrees></Position><DistanceMeters>\(k * 8)</DistanceMeters>"
            s += "<Extensions><ns3:TPX><ns3:Watts>\(w)</ns3:Watts></ns3:TPX></Extensions></Trackpoint>"
        }
        s += "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        do {
            guard let track = try Importer.readAll(Array(s.utf8), fileName: "ride.tcx").first else { BenchSupport.fail("no track") }
            return try Importer.imported(from: track, activity: .cycling, id: UInt16(truncatingIfNeeded: seed), settings: MetricsSettings(),
                                         source: "imported:ride\(seed).tcx").recorded
        } catch {
            BenchSupport.fail("ride \(seed): \(error)")
        }
    }

    /// `YYYY-MM-DD` (UTC).
    static func day(_ t: Double) -> String { StreakDay(dayNumber: Int((t / 86_400).rounded(.down))).iso }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    static func iso(_ t: Double) -> String {
        let d = day(t)
        let s = Int(t.rounded(.down)) % 86_400
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return d + "T" + two(s / 3600) + ":" + two(s / 60 % 60) + ":" + two(s % 60) + "Z"
    }
}
