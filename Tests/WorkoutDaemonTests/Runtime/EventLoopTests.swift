import Glibc
import Testing
@testable import WorkoutDaemon

/// The loop's promises that the feeds and the control server rely on: coalesced input does not
/// wake it, yet is handled before anything else whenever it wakes; hang-ups still wake it;
/// repeating timers keep in step.
@Suite struct EventLoopTests {
    @Test func coalescedInputWaitsForTheNextWakeUpAndComesBeforeTheTimer() throws {
        let loop = try EventLoop()
        let feed = SocketPair()
        let log = LoopLog()
        feed.write("fix\n")  // already readable when the loop starts
        loop.watch(feed.reader, mode: .coalesced) { _ in log.entries.append("read " + feed.readAvailable()) }
        loop.after(0.2) { log.entries.append("timer"); loop.stop() }
        loop.run { log.wakeUps += 1 }
        #expect(log.entries == ["read fix\n", "timer"])
        #expect(log.wakeUps == 1, "the input woke the loop: \(log.wakeUps) wake-ups")
    }

    @Test func immediateInputWakesTheLoopAtOnce() throws {
        let loop = try EventLoop()
        let feed = SocketPair()
        let log = LoopLog()
        feed.write("fix\n")
        loop.watch(feed.reader, mode: .immediate) { _ in log.entries.append("read " + feed.readAvailable()) }
        loop.after(0.2) { log.entries.append("timer"); loop.stop() }
        loop.run { log.wakeUps += 1 }
        #expect(log.entries == ["read fix\n", "timer"])
        #expect(log.wakeUps == 2)
    }

    @Test func aHangUpWakesACoalescedWatchAtOnce() throws {
        let loop = try EventLoop()
        let feed = SocketPair()
        let log = LoopLog()
        feed.closeWriter()
        loop.watch(feed.reader, mode: .coalesced) { _ in
            log.entries.append(feed.readAvailable())
            loop.stop()
        }
        loop.after(5) { log.entries.append("timer"); loop.stop() }
        loop.run { log.wakeUps += 1 }
        #expect(log.entries == ["EOF"])
        #expect(log.wakeUps == 1)
    }

    /// A control request (an immediate watch) and a posted closure (a signal, a finished save)
    /// both see the feed input that had arrived when the loop woke: a status reply counts every
    /// fix sent before the request.
    @Test func requestsAndPostedClosuresSeeCoalescedInputFirst() throws {
        let loop = try EventLoop()
        let feed = SocketPair(), control = SocketPair()
        let log = LoopLog()
        feed.write("fix 1\n")
        control.write("status\n")
        loop.post { log.entries.append("posted"); loop.stop() }
        loop.watch(feed.reader, mode: .coalesced) { _ in log.entries.append("feed " + feed.readAvailable()) }
        loop.watch(control.reader, mode: .immediate) { _ in log.entries.append("request " + control.readAvailable()) }
        loop.run { log.wakeUps += 1 }
        #expect(log.entries == ["feed fix 1\n", "request status\n", "posted"])
        #expect(log.wakeUps == 1)
    }

    @Test func modeCanChangeWhileWatched() throws {
        let loop = try EventLoop()
        let feed = SocketPair()
        let token = loop.watch(feed.reader, mode: .coalesced) { _ in _ = feed.readAvailable() }
        #expect(loop.mode(token) == .coalesced)
        loop.setMode(token, .immediate)
        #expect(loop.mode(token) == .immediate)
        loop.unwatch(token)
        #expect(loop.mode(token) == nil)
    }

    /// Timers of one interval share wake-ups even when one body is slow (the journal flush's
    /// fdatasync): the next run is due an interval after the last was due, not after it ended.
    @Test func repeatingTimersOfOneIntervalStayInStep() throws {
        let loop = try EventLoop()
        let log = LoopLog()
        var tick: [Int] = [], flush: [Int] = []
        let a = loop.every(0.05) { tick.append(log.wakeUps) }
        let b = loop.every(0.05) { flush.append(log.wakeUps); usleep(8_000) }
        loop.after(0.53) { loop.stop() }
        loop.run { log.wakeUps += 1 }
        a.cancel(); b.cancel()
        #expect(tick.count >= 8)
        #expect(tick == flush, "tick ran at wake-ups \(tick), flush at \(flush)")
    }

    /// After a stall (a hung loop, a suspended machine) missed runs are skipped, not caught up
    /// (a guard on fixed-rate scheduling, which would otherwise run them in a burst).
    @Test func aStalledRepeatingTimerDoesNotCatchUp() throws {
        let loop = try EventLoop()
        var runs = 0
        let t = loop.every(0.02) { runs += 1; if runs == 1 { usleep(200_000) } }
        loop.after(0.3) { loop.stop() }
        loop.run()
        t.cancel()
        // 1 + about 4 after the stall; catching up the ten missed runs would make it ~15.
        #expect(runs >= 2 && runs <= 8, "runs: \(runs)")
    }
}
