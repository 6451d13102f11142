import Glibc
import Synchronization
import WorkoutCore

/// Applies the `CPUPartition` to the process's threads (issue 43): the bulk threads
/// (`WorkerThread`s at `BulkWorker.niceness`: the bulk worker, the import's stage threads)
/// register as they start and are moved when the partition changes; each daemon's loop reports
/// from its own thread whether a workout is in progress, and is pinned or freed there. The
/// partition is split while any loop of the process has a workout in progress (one in workoutd;
/// a test process embeds several). Each change is a few sched_setaffinity(2) calls under a lock
/// no one holds long: the loop never waits on a bulk thread. The allowed CPUs are read once, at
/// first use (the first bulk thread's start, as the daemon is built), before anything is pinned.
final class CPUAffinity: Sendable {
    static let shared = CPUAffinity(allowed: CPUAffinity.threadCPUs() ?? [])

    /// The CPUs the process may use, as it started.
    let allowed: [Int]

    private struct State {
        /// Bulk threads, by thread ID.
        var bulk: Set<pid_t> = []
        /// The loops that have a workout in progress, by thread ID.
        var busyLoops: Set<pid_t> = []
        var partition: CPUPartition
    }
    private let state: Mutex<State>

    init(allowed: [Int]) {
        self.allowed = allowed
        state = Mutex(State(partition: CPUPartition(allowed: allowed, load: .noWorkout)))
    }

    /// A partition that changed, for the log line.
    struct Change { let old: CPUPartition; let new: CPUPartition }

    /// On a bulk thread as it starts: registered, and placed on the bulk CPUs. Returns its ID
    /// for `bulkThreadEnded`.
    func bulkThreadStarted() -> pid_t {
        let tid = CPUAffinity.threadID()
        state.withLock { s in
            s.bulk.insert(tid)
            _ = CPUAffinity.set(tid, s.partition.bulkCPUs)
        }
        return tid
    }

    func bulkThreadEnded(_ tid: pid_t) { _ = state.withLock { $0.bulk.remove(tid) } }

    /// On any other thread the daemon starts (hooks, web, the reader): every allowed CPU, not the
    /// pinned loop's one CPU it would inherit when started from the loop.
    func otherThreadStarted() { _ = CPUAffinity.set(0, allowed) }

    /// On a loop's thread: whether its workout is in progress (`.noWorkout` also when the loop
    /// ends). Pins or frees this thread, moves the bulk threads; the change, if the partition
    /// changed.
    func loopReports(_ load: CPUPartition.Load) -> Change? {
        let tid = CPUAffinity.threadID()
        return state.withLock { s -> Change? in
            switch load {
            case .workoutInProgress: s.busyLoops.insert(tid)
            case .noWorkout: s.busyLoops.remove(tid)
            }
            let old = s.partition
            s.partition = CPUPartition(allowed: allowed, load: s.busyLoops.isEmpty ? .noWorkout : .workoutInProgress)
            _ = CPUAffinity.set(0, s.busyLoops.contains(tid) ? s.partition.loopCPUs : allowed)
            guard s.partition != old else { return nil }
            for t in s.bulk { _ = CPUAffinity.set(t, s.partition.bulkCPUs) }
            return Change(old: old, new: s.partition)
        }
    }

    // MARK: - The system calls (Glibc's Swift module exports neither, nor the CPU_SET macros)

    private typealias Affinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32
    private typealias GetTID = @convention(c) () -> pid_t
    private static let getAffinity = CLibrary.function("sched_getaffinity", as: Affinity.self)
    private static let setAffinity = CLibrary.function("sched_setaffinity", as: Affinity.self)
    private static let getTID = CLibrary.function("gettid", as: GetTID.self)

    /// The calling thread's kernel ID (what /proc/self/task lists).
    static func threadID() -> pid_t { getTID?() ?? 0 }

    /// The CPUs thread `tid` (0: the calling one) may run on; nil when they cannot be read.
    static func threadCPUs(_ tid: pid_t = 0) -> [Int]? {
        var set = cpu_set_t()
        guard let f = getAffinity, f(tid, MemoryLayout<cpu_set_t>.size, &set) == 0 else { return nil }
        return withUnsafeBytes(of: &set) { bytes in
            (0..<bytes.count * 8).filter { bytes[$0 / 8] & (1 << ($0 % 8)) != 0 }
        }
    }

    /// Restricts thread `tid` (0: the calling one) to `cpus`; false when refused (a seccomp
    /// filter, a CPU gone) or `cpus` is empty (nothing known: left as it is).
    @discardableResult
    static func set(_ tid: pid_t, _ cpus: [Int]) -> Bool {
        guard let f = setAffinity, !cpus.isEmpty else { return false }
        var set = cpu_set_t()
        withUnsafeMutableBytes(of: &set) { bytes in
            for cpu in cpus where cpu < bytes.count * 8 { bytes[cpu / 8] |= UInt8(1 << (cpu % 8)) }
        }
        return f(tid, MemoryLayout<cpu_set_t>.size, &set) == 0
    }
}

/// The log line of a partition change.
enum CPUPartitionLogEvent: LogEvent {
    case changed(CPUAffinity.Change)

    var name: String { "cpu.partition" }
    var level: LogLevel { .info }

    var message: String {
        switch self {
        case .changed(let c):
            switch c.new {
            case .split(let loop, let bulk):
                return "Workout in progress: event loop on CPU \(loop), import and export on CPUs \(CPUPartition.list(bulk))"
            case .shared(let cpus):
                return "Event loop, import and export share CPUs \(CPUPartition.list(cpus))"
            }
        }
    }

    var fields: [(String, LogValue)] {
        switch self {
        case .changed(let c):
            return [("loop_cpus", .string(CPUPartition.list(c.new.loopCPUs))), ("bulk_cpus", .string(CPUPartition.list(c.new.bulkCPUs))),
                    ("was_loop_cpus", .string(CPUPartition.list(c.old.loopCPUs))), ("was_bulk_cpus", .string(CPUPartition.list(c.old.bulkCPUs)))]
        }
    }
}
