import Foundation
import Glibc

// The tests' only ways to let time pass, for every test target: a wait on a condition (`pollUntil`,
// blocking or suspending), a pace (`Pace`: a feeder's N lines a second, a slowloris trickle), and a
// measured window (`Pace.window`: time the test watches the daemon through, e.g. its CPU). A fixed
// sleep that hopes work on another thread is done is none of these: wait on the condition.

/// Polls `condition` every `every` seconds (20 ms) until it holds or `seconds` pass; returns
/// whether it held. For what another thread or process does (a peer's log, a daemon's file).
/// Blocks the calling thread: from an `async` test, `await waitUntil` (below).
@discardableResult
public func pollUntil(seconds: Double, every: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        Pace.block(every)
    }
}

/// `pollUntil`'s twin for `async` tests: it suspends between looks instead of blocking: the waiting test holds none of
/// Swift's cooperative-pool threads (one per core), so a long wait on a real peer (gpsd, a
/// browser, dbus) starves no other test.
@discardableResult
public func waitUntil(seconds: Double, every: Double = 0.02, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if try await condition() { return true }
        if Date() >= deadline { return false }
        await Pace.suspend(every)
    }
}

/// A pace in real time: `next()` returns at the next of the ticks `interval` apart, counted from
/// the first call. For what a peer does at a rate: a feeder's fixes, a slowloris' header lines, a
/// sampler's requests.
public struct Pace: Sendable {
    /// What a tick missed (the caller was busy past it) becomes.
    public enum Lateness: Sendable {
        /// Dropped: the next tick is an interval after now (a sampler never bursts).
        case skipsAhead
        /// Made up: the schedule stands, and `next()` returns at once until it is caught up (a
        /// flood offered at a fixed rate).
        case catchesUp
    }

    public let interval: Double
    public let whenLate: Lateness
    private var due: Double?

    public init(perSecond: Double, whenLate: Lateness = .skipsAhead) { self.init(every: 1 / perSecond, whenLate: whenLate) }
    public init(every seconds: Double, whenLate: Lateness = .skipsAhead) { interval = seconds; self.whenLate = whenLate }

    /// Blocks until the next tick.
    public mutating func next() { Self.block(untilTick()) }

    /// Suspends until the next tick (for `async` tests).
    public mutating func nextSuspending() async { await Self.suspend(untilTick()) }

    /// Seconds from now to the next tick; the first call's tick is now + interval.
    private mutating func untilTick() -> Double {
        let now = Self.now()
        let scheduled = (due ?? now) + interval
        let tick: Double
        switch whenLate {
        case .skipsAhead: tick = scheduled < now ? now + interval : scheduled
        case .catchesUp: tick = scheduled
        }
        due = tick
        return max(0, tick - now)
    }

    /// A window of `seconds` the test measures through (the daemon's CPU while it is out of
    /// descriptors, connections held open while another client is timed). Not for waiting until
    /// something is done: `pollUntil` that.
    public static func window(_ seconds: Double) { block(seconds) }
    /// `window`, suspending (for `async` tests).
    public static func windowSuspending(_ seconds: Double) async { await suspend(seconds) }

    /// The monotonic clock, in seconds.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func block(_ seconds: Double) {
        guard seconds > 0 else { return }
        usleep(useconds_t(seconds * 1e6))
    }

    static func suspend(_ seconds: Double) async {
        guard seconds > 0 else { return }
        try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
    }
}
