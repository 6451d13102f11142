import Glibc
import WorkoutCore

/// `workoutbench import-phases FILE [RUNS]`: where the time of `workoutctl import FILE` plus
/// `workoutctl export --format gpx` goes inside the daemon, phase by phase, in process (median
/// of RUNS): decoding the file, measuring it with the recorder, encoding the native workout file
/// (import's save), decoding it again (export's load), and writing GPX.
enum ImportPhasesBenchmark {
    static func run(_ args: [String]) {
        guard let path = args.first else { BenchSupport.fail("usage: import-phases FILE [RUNS]") }
        let runs = args.count > 1 ? Int(args[1]) ?? 3 : 3
        let bytes = BenchSupport.readAll(path)
        let name = String(path.split(separator: "/").last ?? "")
        var times: [String: [Double]] = [:]
        var points = 0, fileBytes = 0, gpxBytes = 0
        func time<T>(_ key: String, _ body: () throws -> T) rethrows -> T {
            let t0 = BenchSupport.now()
            let r = try body()
            times[key, default: []].append((BenchSupport.now() - t0) * 1000)
            return r
        }
        for _ in 0..<runs {
            do {
                let track = try time("decode_ms") { try Importer.read(bytes, fileName: name) }
                let w = try time("recorder_ms") {
                    try Importer.workout(from: track, activity: nil, id: 1, settings: MetricsSettings(), source: "imported:" + name)
                }
                let encoded = time("encode_ms") { WorkoutFile.encode(w) }
                let loaded = try time("load_ms") { try WorkoutFile.decode(encoded) }
                let gpx = time("gpx_ms") { GPXWriter.write(loaded) }
                points = w.points.count; fileBytes = encoded.count; gpxBytes = gpx.count
            } catch { BenchSupport.fail("\(error)") }
        }
        func median(_ v: [Double]) -> String { let s = v.sorted(); return formatFixed(s[s.count / 2], decimals: 1) }
        BenchSupport.report([("points", String(points)), ("native_bytes", String(fileBytes)), ("gpx_bytes", String(gpxBytes))]
                            + ["decode_ms", "recorder_ms", "encode_ms", "load_ms", "gpx_ms"].map { ($0, median(times[$0] ?? [0])) })
    }
}
