import Glibc
import WorkoutCore

/// `workoutbench recorder-ingest [FIXES] [RUNS]`: the pure recorder's ingest cost in process, a
/// 10 Hz wobbly track of FIXES (40,000) fixes; the second half's time over the first half's,
/// median of RUNS. About 1 when ingest is O(1) amortised; a scan of the points so far per fix
/// would make it ~3. (Was a timed assertion in WorkoutRecorderPropertyTests.)
enum RecorderIngestBenchmark {
    static func run(_ args: [String]) {
        let count = args.first.flatMap { Int($0) } ?? 40_000
        let runs = args.dropFirst().first.flatMap { Int($0) } ?? 5
        let start = 1_790_000_000.0
        var seed: UInt64 = 99
        let fixes = (0..<count).map { i -> Fix in
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let noise = (Double(seed >> 11) / Double(1 << 53) - 0.5) * 0.4
            let north = 2 * sin(Double(i) / 500), east = 0.35 * Double(i) + noise
            return Fix(time: start + Double(i + 1) / 10, latitude: 48.137 + north / 111_200, longitude: 11.575 + east / 74_300,
                       altitude: 100, mode: .threeD, horizontalAccuracy: 4)
        }
        var first: [Double] = [], second: [Double] = [], ratio: [Double] = []
        for _ in 0..<runs {
            var r = WorkoutRecorder(id: WorkoutID(start: start, suffix: 1), activity: .running, startedAt: start)
            let t0 = BenchSupport.now()
            for f in fixes[..<(count / 2)] { _ = r.ingest(f) }
            let t1 = BenchSupport.now()
            for f in fixes[(count / 2)...] { _ = r.ingest(f) }
            let t2 = BenchSupport.now()
            first.append(t1 - t0)
            second.append(t2 - t1)
            ratio.append((t2 - t1) / (t1 - t0))
        }
        BenchSupport.report([("fixes", String(count)),
                             ("first_half_us_per_fix", BenchSupport.fmt(BenchSupport.median(first) / Double(count / 2) * 1e6)),
                             ("second_half_us_per_fix", BenchSupport.fmt(BenchSupport.median(second) / Double(count - count / 2) * 1e6)),
                             ("second_over_first", BenchSupport.fmt(BenchSupport.median(ratio)))])
    }
}
