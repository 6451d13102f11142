import Glibc
import WorkoutCore

/// `workoutbench fit-memory [RECORDS] [DIR|-] [daemon|stream|whole]`: the peak resident memory
/// (VmHWM) importing one FIT activity of RECORDS 1 Hz records (issue 27 item 6: 1,500,000
/// records, 21 MB, peaked at ~800 MB). Each record is 14 bytes as a watch writes the smallest:
/// header, timestamp, position, heart rate; the file (written to DIR, default `-`: a temp dir,
/// and removed) has a session. `daemon` (the default): the real daemon beside this binary
/// imports it; reports its peak before and after, the wall time and the result. `stream` and
/// `whole`: the core in this process, streaming or the file read whole (`inProcess`).
enum FITMemoryBenchmark {
    static func file(records n: Int) -> [UInt8] {
        typealias F = FITEncoder.FieldDefinition
        var e = FITEncoder(capacity: n * 14 + 256)
        e.define(local: 0, global: 0, [F(0, .enumeration), F(1, .uint16)])
        e.message(local: 0, [4, 255])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(3, .uint8)])
        let t0: Int64 = 1_000_000_000
        let semicircles = 2_147_483_648.0 / 180
        for k in 0..<n {
            // Round and round a loop of about 2 km at about 2.5 m/s (on the globe whatever n).
            let a = Double(k) * 0.008
            let lat = 47.0 + 0.003 * sin(a), lon = 8.5 + 0.004 * cos(a)
            e.message(local: 1, [t0 + Int64(k), Int64((lat * semicircles).rounded()), Int64((lon * semicircles).rounded()), 120 + Int64(k % 40)])
        }
        e.define(local: 2, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(7, .uint32), F(8, .uint32)])
        let ms = Int64(n - 1) * 1000
        e.message(local: 2, [t0 + Int64(n - 1), t0, 1, ms, ms])
        return e.file()
    }

    static func run(_ args: [String]) {
        let n = args.first.flatMap { Int($0) } ?? 1_500_000
        let dir = args.count > 1 && args[1] != "-" ? args[1] : BenchSupport.makeTempDir()
        let path = dir + "/large-\(n).fit"
        let bytes = file(records: n)
        BenchSupport.writeAll(path, bytes)
        defer { if args.count < 2 || args[1] == "-" { BenchSupport.removeTree(dir) } else { unlink(path) } }
        let mode = args.count > 2 ? args[2] : "daemon"
        if mode == "stream" || mode == "whole" { inProcess(path: path, size: bytes.count, records: n, streaming: mode == "stream"); return }
        let daemon = DaemonProcess()
        daemon.start()
        defer { daemon.stop() }
        BenchSupport.sleep(1)
        let before = daemon.peakRSSKB
        let t0 = BenchSupport.now()
        let reply = daemon.request(#"{"command":"import","files":["\#(path)"]}"#)
        let wall = BenchSupport.now() - t0
        let result = reply["results"]?.arrayValue?.first
        BenchSupport.report([("records", String(n)), ("file_bytes", String(bytes.count)),
                             ("result", result?["result"]?.stringValue ?? "none"),
                             ("error", result?["error"]?.stringValue ?? "-"),
                             ("peak_rss_before_kb", String(before)), ("peak_rss_kb", String(daemon.peakRSSKB)),
                             ("rss_after_kb", String(daemon.rssKB)), ("import_s", BenchSupport.fmt(wall, 2))])
    }

    /// The core alone in this process (no daemon, no socket): `FITImport` over the file read a
    /// window at a time (`stream`), or the file read whole, its tracks decoded and imported
    /// (`whole`: `Importer.readAll` + `Importer.imported`, the path every FIT import took
    /// before), then the workout file encoded a chunk at a time. Reports this process's peak.
    static func inProcess(path: String, size: Int, records n: Int, streaming: Bool) {
        struct Source: FITByteSource {
            let fd: Int32, count: Int
            func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FITError) -> Int {
                pread(fd, buffer.baseAddress, min(buffer.count, count - offset), off_t(offset))
            }
        }
        let before = BenchSupport.rssKB(getpid(), field: "VmHWM:") ?? -1
        let t0 = BenchSupport.now()
        var ws: [ImportedWorkout] = []
        if streaming {
            let fd = open(path, O_RDONLY)
            ws = (try? FITImport.workouts(Source(fd: fd, count: size), fileName: "large.fit", activity: nil, settings: MetricsSettings(),
                                          source: "imported:large.fit", suffix: { 1 })) ?? []
            close(fd)
        } else {
            let bytes = BenchSupport.readAll(path)
            ws = (try? Importer.readAll(bytes, fileName: "large.fit").map { t throws(Importer.Failure) in
                try Importer.imported(from: t, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:large.fit")
            }) ?? []
        }
        let afterImport = BenchSupport.rssKB(getpid(), field: "VmHWM:") ?? -1
        var encoded = 0
        if let w = ws.first?.recorded { WorkoutFile.encode(w) { b in encoded += b.count; b.removeAll(keepingCapacity: true) } }
        BenchSupport.report([("mode", streaming ? "stream" : "whole"), ("records", String(n)), ("workouts", String(ws.count)),
                             ("points", String(ws.first?.recorded.points.count ?? 0)),
                             ("distance_m", BenchSupport.fmt(ws.first?.recorded.summary.distanceMeters ?? 0, 1)),
                             ("peak_before_kb", String(before)), ("peak_import_kb", String(afterImport)),
                             ("peak_encoded_kb", String(BenchSupport.rssKB(getpid(), field: "VmHWM:") ?? -1)),
                             ("file_json_bytes", String(encoded)), ("import_s", BenchSupport.fmt(BenchSupport.now() - t0, 2))])
    }
}
