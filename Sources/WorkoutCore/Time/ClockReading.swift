/// The three Linux clocks read at one moment, in seconds.
/// - `realtime` (CLOCK_REALTIME): the wall clock, UTC since 1970. NTP, `date -s` and a wrong RTC
///   move it; it dates things, it never measures them.
/// - `boottime` (CLOCK_BOOTTIME): seconds since boot, counting suspended time. Durations.
/// - `monotonic` (CLOCK_MONOTONIC): seconds since boot, stopped while suspended.
public struct ClockReading: Sendable, Equatable {
    public var realtime: Double
    public var boottime: Double
    public var monotonic: Double

    public init(realtime: Double, boottime: Double, monotonic: Double) {
        self.realtime = realtime
        self.boottime = boottime
        self.monotonic = monotonic
    }
}
