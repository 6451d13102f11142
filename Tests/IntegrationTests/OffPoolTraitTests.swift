import Synchronization
import Testing

/// The `.offPool` trait (Support/OffPoolTrait.swift) that keeps the waiting integration suites
/// off Swift's cooperative pool: its gate caps how many run at once and lets a timed suite run
/// beside no other; a test under the trait runs on the trait's executor. In-process, milliseconds.
@Suite(.offPool) struct OffPoolTraitTests {
    /// What the tasks under test did, in order.
    final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        func append(_ s: String) { entries.withLock { $0.append(s) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// Yields until `gate` has `n` waiters (the task under test reached its `enter`).
    static func untilWaiting(_ gate: TestGate, _ n: Int) async {
        while await gate.waiters < n { await Task.yield() }
    }

    @Test func theGateLetsInAsManyAsItHasSlots() async {
        let gate = TestGate(slots: 4)
        for _ in 0..<4 { await gate.enter(1) }
        let log = Log()
        let fifth = Task { await gate.enter(1); log.append("fifth") }
        await Self.untilWaiting(gate, 1)
        #expect(log.all.isEmpty)
        await gate.leave(1)
        await fifth.value
        #expect(log.all == ["fifth"])
        #expect(await gate.waiters == 0)
    }

    /// `.offPoolAlone` takes every slot, and later one-slot tests do not overtake it while it waits.
    @Test func aTestThatTakesEverySlotWaitsForTheOthersAndIsNotOvertaken() async {
        let gate = TestGate(slots: 4)
        await gate.enter(1)
        let order = Log()
        let alone = Task { await gate.enter(4); order.append("alone") }
        await Self.untilWaiting(gate, 1)
        let single = Task { await gate.enter(1); order.append("single") }
        await Self.untilWaiting(gate, 2)  // three slots are free, yet the single one waits
        #expect(order.all.isEmpty)
        await gate.leave(1)
        await alone.value
        #expect(await gate.waiters == 1)
        await gate.leave(4)
        await single.value
        #expect(order.all == ["alone", "single"])
    }

    @Test func aTestUnderTheTraitRunsOnItsOwnExecutorNotThePool() {
        let executor = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
        #expect(executor != nil, "no task executor preference: the test runs on the cooperative pool")
        #expect(OffPoolTrait.holdsSlots)
    }
}
