/// Which CPUs the event loop's thread and the bulk threads (import and export: the bulk worker
/// and the import's stage threads, nice 19) may run on. Nice orders threads only within one
/// scheduling group, and the daemon's threads share one (its session's autogroup, or its
/// service's cgroup): so while a workout is in progress the bulk threads are kept off one CPU,
/// which the loop has to itself (BENCHMARKS.md, issue 43). With no workout, or a single CPU,
/// both share every CPU the process may use (an import on an idle machine keeps all of them).
public enum CPUPartition: Equatable, Sendable {
    /// What the loop serves: whether a workout is in progress (recording or paused).
    public enum Load: Equatable, Sendable {
        case workoutInProgress
        case noWorkout
    }

    /// The loop and the bulk threads on every allowed CPU (ascending).
    case shared([Int])
    /// The loop's thread alone on `loop`; the bulk threads on `bulk`, every other allowed CPU.
    case split(loop: Int, bulk: [Int])

    /// The partition for the CPUs the process may use (`allowed`: its affinity at start-up, as
    /// a container or systemd's `CPUAffinity=` left it) and the loop's `load`. The loop takes
    /// the lowest allowed CPU.
    public init(allowed: [Int], load: Load) {
        let cpus = Array(Set(allowed)).sorted()
        switch load {
        case .noWorkout:
            self = .shared(cpus)
        case .workoutInProgress:
            guard cpus.count >= 2, let first = cpus.first else { self = .shared(cpus); return }
            self = .split(loop: first, bulk: Array(cpus.dropFirst()))
        }
    }

    /// The CPUs the loop's thread may run on.
    public var loopCPUs: [Int] {
        switch self {
        case .shared(let cpus): return cpus
        case .split(let loop, _): return [loop]
        }
    }

    /// The CPUs the bulk threads may run on.
    public var bulkCPUs: [Int] {
        switch self {
        case .shared(let cpus): return cpus
        case .split(_, let bulk): return bulk
        }
    }

    /// `cpus` (ascending) as the kernel lists them (`Cpus_allowed_list` in /proc, `taskset -c`):
    /// "0-3,6", "" for none.
    public static func list(_ cpus: [Int]) -> String {
        var parts: [String] = []
        var i = 0
        while i < cpus.count {
            var j = i
            while j + 1 < cpus.count, cpus[j + 1] == cpus[j] + 1 { j += 1 }
            parts.append(j == i ? "\(cpus[i])" : "\(cpus[i])-\(cpus[j])")
            i = j + 1
        }
        return parts.joined(separator: ",")
    }
}
