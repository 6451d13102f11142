import WorkoutCore

/// `workoutbench nmea-decode FILE`: reads the whole file and decodes it with
/// `NMEADecoder.decodeAll`, as one process, the counterpart of `gpsdecode -m < FILE`.
/// Timing is done from outside (whole process, file reading included).
enum NMEADecodeBenchmark {
    static func run(_ args: [String]) {
        guard let path = args.first else { BenchSupport.fail("usage: nmea-decode FILE") }
        let t0 = BenchSupport.now()
        let bytes = BenchSupport.readAll(path)
        let r = NMEADecoder.decodeAll(bytes)
        let dt = BenchSupport.now() - t0
        BenchSupport.report([("bytes", String(bytes.count)), ("sentences", String(r.sentences)), ("fixes", String(r.fixes)),
                             ("in_process_s", BenchSupport.fmt(dt, 4))])
    }
}
