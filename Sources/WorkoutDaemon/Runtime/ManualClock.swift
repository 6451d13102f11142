import Synchronization
import WorkoutCore

/// A clock the test drives (like swift-nio's `EmbeddedEventLoop`): it stands still until told to
/// move. `advance(by:)` is time passing while the machine runs (all three clocks move);
/// `suspend(for:)` a suspended machine (the monotonic clock stops); `stepWall(by:)` the wall
/// clock set by NTP or `date -s` (only it moves). Use `EventLoop.advanceTime(by:)` to move a
/// loop's clock and run the timers that come due on the way.
public final class ManualClock: LoopClock {
    private struct State { var reading: ClockReading; var sync: SystemClockSync }
    private let state: Mutex<State>

    /// Starts at `realtime` (default 2026-01-01T00:00:00Z), an hour after boot, synchronized.
    public init(realtime: Double = 1_767_225_600, boottime: Double = 3600, monotonic: Double = 3600, sync: SystemClockSync = .synchronized) {
        state = Mutex(State(reading: ClockReading(realtime: realtime, boottime: boottime, monotonic: monotonic), sync: sync))
    }

    public var isDriven: Bool { true }
    public func read() -> ClockReading { state.withLock { $0.reading } }
    public func monotonic() -> Double { state.withLock { $0.reading.monotonic } }
    public func sync() -> SystemClockSync { state.withLock { $0.sync } }

    /// Time passes with the machine running: every clock moves by `seconds`.
    public func advance(by seconds: Double) {
        state.withLock { $0.reading.realtime += seconds; $0.reading.boottime += seconds; $0.reading.monotonic += seconds }
    }

    /// The machine sleeps for `seconds`: wall time and boot time move, the monotonic clock does not.
    public func suspend(for seconds: Double) {
        state.withLock { $0.reading.realtime += seconds; $0.reading.boottime += seconds }
    }

    /// The wall clock is set `seconds` forward (negative: back); durations are untouched.
    public func stepWall(by seconds: Double) {
        state.withLock { $0.reading.realtime += seconds }
    }

    public func setSync(_ sync: SystemClockSync) { state.withLock { $0.sync = sync } }
}
