import WorkoutCore

/// Where the shell reads the time: the system's clocks (`SystemClock`) in the daemon, a clock the
/// test drives (`ManualClock`) in tests. The event loop owns one; its timers, every budget and
/// every date the shell hands the core come from it, so suspends, steps and timers can be played
/// in-process in microseconds.
public protocol LoopClock: Sendable {
    /// CLOCK_REALTIME, CLOCK_BOOTTIME and CLOCK_MONOTONIC, read together.
    func read() -> ClockReading
    /// CLOCK_MONOTONIC alone: timers, budgets, timeouts.
    func monotonic() -> Double
    /// Whether the kernel calls the system clock synchronized.
    func sync() -> SystemClockSync
    /// True for a clock a test drives: the loop then never sleeps in `poll` waiting for a timer,
    /// because no amount of waiting makes one due (see `EventLoop.advanceTime(by:)`).
    var isDriven: Bool { get }
}

extension LoopClock {
    public var isDriven: Bool { false }
    /// The wall clock now (UTC seconds since 1970).
    public func wall() -> Double { read().realtime }
    /// Seconds since boot, suspended time included.
    public func boottime() -> Double { read().boottime }
}
