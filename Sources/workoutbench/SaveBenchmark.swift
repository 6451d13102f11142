import Glibc
import WorkoutCore
import WorkoutDaemon

/// `workoutbench save [POINTS] [RUNS]`: a workout of POINTS 1 Hz fixes built by the recorder,
/// saved with `HistoryStore.save` (WorkoutFile.encode + AtomicFile write/fsync/rename + index
/// append) into a temp data dir, RUNS times; median, with the encode alone beside it.
enum SaveBenchmark {
    static func workout(points: Int, start: Double) -> Workout {
        var recorder = WorkoutRecorder(id: WorkoutID(start: start, suffix: 1), activity: .running, startedAt: start)
        for k in 0..<points {
            let d = 3 * Double(k)
            _ = recorder.ingest(Fix(time: start + 1 + Double(k), latitude: 48.1 + d / 111_320 * 0.7, longitude: 11.5 + d / 74_000 * 0.7,
                                    altitude: 520 + Double(k % 50) * 0.1, speed: 3, mode: .threeD, horizontalAccuracy: 4))
        }
        return recorder.finish(at: start + 1 + Double(points))
    }

    static func run(_ args: [String]) {
        let count = args.first.flatMap { Int($0) } ?? 86_400
        let runs = args.dropFirst().first.flatMap { Int($0) } ?? 5
        let w = workout(points: count, start: 1_790_000_000)
        let dir = BenchSupport.makeTempDir()
        defer { BenchSupport.removeTree(dir) }
        let paths = Paths(environment: ["HOME": dir, "XDG_DATA_HOME": dir + "/d", "XDG_STATE_HOME": dir + "/s", "XDG_RUNTIME_DIR": dir + "/r"])
        let store: HistoryStore
        do { store = try HistoryStore(paths: paths, machine: MachineTag(rawValue: "bench")!) } catch { BenchSupport.fail("store: \(error)") }
        var encode: [Double] = [], save: [Double] = []
        var size = 0
        for _ in 0..<runs {
            let e0 = BenchSupport.now()
            size = WorkoutFile.encode(w).count
            encode.append(BenchSupport.now() - e0)
            let s0 = BenchSupport.now()
            do { try store.save(w) } catch { BenchSupport.fail("save: \(error)") }
            save.append(BenchSupport.now() - s0)
        }
        BenchSupport.report([("points", String(w.points.count)), ("bytes", String(size)),
                             ("encode_ms", BenchSupport.fmt(BenchSupport.median(encode) * 1000)),
                             ("save_ms", BenchSupport.fmt(BenchSupport.median(save) * 1000))])
    }
}
