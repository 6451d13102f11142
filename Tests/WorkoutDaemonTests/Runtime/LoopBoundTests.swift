import Foundation
import Testing
@testable import WorkoutDaemon

/// A value bound to the loop travels to a worker and back: only the loop's thread reads or
/// changes it, and a worker holding it is off the loop (where `value` would trap in debug builds).
@Suite struct LoopBoundTests {
    /// Loop-confined state that is not `Sendable`.
    final class Tally { var items: [String] = [] }

    @Test func aWorkerCarriesTheValueBackToTheLoop() throws {
        let loop = try EventLoop(clock: ManualClock())
        let tally = Tally()
        let bound = LoopBound(tally, loop: loop)
        let seen = LoopLog()
        loop.post {
            // On the loop: a worker gets the value, is off the loop, and posts its change back.
            let done = DispatchSemaphore(value: 0)
            Thread {
                seen.entries.append("worker in loop: \(bound.loop.isInLoop)")
                loop.post { bound.value.items.append("from the worker") }
                done.signal()
            }.start()
            done.wait()
        }
        try loop.runReady()
        try loop.runReady()
        #expect(seen.entries == ["worker in loop: false"])
        #expect(tally.items == ["from the worker"])
    }

    @Test func aTouchFromAnotherThreadWhileTheLoopRunsIsDetected() throws {
        let loop = try EventLoop(clock: ManualClock())
        var bound = LoopBound(0, loop: loop)
        let seen = LoopLog(), carried = bound
        loop.post { seen.entries.append("elsewhere in loop: \(onAnotherThread { carried.loop.isInLoop })") }
        try loop.runReady()
        bound.value += 1
        #expect(bound.value == 1)
        #expect(seen.entries == ["elsewhere in loop: false"])
    }

    @Test func aWeakReferenceLetsTheObjectGo() throws {
        let loop = try EventLoop(clock: ManualClock())
        var tally: Tally? = Tally()
        let bound = LoopBound(WeakReference(tally!), loop: loop)
        #expect(bound.value.object != nil)
        tally = nil
        #expect(bound.value.object == nil)
    }
}
