import WorkoutCore

/// `workoutbench fit-decode FILE [RUNS]`: in-process FIT import of one file, median of RUNS:
/// decode alone (`FITActivityFile.read`), decode + tracks (`Importer.readAll`), and the whole
/// import (+ `Importer.workout`, the recorder); then `gpsbabel -i garmin_fit -o gpx` on the same
/// file as a whole process (median of the same runs), and the ratio.
enum FITDecodeBenchmark {
    static func run(_ args: [String]) {
        guard let path = args.first else { BenchSupport.fail("usage: fit-decode FILE [RUNS]") }
        let runs = args.count > 1 ? Int(args[1]) ?? 9 : 9
        let bytes = BenchSupport.readAll(path)
        var decode: [Double] = [], read: [Double] = [], whole: [Double] = [], babel: [Double] = []
        var records = 0, points = 0
        for _ in 0..<runs {
            var t0 = BenchSupport.now()
            guard let f = try? FITActivityFile.read(bytes) else { BenchSupport.fail("fit-decode: \(path) does not decode") }
            decode.append(BenchSupport.now() - t0)
            records = f.records.count
            t0 = BenchSupport.now()
            guard let tracks = try? Importer.readAll(bytes, fileName: path) else { BenchSupport.fail("fit-decode: \(path) does not import") }
            read.append(BenchSupport.now() - t0)
            t0 = BenchSupport.now()
            let tracks2 = (try? Importer.readAll(bytes, fileName: path)) ?? tracks
            var n = 0
            for t in tracks2 {
                if let w = try? Importer.workout(from: t, activity: nil, id: 1, settings: MetricsSettings(), source: "") { n += w.summary.pointCount }
            }
            whole.append(BenchSupport.now() - t0)
            points = n
            t0 = BenchSupport.now()
            let rc = BenchSupport.spawnAndWait(["/usr/bin/env", "gpsbabel", "-i", "garmin_fit", "-f", path, "-o", "gpx", "-F", "/dev/null"], environment: nil)
            if rc == 0 { babel.append(BenchSupport.now() - t0) }
        }
        let mb = Double(bytes.count) / 1_000_000
        var out: [(String, String)] = [("bytes", String(bytes.count)), ("records", String(records)), ("points", String(points)),
                                        ("decode_ms", BenchSupport.fmt(BenchSupport.median(decode) * 1000, 2)),
                                        ("decode_MB_s", BenchSupport.fmt(mb / BenchSupport.median(decode), 1)),
                                        ("read_ms", BenchSupport.fmt(BenchSupport.median(read) * 1000, 2)),
                                        ("import_ms", BenchSupport.fmt(BenchSupport.median(whole) * 1000, 2))]
        if !babel.isEmpty {
            out.append(("gpsbabel_ms", BenchSupport.fmt(BenchSupport.median(babel) * 1000, 1)))
            out.append(("ratio_decode", BenchSupport.fmt(BenchSupport.median(babel) / BenchSupport.median(decode), 1)))
            out.append(("ratio_import", BenchSupport.fmt(BenchSupport.median(babel) / BenchSupport.median(whole), 1)))
        }
        BenchSupport.report(out)
    }
}
