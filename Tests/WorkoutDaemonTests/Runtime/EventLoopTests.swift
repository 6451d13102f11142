import Foundation
import Glibc
import Synchronization
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
        try loop.run { log.wakeUps += 1 }
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
        try loop.run { log.wakeUps += 1 }
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
        try loop.run { log.wakeUps += 1 }
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
        try loop.run { log.wakeUps += 1 }
        #expect(log.entries == ["feed fix 1\n", "request status\n", "posted"])
        #expect(log.wakeUps == 1)
    }

    /// A batched watch (a Bluetooth sensor's connection once subscribed: four at 4 Hz woke the
    /// loop 16 times a second) never wakes the loop for its input: the loop wakes at the latest
    /// `batchSeconds` after its last read and reads it then, with the coalesced feed, each of
    /// what came together dated by `arrivalAges`. A hang-up still wakes it at once. The poller
    /// stands in for the wait: it moves the manual clock on by the timeout it is given.
    @Test func batchedInputIsReadWithinTheBoundWithoutWakingTheLoop() throws {
        let clock = ManualClock()
        let log = LoopLog()
        var found: [Int32] = []
        let loop = try EventLoop(clock: clock, poller: { fd, events, capacity, ms in
            let n = EventLoop.wait(fd, events, capacity, 0)
            found.append(n)
            if n == 0 { clock.advance(by: Double(ms) / 1000) }
            return n
        })
        let t0 = loop.now()
        // To 10 ms: a wait is rounded up to whole ms.
        func at() -> String { String(Int(((loop.now() - t0) * 100).rounded()) * 10) }
        let feed = SocketPair(), sensor = SocketPair()
        loop.watch(feed.reader, mode: .coalesced) { _ in log.entries.append("feed " + feed.readAvailable() + " at \(at())") }
        var token = 0
        token = loop.watch(sensor.reader, mode: .batched) { _ in
            let text = sensor.readAvailable()
            if text == "EOF" { loop.unwatch(token) }
            let ages = loop.arrivalAges(count: text.split(separator: "\n").count).map { Int(($0 * 1000).rounded()) }
            log.entries.append("sensor \(text.split(separator: "\n")) at \(at()) ages \(ages)")
        }
        loop.after(0.1) { sensor.write("r1\nr2\nr3\n"); feed.write("fix\n") }
        loop.after(2.0) { sensor.closeWriter() }
        loop.after(3.0) { loop.stop() }
        try loop.run()
        // Read 1 s (`batchSeconds`) after the last read (the timer's turn at 100 ms), dated
        // over that second.
        #expect(EventLoop.batchSeconds == 1)
        #expect(Set(log.entries.prefix(2)) == ["feed fix\n at 1100", "sensor [\"r1\", \"r2\", \"r3\"] at 1100 ages [667, 333, 0]"], "\(log.entries)")
        #expect(log.entries.dropFirst(2) == ["sensor [\"EOF\"] at 2000 ages [0]"], "\(log.entries)")
        // Only the hang-up was found ready: the input never woke the loop.
        #expect(found.filter { $0 > 0 }.count == 1, "ready counts \(found)")
    }

    /// A batched watch's output (a D-Bus call waiting for room) wakes the loop as an immediate
    /// watch's does; only its input waits.
    @Test func aBatchedWatchsOutputWakesTheLoop() throws {
        let loop = try EventLoop()
        let pair = SocketPair()
        let log = LoopLog()
        loop.watch(pair.reader, events: Int16(POLLIN | POLLOUT), mode: .batched) { revents in
            log.entries.append(revents & Int16(POLLOUT) != 0 ? "out" : "in")
            loop.stop()
        }
        loop.after(5) { log.entries.append("timer"); loop.stop() }
        try loop.run()
        #expect(log.entries == ["out"])
    }

    /// A turn that finds nothing ready (a timeout; `runReady` in a test on a driven clock) still
    /// reads the coalesced input (regression: the in-process
    /// daemon's fixes, sent between `advance` calls, were read a second late and
    /// `DaemonTimeTests.wallClockStepsDuringAWorkoutChangeNoDuration` measured 12.7 s for 12).
    @Test func aTurnWithNothingReadyStillReadsCoalescedInput() throws {
        let loop = try EventLoop()
        let feed = SocketPair()
        let log = LoopLog()
        feed.write("fix\n")
        loop.watch(feed.reader, mode: .coalesced) { _ in log.entries.append("read " + feed.readAvailable()) }
        try loop.runReady()
        #expect(log.entries == ["read fix\n"])
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
        let clock = ManualClock()
        let loop = try EventLoop(clock: clock)
        let t0 = loop.now()
        var tick: [Double] = [], flush: [Double] = []
        let a = loop.every(0.05) { tick.append(loop.now() - t0) }
        let b = loop.every(0.05) { flush.append(loop.now() - t0); clock.advance(by: 0.008) }  // a slow fsync
        try loop.advanceTime(by: 0.53)
        a.cancel(); b.cancel()
        #expect(tick.count == 10)
        #expect(tick == flush, "tick ran at \(tick), flush at \(flush)")
    }

    /// After a stall (a hung loop, a suspended machine) missed runs are skipped, not caught up
    /// (a guard on fixed-rate scheduling, which would otherwise run them in a burst).
    @Test func aStalledRepeatingTimerDoesNotCatchUp() throws {
        let clock = ManualClock()
        let loop = try EventLoop(clock: clock)
        var runs = 0
        let t = loop.every(0.02) { runs += 1; if runs == 1 { clock.advance(by: 0.2) } }  // the stall
        try loop.advanceTime(by: 0.3)
        t.cancel()
        // At 0.02 (stalls to 0.22), then 0.24, 0.26, 0.28, 0.30; catching up would make it 15.
        #expect(runs == 5)
    }

    // MARK: - The driven clock

    /// `advanceTime(by:)` runs each timer at its own time, timers scheduled by timers included,
    /// in milliseconds of real time for an hour of the loop's.
    @Test func advanceTimeRunsEveryTimerAtItsOwnTime() throws {
        let loop = try EventLoop(clock: ManualClock())
        let t0 = loop.now()
        var seen: [String] = []
        var ticks = 0
        let tick = loop.every(1) { ticks += 1 }
        loop.after(90) { seen.append("90 at \(loop.now() - t0)"); loop.after(30) { seen.append("120 at \(loop.now() - t0)") } }
        loop.after(3599.5) { seen.append("3599.5 at \(loop.now() - t0)") }
        try loop.advanceTime(by: 3600)
        tick.cancel()
        #expect(seen == ["90 at 90.0", "120 at 120.0", "3599.5 at 3599.5"])
        #expect(ticks == 3600)
        #expect(loop.now() - t0 == 3600)
    }

    /// A suspended machine stops the monotonic clock: timers wait for it, the wall clock and
    /// boot time move (what `ClockWatch` reads as a suspend).
    @Test func aSuspendMovesTheWallClockButNoTimer() throws {
        let clock = ManualClock()
        let loop = try EventLoop(clock: clock)
        let before = clock.read()
        var ran = false
        loop.after(10) { ran = true }
        clock.suspend(for: 600)
        try loop.runReady()
        #expect(!ran)
        let after = clock.read()
        #expect(after.realtime - before.realtime == 600 && after.boottime - before.boottime == 600 && after.monotonic == before.monotonic)
        try loop.advanceTime(by: 10)
        #expect(ran)
    }

    // MARK: - Regressions (issue 26, item 4)

    /// A timer cancelled by another timer of the same batch never runs (both were due in one
    /// wake-up: the batch used to be taken off the list first, then run whole).
    @Test func aTimerCancelledWithinItsBatchNeverRuns() throws {
        let loop = try EventLoop(clock: ManualClock())
        var ran: [String] = []
        var second: EventLoop.Token = 0
        loop.after(1) { ran.append("first"); loop.cancel(second) }
        second = loop.after(1) { ran.append("second") }
        var repeatingRuns = 0
        var repeating: RepeatingTimer?
        loop.after(2) { ran.append("cancels the repeating timer"); repeating?.cancel() }
        repeating = loop.every(2) { repeatingRuns += 1 }
        try loop.advanceTime(by: 5)
        #expect(ran == ["first", "cancels the repeating timer"])
        #expect(repeatingRuns == 0)
    }

    /// A `poll` failure ends `run` with the error (it used to break out and return as if stopped,
    /// so the daemon exited 0 and `Restart=on-failure` never fired); EINTR is not a failure.
    @Test func aPollFailureEndsRunWithTheError() throws {
        var calls = 0
        let loop = try EventLoop(clock: ManualClock()) { _, _, _, _ in
            calls += 1
            errno = calls < 3 ? EINTR : EBADF
            return -1
        }
        var iterations = 0
        #expect(throws: SystemError("epoll_wait", code: EBADF)) { try loop.run { iterations += 1 } }
        #expect(calls == 3)
        #expect(iterations == 0)
    }

    // MARK: - epoll's differences from poll, closed

    /// The trap of epoll: a registration belongs to the open file, not the number. A watched
    /// descriptor whose number is taken over by another socket (dup2) while a duplicate keeps
    /// the old one open leaves the old registration behind; the loop finds that out when the
    /// watch goes (the kernel no longer knows the number's new file) and rebuilds its set, so
    /// the old socket's input never reaches the new watch on that number nor spins the loop.
    @Test func aNumberReusedWhileTheOldSocketLivesOnGetsOnlyItsOwnEvents() throws {
        let loop = try EventLoop(clock: ManualClock())
        let old = SocketPair(), new = SocketPair()
        let keptOpen = dup(old.reader)
        defer { close(keptOpen) }
        let number = fcntl(old.reader, F_DUPFD_CLOEXEC, 0)  // our own number for the watched socket
        defer { close(number) }
        var oldCalls = 0, newCalls = 0
        let t = loop.watch(number) { _ in oldCalls += 1 }
        #expect(dup2(new.reader, number) == number)  // the number now names the new socket
        loop.unwatch(t)
        loop.watch(number) { _ in newCalls += 1 }
        old.write("for the old socket\n")
        for _ in 0..<3 { try loop.runReady() }
        #expect(oldCalls == 0)
        #expect(newCalls == 0, "the old socket's input reached the new watch")
        new.write("x")
        try loop.runReady()
        #expect(newCalls == 1)
    }

    /// What epoll refuses, the loop serves as poll did: a regular file is always ready, and a
    /// number that is no open descriptor reports POLLNVAL.
    @Test func aRegularFileIsReadyAndAClosedNumberReportsInvalid() throws {
        let loop = try EventLoop(clock: ManualClock())
        var path = Array("/tmp/el.XXXXXX".utf8CString)
        let file = mkstemp(&path)
        #expect(file >= 0)
        defer { close(file); unlink(path) }
        var fileEvents: [Int16] = [], closedEvents: [Int16] = []
        let t = loop.watch(file) { fileEvents.append($0) }
        loop.watch(1_000_000 - 7) { closedEvents.append($0) }  // far above any descriptor in use
        try loop.runReady()
        #expect(fileEvents == [Int16(POLLIN)])
        #expect(closedEvents == [Int16(POLLNVAL)])
        loop.unwatch(t)
        try loop.runReady()
        #expect(fileEvents.count == 1)
    }
}

/// Confinement: the loop's thread is whichever thread runs it (the daemon's main thread, or a
/// test's thread in `runReady` and `advanceTime`); off it, `isInLoop` says no, and
/// `preconditionInLoop` traps in debug builds.
extension EventLoopTests {
    @Test func onlyTheThreadRunningTheLoopIsInIt() throws {
        let loop = try EventLoop(clock: ManualClock())
        // At rest, whoever holds the loop may touch it.
        #expect(loop.isInLoop)
        #expect(onAnotherThread { loop.isInLoop })
        let seen = LoopLog()
        loop.post {
            seen.entries.append("posted here: \(loop.isInLoop)")
            seen.entries.append("posted elsewhere: \(onAnotherThread { loop.isInLoop })")
        }
        loop.after(1) {
            seen.entries.append("timer here: \(loop.isInLoop)")
            seen.entries.append("timer elsewhere: \(onAnotherThread { loop.isInLoop })")
        }
        try loop.runReady()
        try loop.advanceTime(by: 2)
        #expect(seen.entries == ["posted here: true", "posted elsewhere: false", "timer here: true", "timer elsewhere: false"])
        #expect(onAnotherThread { loop.isInLoop }, "at rest again after the turns")
    }

    @Test func whileRunOnAnotherThreadTheTestThreadIsOffTheLoop() throws {
        let loop = try EventLoop()
        let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        loop.post { started.signal() }
        let thread = Thread { try? loop.run(); finished.signal() }
        thread.start()
        started.wait()
        #expect(!loop.isInLoop)
        loop.post { loop.stop() }
        finished.wait()
        #expect(loop.isInLoop)
    }
}

/// `body` on a thread of its own; waits for its answer.
func onAnotherThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let answer = ThreadAnswer<T>()
    let done = DispatchSemaphore(value: 0)
    Thread {
        answer.value.withLock { $0 = body() }
        done.signal()
    }.start()
    done.wait()
    return answer.value.withLock { $0! }
}

private final class ThreadAnswer<T: Sendable>: Sendable {
    let value = Mutex<T?>(nil)
}
