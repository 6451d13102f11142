import Glibc
import WorkoutCore
import WorkoutDaemon

/// `workoutbench status-reply [POINTS] [RUNS]`: in-process cost of the `workout` part of a
/// `status` reply for a recorder holding POINTS 1 Hz points (as SaveBenchmark builds them):
/// the live summary; its encoding to the bytes the control socket sends, the old way (JSON
/// tree, String) and the direct writer with a fresh and with a kept `SummaryJSONCache`; and
/// what a client spends parsing those bytes back. Medians over RUNS; `identical` checks bytes.
enum StatusReplyBenchmark {
    static func run(_ args: [String]) {
        let count = args.first.flatMap { Int($0) } ?? 86_400
        let runs = args.dropFirst().first.flatMap { Int($0) } ?? 200
        let start = 1_790_000_000.0
        var recorder = WorkoutRecorder(id: WorkoutID(start: start, suffix: 1), activity: .running, startedAt: start)
        for k in 0..<count {
            let d = 3 * Double(k)
            _ = recorder.ingest(Fix(time: start + 1 + Double(k), latitude: 48.1 + d / 111_320 * 0.7, longitude: 11.5 + d / 74_000 * 0.7,
                                    altitude: 520 + Double(k % 50) * 0.1, speed: 3, mode: .threeD, horizontalAccuracy: 4))
        }
        let now = start + 2 + Double(count)
        var summaryTimes: [Double] = [], treeTimes: [Double] = [], coldTimes: [Double] = [], warmTimes: [Double] = []
        var parseTimes: [Double] = []
        var cache = SummaryJSONCache()
        var bytes: [UInt8] = []
        var identical = true
        for _ in 0..<runs {
            let t0 = BenchSupport.now()
            let s = recorder.summary(now: now)
            let t1 = BenchSupport.now()
            // Before: a JSON tree, serialised to a String, copied to bytes (as the daemon did).
            var line = s.json().serialized()
            line += "\n"
            let tree = Array(line.utf8)
            let t2 = BenchSupport.now()
            // Now: written straight to bytes; cold (new cache) and warm (the daemon's case).
            var cold = JSONWriter(capacity: 1024)
            var fresh = SummaryJSONCache()
            s.writeJSON(to: &cold, cache: &fresh)
            let t3 = BenchSupport.now()
            var warm = JSONWriter(capacity: 1024)
            s.writeJSON(to: &warm, cache: &cache)
            warm.raw("\n")
            let t4 = BenchSupport.now()
            bytes = warm.bytes
            _ = try? JSON.parse(Array(bytes.dropLast()))
            let t5 = BenchSupport.now()
            identical = identical && tree == bytes && cold.bytes == bytes.dropLast()
            summaryTimes.append(t1 - t0); treeTimes.append(t2 - t1); coldTimes.append(t3 - t2); warmTimes.append(t4 - t3)
            parseTimes.append(t5 - t4)
        }
        BenchSupport.report([("points", String(count)), ("bytes", String(bytes.count)), ("identical", String(identical)),
                             ("summary_us", BenchSupport.fmt(BenchSupport.median(summaryTimes) * 1e6, 1)),
                             ("tree_encode_us", BenchSupport.fmt(BenchSupport.median(treeTimes) * 1e6, 1)),
                             ("direct_cold_us", BenchSupport.fmt(BenchSupport.median(coldTimes) * 1e6, 1)),
                             ("direct_cached_us", BenchSupport.fmt(BenchSupport.median(warmTimes) * 1e6, 1)),
                             ("client_parse_us", BenchSupport.fmt(BenchSupport.median(parseTimes) * 1e6, 1))])
    }
}
