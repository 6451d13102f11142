import Foundation
import Testing

/// `.offPool`: the suite's tests run on threads of their own instead of Swift's cooperative pool
/// (one thread per core: 2 on CI). An integration test blocks while it waits on a daemon, gpsd or
/// a browser; on the pool, two such tests held both threads and every other test of a plain
/// `swift test` (the unit targets' CPU-bound tests among them) queued behind them.
///
/// Each test case takes slots of one gate (`OffPoolTrait.gate`, 4 slots, as CI runs 4 test
/// processes at a time): at most 4 such tests run at once, so the machine is not flooded with
/// daemons. A waiting test is a suspended task; it holds no thread. `.offPoolAlone` takes every
/// slot: a timed suite runs beside no other off-pool test, only beside what the pool runs (none
/// uses it now: .ci/reliability.sh runs the timed ones alone, in the serialized
/// `ReliabilitySuite`). The test runs in its own task under a task executor
/// preference, so `#expect` still reports to that test, and `.serialized` still runs a suite's
/// tests one after another (the runner starts the next only when this one has returned).
struct OffPoolTrait: SuiteTrait, TestTrait, TestScoping {
    /// `WORKOUTD_TEST_OFFPOOL` (a count) changes it, to measure.
    static let limit = ProcessInfo.processInfo.environment["WORKOUTD_TEST_OFFPOOL"].flatMap { Int($0) }.map { max(1, $0) } ?? 4
    static let gate = TestGate(slots: limit)
    /// Set while a test case holds its slots: a second `.offPool` on the same test (a suite's and
    /// its nested suite's) must not take slots again.
    @TaskLocal static var holdsSlots = false

    /// Slots a test case takes: 1, or `limit` for a test that must not share the machine.
    let slots: Int

    // Swift Testing 6.3 traps (Runner.Plan._recursivelyApplyTraits) on a recursive suite trait
    // that is not also a TestTrait.
    var isRecursive: Bool { true }

    /// A scope for the suite (it moves off the pool at once) and one per test case (a
    /// parameterized test's arguments each take a slot). Of several `.offPool` traits on one test
    /// case (the enclosing suite's and its own), only the one taking the most slots applies:
    /// taking one slot and then waiting for all of them could deadlock.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        guard testCase != nil else { return test.isSuite ? self : nil }
        let widest = test.traits.compactMap { ($0 as? Self)?.slots }.max() ?? slots
        return slots == widest ? self : nil
    }

    /// A test with a `.timeLimit` takes no slot: Swift Testing counts this scope's time, the wait
    /// at the gate included, toward the limit (a `swift test` run failed two such tests after
    /// 60 s in the queue). Such tests are short guards against a hang (2 of them here).
    ///
    /// A suite takes no slot: it leaves the pool before its tests are started, so their tasks
    /// start on the trait's executor too. Otherwise each test's first step waits in the pool's
    /// queue behind every unit test started before it: a `swift test` run started its first
    /// integration test after 163 s, when WorkoutCoreTests' 763 test cases were done.
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else {
            return try await withTaskExecutorPreference(ThreadPerJobExecutor()) { try await function() }
        }
        if Self.holdsSlots { return try await function() }
        guard test.timeLimit == nil else { return try await Self.runOffPool(function) }
        await Self.gate.enter(slots)
        do {
            try await Self.runOffPool(function)
        } catch {
            await Self.gate.leave(slots)
            throw error
        }
        await Self.gate.leave(slots)
    }

    private static func runOffPool(_ function: @Sendable () async throws -> Void) async throws {
        try await $holdsSlots.withValue(true) {
            try await withTaskExecutorPreference(ThreadPerJobExecutor()) { try await function() }
        }
    }
}

extension Trait where Self == OffPoolTrait {
    /// Runs the suite's tests off the cooperative pool, at most `OffPoolTrait.limit` at once.
    static var offPool: Self { OffPoolTrait(slots: 1) }
    /// Off the pool and beside no other off-pool test: for timed suites.
    static var offPoolAlone: Self { OffPoolTrait(slots: OffPoolTrait.limit) }
}

/// Runs each job on a new thread: a test that blocks holds that thread, no pool thread.
final class ThreadPerJobExecutor: TaskExecutor, @unchecked Sendable {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}

/// A gate of `slots` slots whose waiters are suspended tasks, not blocked threads. First come,
/// first served: a test waiting for every slot is not overtaken by later one-slot tests.
actor TestGate {
    private let slots: Int
    private var free: Int
    private var waiting: [(slots: Int, resume: CheckedContinuation<Void, Never>)] = []

    init(slots: Int) {
        self.slots = slots
        free = slots
    }

    func enter(_ n: Int) async {
        let n = min(n, slots)
        if waiting.isEmpty && free >= n { free -= n; return }
        await withCheckedContinuation { waiting.append((n, $0)) }
    }

    /// Tasks waiting to enter (for tests of the gate).
    var waiters: Int { waiting.count }

    /// Gives the slots back, and lets in the waiters at the front that now fit.
    func leave(_ n: Int) {
        free += min(n, slots)
        while let first = waiting.first, first.slots <= free {
            free -= first.slots
            waiting.removeFirst().resume.resume()
        }
    }
}
