import Glibc
import WorkoutCore
import WorkoutDaemon

/// `workoutbench counts [--grow PERCENT] [WORKLOAD...]`: the allocation-count guards
/// (issue 43; swift-nio's allocation-counter tests are the model). Each workload is a fixed,
/// deterministic piece of the product's work, run in process: built once (not counted), run once
/// to warm caches (not counted), then run once more while the heap allocations are counted by
/// the preloaded counter (`Tests/Shims/malloccount.c`). One line per workload:
/// `workload=NAME allocations=N bytes=B`. `.ci/counts.sh` compares them with `.ci/count-limits`.
///
/// `--grow PERCENT` makes each counted run allocate PERCENT % more, rounded up and at least 2
/// (small blocks, freed at once):
/// the planted regression `.ci/counts.sh` uses to show that the guard fails when a workload
/// allocates more than its margin allows.
/// Without the counter preloaded the command says so and exits 2.
enum CountsBenchmark {
    /// A workload: `prepare` builds its input (not counted) and returns the run to count.
    struct Workload: Sendable {
        let name: String
        let summary: String
        let prepare: @Sendable () -> () -> Void
    }

    static let workloads: [Workload] = [
        Workload(name: "nmea-decode", summary: "decode 10,000 NMEA sentences (5,000 fixes) into an import track", prepare: nmeaDecode),
        Workload(name: "fit-import", summary: "import one FIT activity of 3,600 records (decode, track, recorder)", prepare: fitImport),
        Workload(name: "record-fixes", summary: "record 10,000 fixes into a new workout", prepare: recordFixes),
        Workload(name: "web-page", summary: "render a 24 h workout's page (86,400 points)", prepare: webPage),
        Workload(name: "status-reply", summary: "a status reply's workout part during a 24 h workout", prepare: statusReply),
        Workload(name: "startup", summary: "start-up's questions to a history of 1,000 saved workouts (index.start: count, streaks)", prepare: startup),
        Workload(name: "index-read", summary: "read the index of 1,000 saved workouts (the catalog, right after start-up)", prepare: indexRead),
    ]

    typealias CountsFunction = @convention(c) (UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<UInt64>) -> Void

    static func run(_ args: [String]) {
        var grow = 0
        var names: [String] = []
        var rest = args[...]
        while let a = rest.popFirst() {
            if a == "--grow", let n = rest.popFirst().flatMap({ Int($0) }), n >= 0 { grow = n; continue }
            if a == "--list" {
                for w in workloads { BenchSupport.writeOut(1, w.name + ": " + w.summary + "\n") }
                return
            }
            guard workloads.contains(where: { $0.name == a }) else { BenchSupport.fail("counts: unknown workload '\(a)' (--list names them)") }
            names.append(a)
        }
        guard let symbol = dlsym(nil, "workoutd_malloc_counts") else {  // RTLD_DEFAULT: the global scope, the preload included
            BenchSupport.writeOut(2, "workoutbench counts: the allocation counter is not preloaded "
                                  + "(LD_PRELOAD=malloccount.so, built from Tests/Shims/malloccount.c by .ci/counts.sh)\n")
            exit(2)
        }
        let counts = unsafeBitCast(symbol, to: CountsFunction.self)
        for w in workloads where names.isEmpty || names.contains(w.name) {
            let work = w.prepare()
            work()
            var calls0: UInt64 = 0, bytes0: UInt64 = 0, calls1: UInt64 = 0, bytes1: UInt64 = 0
            counts(&calls0, &bytes0)
            work()
            if grow > 0 {
                counts(&calls1, &bytes1)
                plant(max(2, (Int(calls1 - calls0) * grow + 99) / 100))
            }
            counts(&calls1, &bytes1)
            BenchSupport.report([("workload", w.name), ("allocations", String(calls1 - calls0)), ("bytes", String(bytes1 - bytes0))])
        }
        for d in directories { BenchSupport.removeTree(d) }
    }

    /// `count` allocations of 16 bytes each, each freed at once (the planted regression).
    static func plant(_ count: Int) {
        for _ in 0..<count {
            let p = malloc(16)
            free(p)
        }
    }

    static let start = 1_790_000_000.0

    /// A runner's 1 Hz fix `k` (3 m/s north-east, a gently rolling altitude).
    static func fix(_ k: Int) -> Fix {
        let d = 3 * Double(k)
        return Fix(time: start + 1 + Double(k), latitude: 48.1 + d / 111_320 * 0.7, longitude: 11.5 + d / 74_000 * 0.7,
                   altitude: 520 + Double(k % 50) * 0.1, speed: 3, mode: .threeD, horizontalAccuracy: 4)
    }

    static func recorder(points: Int, activity: ActivityType = .running) -> WorkoutRecorder {
        var r = WorkoutRecorder(id: WorkoutID(start: start, suffix: 1), activity: activity, startedAt: start)
        for k in 0..<points { _ = r.ingest(fix(k)) }
        return r
    }

    static func nmeaDecode() -> () -> Void {
        var text = ""
        for k in 0..<5_000 {
            let f = fix(k)
            let t = Int(f.time) % 86_400
            let hms = pad(t / 3600) + pad(t / 60 % 60) + pad(t % 60) + ".00"
            let lat = angle(f.latitude, degreeDigits: 2), lon = angle(f.longitude, degreeDigits: 3)
            text += sentence("GPGGA,\(hms),\(lat),N,\(lon),E,1,09,0.9,\(formatFixed(f.altitude ?? 0, decimals: 1)),M,47.0,M,,")
            text += sentence("GPRMC,\(hms),A,\(lat),N,\(lon),E,5.83,45.0,280926,,,A")
        }
        let bytes = Array(text.utf8)
        return {
            guard let track = try? Importer.read(bytes, fileName: "counts.nmea"), track.fixes.count == 5_000 else {
                BenchSupport.fail("counts: nmea-decode did not decode 5,000 fixes")
            }
        }
    }

    static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// An NMEA angle, ddmm.mmmm or dddmm.mmmm.
    static func angle(_ degrees: Double, degreeDigits: Int) -> String {
        let whole = Int(degrees)
        let minutes = (degrees - Double(whole)) * 60
        var d = String(whole)
        while d.count < degreeDigits { d = "0" + d }
        let m = formatFixed(minutes, decimals: 4)
        return d + (minutes < 10 ? "0" : "") + m
    }

    static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for b in body.utf8 { sum ^= b }
        let hex = Array("0123456789ABCDEF".utf8)
        return "$" + body + "*" + String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 15)]], as: UTF8.self) + "\r\n"
    }

    static func fitImport() -> () -> Void {
        let r = recorder(points: 3_600, activity: .cycling)
        let workout = r.finish(at: start + 3_602)
        let bytes = FITWriter.write(workout)
        return {
            guard let tracks = try? Importer.readAll(bytes, fileName: "counts.fit"), let track = tracks.first,
                  (try? Importer.workout(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "counts.fit")) != nil else {
                BenchSupport.fail("counts: fit-import did not import")
            }
        }
    }

    static func recordFixes() -> () -> Void {
        let fixes = (0..<10_000).map(fix)
        return {
            var r = WorkoutRecorder(id: WorkoutID(start: start, suffix: 1), activity: .running, startedAt: start)
            for f in fixes { _ = r.ingest(f) }
            guard r.summary(now: start + 10_002).pointCount > 0 else { BenchSupport.fail("counts: record-fixes kept no point") }
        }
    }

    static func webPage() -> () -> Void {
        let r = recorder(points: 86_400)
        let workout = r.finish(at: start + 86_402)
        let context = WebPageContext(units: .metric, calendar: StreakCalculator(zone: .utc), now: start + 90_000, formToken: "t", version: "counts")
        return {
            var report = WorkoutPage.Report()
            let page = WorkoutPage(workout: workout).render(context, report: &report)
            guard !page.isEmpty else { BenchSupport.fail("counts: web-page rendered nothing") }
        }
    }

    static func statusReply() -> () -> Void {
        let r = recorder(points: 86_400)
        var cache = SummaryJSONCache()
        return {
            var writer = JSONWriter(capacity: 1024)
            r.summary(now: start + 86_402).writeJSON(to: &writer, cache: &cache)
            guard !writer.bytes.isEmpty else { BenchSupport.fail("counts: status-reply wrote nothing") }
        }
    }

    /// What a start-up asks of the store: how many workouts, and the streak history, answered
    /// from `index.start` (a regression that reads the index again counts ~50 times as much).
    static func startup() -> () -> Void {
        let paths = history()
        return {
            guard let store = try? HistoryStore(paths: paths, machine: MachineTag(random: 7)), store.count == 1_000,
                  store.streakWorkouts().count == 1_000 else {
                BenchSupport.fail("counts: startup did not count 1,000 workouts")
            }
        }
    }

    /// The index read whole (what the first `list` waits for, and a start without a valid
    /// `index.start` does).
    static func indexRead() -> () -> Void {
        let paths = history()
        return {
            guard let store = try? HistoryStore(paths: paths, machine: MachineTag(random: 7)), store.newestID() != nil, store.count == 1_000 else {
                BenchSupport.fail("counts: index-read did not list 1,000 workouts")
            }
        }
    }

    /// A history of 1,000 saved workouts.
    static func history() -> Paths {
        let dir = BenchSupport.makeTempDir()
        let paths = Paths(environment: ["HOME": dir, "XDG_DATA_HOME": dir + "/data", "XDG_STATE_HOME": dir + "/state",
                                        "XDG_RUNTIME_DIR": dir + "/run"])
        BenchSupport.mkdirs(paths.stateDir)
        WebBenchmark.seedHistory(paths.dataDir, count: 1_000)
        // The seeded index is in the history folder (the legacy place): taken over into the state
        // directory here (and `index.start` written), so every counted open reads as a start does.
        do {
            let first = try HistoryStore(paths: paths, machine: MachineTag(random: 7))
            first.writeStartupIndexIfStale()
        } catch { BenchSupport.fail("counts: history: \(error)") }
        directories.append(dir)
        return paths
    }

    /// The workloads' temp dirs, removed when the command ends.
    nonisolated(unsafe) static var directories: [String] = []
}
