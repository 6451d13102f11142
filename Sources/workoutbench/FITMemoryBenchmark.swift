import Glibc
import WorkoutCore

/// `workoutbench fit-memory [RECORDS] [DIR]`: the daemon's peak resident memory (VmHWM) importing
/// one FIT activity of RECORDS 1 Hz records (issue 27 item 6: 1,500,000 records, 21 MB, peaked
/// at ~800 MB). Each record is 14 bytes as a watch writes the smallest: header, timestamp,
/// position, heart rate; the file (written to DIR, default a temp dir, and removed) has a
/// session. Reports the peak before and after the import, the import's wall time and its result.
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
        let dir = args.count > 1 ? args[1] : BenchSupport.makeTempDir()
        let path = dir + "/large-\(n).fit"
        let bytes = file(records: n)
        BenchSupport.writeAll(path, bytes)
        defer { if args.count < 2 { BenchSupport.removeTree(dir) } else { unlink(path) } }
        if args.count > 2 && args[2] == "in-process" {
            // The core alone (no daemon): FITImport over the file read a window at a time.
            struct Source: FITByteSource {
                let fd: Int32, count: Int
                func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FITError) -> Int {
                    pread(fd, buffer.baseAddress, min(buffer.count, count - offset), off_t(offset))
                }
            }
            let fd = open(path, O_RDONLY)
            if args.count > 3 {
                let h0 = BenchSupport.rssKB(getpid(), field: "VmHWM:") ?? -1
                let f = try? FITActivityFile.read(Source(fd: fd, count: bytes.count), keeping: .summary)
                let h1 = BenchSupport.rssKB(getpid(), field: "VmHWM:") ?? -1
                var r = WorkoutRecorder(id: WorkoutID(start: 1e9, suffix: 1), activity: .running, startedAt: 1e9,
                                        settings: Importer.importSettings(MetricsSettings()))
                r.reserveCapacity(fixes: n)
                r.reserveCapacity(heartRateSamples: n + 16)
                let h2 = BenchSupport.rssKB(getpid(), field: "VmHWM:") ?? -1
                for k in 0..<n {
                    let a = Double(k) * 0.008
                    let t = 1e9 + Double(k)
                    if args[3] == "hr" { _ = r.heartRate(time: t, bpm: 120) }
                    r.ingest(Fix(time: t, latitude: 47 + 0.003 * sin(a), longitude: 8.5 + 0.004 * cos(a), mode: .twoD))
                }
                let h3 = BenchSupport.rssKB(getpid(), field: "VmHWM:") ?? -1
                let w = r.finishRecording(at: 1e9 + Double(n))
                let h4 = BenchSupport.rssKB(getpid(), field: "VmHWM:") ?? -1
                BenchSupport.report([("summary_records", String(f?.recordTimes.count ?? -1)), ("hwm0", String(h0)), ("hwm_summary", String(h1)),
                                     ("hwm_reserved", String(h2)), ("hwm_ingested", String(h3)), ("hwm_finished", String(h4)),
                                     ("points", String(w.points.count))])
                return
            }
            let before = BenchSupport.rssKB(getpid(), field: "VmHWM:") ?? -1
            let t0 = BenchSupport.now()
            let ws = try? FITImport.workouts(Source(fd: fd, count: bytes.count), fileName: "large.fit", activity: nil, settings: MetricsSettings(),
                                             source: "imported:large.fit", suffix: { 1 })
            let afterImport = BenchSupport.rssKB(getpid(), field: "VmHWM:") ?? -1
            var size = 0
            if let w = ws?.first?.recorded { WorkoutFile.encode(w) { b in size += b.count; b.removeAll(keepingCapacity: true) } }
            BenchSupport.report([("records", String(n)), ("workouts", String(ws?.count ?? 0)), ("peak_before_kb", String(before)),
                                 ("peak_import_kb", String(afterImport)), ("peak_encoded_kb", String(BenchSupport.rssKB(getpid(), field: "VmHWM:") ?? -1)),
                                 ("file_json_bytes", String(size)), ("import_s", BenchSupport.fmt(BenchSupport.now() - t0, 2))])
            close(fd)
            return
        }
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
}
