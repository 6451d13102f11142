import Glibc
import Synchronization
import WorkoutCore

/// The web pages' benchmarks (issue 28; BENCHMARKS.md, "Web pages"), against the real daemon
/// over loopback HTTP:
///
/// - `web-page [POINTS] [RUNS]`: a recorded POINTS-point ride (86,400 = 24 hours at 1 Hz, with
///   altitude and heart rate) is fetched RUNS times, one connection each: median and p90 wall
///   time from connect to the last byte, the page's size; the same page rendered in process
///   (load from disk + render) for where the time goes, with each chart's vertices and error.
/// - `web-history [WORKOUTS] [RUNS]`: the history page with WORKOUTS saved workouts.
/// - `web-load [LOADS] [CONCURRENCY] [RATE]`: LOADS page loads (history, the workout, records,
///   calendar, live, in turn), CONCURRENCY at a time, while a ride records at RATE Hz through the
///   feed socket and `status` is asked every 20 ms: status p50/p99/max, and every fix counted.
enum WebBenchmark {
    static let config = """
        {"feeds": [{"kind": "socket", "path": "$XDG_RUNTIME_DIR/workoutd/feed.sock"}],
         "limits": {"maxClients": 128}, "web": {"listen": "127.0.0.1:0"}}
        """

    /// The port and cookie of a daemon's pages (from the `web` request).
    static func access(_ d: DaemonProcess) -> (port: UInt16, cookie: String) {
        guard let url = d.request(#"{"command":"web"}"#)["url"]?.stringValue,
              let colon = url.dropFirst("http://".count).firstIndex(of: ":") else { BenchSupport.fail("no web url") }
        let rest = url[url.index(after: colon)...]
        let pieces = url.split(separator: "=", maxSplits: 1)
        guard let port = UInt16(rest.prefix { $0.isNumber }), pieces.count == 2, pieces[0].hasSuffix("token") else { BenchSupport.fail("bad url \(url)") }
        return (port, enter(port, token: String(pieces[1])))
    }

    /// Redeems the URL's single-use token for a session: the cookie the redirect sets.
    static func enter(_ port: UInt16, token: String) -> String {
        guard let all = exchange(port, "GET /?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n", bufferSize: 4096) else {
            BenchSupport.fail("connect to the pages' port \(port)")
        }
        for line in String(decoding: all, as: UTF8.self).split(separator: "\r\n") where line.lowercased().hasPrefix("set-cookie: ") {
            return String(line.dropFirst("set-cookie: ".count).prefix { $0 != ";" })
        }
        BenchSupport.fail("the token's redirect set no cookie")
    }

    /// One GET on a new connection: (seconds, status, body bytes).
    static func get(_ port: UInt16, _ path: String, cookie: String) -> (Double, Int, Int) {
        let t0 = BenchSupport.now()
        guard let all = exchange(port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n", bufferSize: 65536) else {
            return (.nan, 0, 0)
        }
        let dt = BenchSupport.now() - t0
        let status = Int(String(decoding: all.prefix(12).dropFirst(9), as: UTF8.self)) ?? 0
        var bodyStart = 0
        for i in 0..<max(0, all.count - 3) where all[i] == 13 && all[i + 1] == 10 && all[i + 2] == 13 && all[i + 3] == 10 { bodyStart = i + 4; break }
        return (dt, status, all.count - bodyStart)
    }

    /// Sends `request` on a new connection to 127.0.0.1:`port` and reads until the server
    /// closes; nil when it cannot connect.
    private static func exchange(_ port: UInt16, _ request: String, bufferSize: Int) -> [UInt8]? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else { return nil }
        _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var all: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: bufferSize)
        while true {
            let n = recv(fd, &buf, buf.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            all.append(contentsOf: buf[0..<n])
        }
        return all
    }

    /// Fix lines of a ride with hills and heart rate, `interval` s apart from `start`.
    static func rideLines(count: Int, start: Double, interval: Double) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count * 170)
        for k in 0..<count {
            let t = start + Double(k) * interval
            let a = Double(k) * interval / 2400 * 2 * Double.pi
            let r = 0.04 + 0.006 * sin(Double(k) * interval / 300)
            let lat = 47.37 + r * sin(a), lon = 8.54 + r * 1.5 * cos(a)
            let alt = 420 + 80 * sin(Double(k) * interval / 900) + 4 * sin(Double(k) * interval / 41)
            let hr = 125 + Int(25 * sin(Double(k) * interval / 1300)) + k % 5
            let line = "{\"class\":\"FIX\",\"time\":\"\(ISO8601.format(t, fractionDigits: interval < 1 ? 1 : 0))\",\"lat\":\(formatFixed(lat, decimals: 7)),\"lon\":\(formatFixed(lon, decimals: 7)),\"alt\":\(formatFixed(alt, decimals: 1)),\"speed\":7.0,\"mode\":3,\"eph\":4,\"hr\":\(hr)}\n"
            out.append(contentsOf: line.utf8)
        }
        return out
    }

    /// Records a `points`-point ride in the daemon (fed fast, then stopped and saved); its ID.
    static func recordRide(_ d: DaemonProcess, points: Int) -> String {
        _ = d.request(#"{"command":"start","activity":"cycling"}"#)
        guard FixLines.send(rideLines(count: points, start: BenchSupport.wallNow().rounded(.up) + 1, interval: 1), to: d.feedSocket) else { BenchSupport.fail("feed") }
        let t0 = BenchSupport.now()
        while d.pointCount() < points {
            if BenchSupport.now() - t0 > 120 { BenchSupport.fail("only \(d.pointCount()) of \(points) fixes recorded") }
            usleep(20_000)
        }
        guard let id = d.request(#"{"command":"stop"}"#)["workout"]?["id"]?.stringValue else { BenchSupport.fail("stop") }
        while d.stateName() != "idle" { usleep(20_000) }
        return id
    }

    static func pageRun(_ args: [String]) {
        let points = args.first.flatMap { Int($0) } ?? 86_400
        let runs = args.count > 1 ? Int(args[1]) ?? 20 : 20
        let d = DaemonProcess(config: config)
        d.start()
        let id = recordRide(d, points: points)
        let (port, cookie) = access(d)
        _ = get(port, "/workouts/\(id)", cookie: cookie)  // the web thread starts
        var times: [Double] = []
        var bytes = 0
        for _ in 0..<runs {
            let (dt, status, n) = get(port, "/workouts/\(id)", cookie: cookie)
            guard status == 200 else { BenchSupport.fail("status \(status)") }
            times.append(dt); bytes = n
        }
        let rssAfter = d.rssKB
        // In process: where the time goes.
        guard let wid = WorkoutID(rawValue: id) else { BenchSupport.fail("id") }
        let file = BenchSupport.readAll(d.dataDir + "/workouts/" + wid.rawValue + ".json")
        var loads: [Double] = [], renders: [Double] = []
        var report = WorkoutPage.Report()
        let context = WebPageContext(units: .metric, calendar: StreakCalculator(zone: .utc), now: BenchSupport.wallNow(), formToken: "t", version: "bench")
        for _ in 0..<max(3, runs / 2) {
            let t0 = BenchSupport.now()
            guard let w = try? WorkoutFile.decode(file) else { BenchSupport.fail("decode") }
            let t1 = BenchSupport.now()
            report = WorkoutPage.Report()
            _ = WorkoutPage(workout: w).render(context, report: &report)
            let t2 = BenchSupport.now()
            loads.append(t1 - t0); renders.append(t2 - t1)
        }
        func ms(_ v: Double) -> String { BenchSupport.fmt(v * 1000, 2) }
        var pairs: [(String, String)] = [("points", String(points)), ("runs", String(runs)),
                                         ("median_ms", ms(BenchSupport.median(times))), ("p90_ms", ms(BenchSupport.percentile(times, 0.9))),
                                         ("max_ms", ms(times.max() ?? .nan)), ("bytes", String(bytes)),
                                         ("decode_ms", ms(BenchSupport.median(loads))), ("render_ms", ms(BenchSupport.median(renders))),
                                         ("rss_after_kb", String(rssAfter))]
        for c in report.charts {
            pairs.append((c.name + "_vertices", String(c.vertices)))
            pairs.append((c.name + "_error_px", BenchSupport.fmt(c.maxErrorPixels, 3)))
        }
        BenchSupport.report(pairs)
    }

    /// Writes `count` small saved workouts (and their index) into a data directory before the
    /// daemon starts, one a day back from now, five activities in turn.
    static func seedHistory(_ dataDir: String, count: Int) {
        BenchSupport.mkdirs(dataDir + "/workouts")
        BenchSupport.mkdirs(dataDir + "/trash")
        var index: [UInt8] = []
        let now = BenchSupport.wallNow()
        let kinds: [ActivityType] = [.running, .cycling, .walking, .hiking, .strength]
        for k in 0..<count {
            let t = (now - Double(k) * 86400 * 0.7 - 7200).rounded()
            let a = kinds[k % kinds.count]
            var s = WorkoutSummary(id: WorkoutID(start: t, suffix: UInt16(k % 65536)), activity: a, startedAt: t, endedAt: t + 3600,
                                   elapsedSeconds: 3600, movingSeconds: 3300, distanceMeters: a.supportsGPS ? 8000 + Double(k % 13) * 500 : 0,
                                   elevationGainMeters: Double(k % 7) * 30, movingAverageSpeed: 2.5 + Double(k % 4))
            s.bestEfforts = a.tracksBestEfforts ? [BestEffort(distanceMeters: 1000, seconds: 200 + Double(k % 50), startTime: t)] : []
            let w = Workout(summary: s, points: [], events: [], source: "recorded")
            BenchSupport.writeAll(dataDir + "/workouts/" + s.id.rawValue + ".json", WorkoutFile.encode(w))
            index.append(contentsOf: (JSON.object(JSONObject([("put", s.json())])).serialized() + "\n").utf8)
        }
        BenchSupport.writeAll(dataDir + "/index.jsonl", index)
    }

    static func historyRun(_ args: [String]) {
        let count = args.first.flatMap { Int($0) } ?? 10_000
        let runs = args.count > 1 ? Int(args[1]) ?? 20 : 20
        let d = DaemonProcess(config: config)
        seedHistory(d.dataDir, count: count)
        d.start()
        let (port, cookie) = access(d)
        _ = get(port, "/", cookie: cookie)
        var times: [Double] = [], bytes = 0
        for _ in 0..<runs {
            let (dt, status, n) = get(port, "/", cookie: cookie)
            guard status == 200 else { BenchSupport.fail("status \(status)") }
            times.append(dt); bytes = n
        }
        var others: [(String, String)] = []
        for (name, path) in [("records", "/records"), ("calendar", "/calendar")] {
            var t: [Double] = []
            for _ in 0..<max(3, runs / 2) { t.append(get(port, path, cookie: cookie).0) }
            others.append((name + "_median_ms", BenchSupport.fmt(BenchSupport.median(t) * 1000, 2)))
        }
        BenchSupport.report([("workouts", String(count)), ("runs", String(runs)),
                             ("median_ms", BenchSupport.fmt(BenchSupport.median(times) * 1000, 2)),
                             ("p90_ms", BenchSupport.fmt(BenchSupport.percentile(times, 0.9) * 1000, 2)), ("bytes", String(bytes))] + others)
    }

    static func loadRun(_ args: [String]) {
        let loads = args.first.flatMap { Int($0) } ?? 200
        let concurrency = args.count > 1 ? Int(args[1]) ?? 20 : 20
        let rate = args.count > 2 ? Double(args[2]) ?? 5 : 5
        let d = DaemonProcess(config: config)
        seedHistory(d.dataDir, count: 1000)
        d.start()
        let id = recordRide(d, points: 7200)
        let (port, cookie) = access(d)
        let ride = LiveRide(d, rate: rate)
        let baseline = ride.baseline(seconds: 2)

        let paths = ["/", "/workouts/\(id)", "/records", "/calendar", "/live"]
        let next = Atomic<Int>(0), failures = Atomic<Int>(0), done = Atomic<Int>(0)
        let pageTimes = Mutex<[Double]>([])
        let t0 = BenchSupport.now()
        for _ in 0..<concurrency {
            BenchSupport.thread {
                while true {
                    let k = next.add(1, ordering: .relaxed).oldValue
                    guard k < loads else { break }
                    let (dt, status, _) = get(port, paths[k % paths.count], cookie: cookie)
                    if status != 200 { failures.add(1, ordering: .relaxed) }
                    pageTimes.withLock { $0.append(dt) }
                }
                done.add(1, ordering: .releasing)
            }
        }
        var latencies: [Double] = []
        while done.load(ordering: .acquiring) < concurrency {
            latencies.append(ride.status().seconds)
            usleep(20_000)
        }
        let wall = BenchSupport.now() - t0
        let (sent, counted, late) = ride.stop()
        let pages = pageTimes.withLock { $0 }
        func ms(_ v: Double) -> String { BenchSupport.fmt(v * 1000, 2) }
        BenchSupport.report([("loads", String(loads)), ("concurrency", String(concurrency)), ("failures", String(failures.load(ordering: .relaxed))),
                             ("wall_s", BenchSupport.fmt(wall, 2)),
                             ("page_p50_ms", ms(BenchSupport.percentile(pages, 0.5))), ("page_p99_ms", ms(BenchSupport.percentile(pages, 0.99))),
                             ("status_n", String(latencies.count)),
                             ("status_p50_ms", ms(BenchSupport.percentile(latencies, 0.5))),
                             ("status_p99_ms", ms(BenchSupport.percentile(latencies, 0.99))),
                             ("status_max_ms", ms(latencies.max() ?? .nan)),
                             ("baseline_p99_ms", ms(BenchSupport.percentile(baseline, 0.99))),
                             ("fixes_sent", String(sent)), ("fixes_counted", String(counted)), ("fixes_late", String(late)),
                             ("rss_kb", String(d.rssKB))])
    }
}
