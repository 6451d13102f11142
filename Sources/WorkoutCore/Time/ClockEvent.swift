/// Something the system's clocks did between two readings (`ClockWatch`).
public enum ClockEvent: Sendable, Equatable {
    /// The machine was suspended: CLOCK_BOOTTIME moved `seconds` more than CLOCK_MONOTONIC.
    /// `to` is the wall time of the reading that noticed it, `from` that minus `seconds` (the
    /// awake time between the two readings is assumed to be before the suspend).
    case suspended(seconds: Double, from: Double, to: Double)
    /// The wall clock was set: CLOCK_REALTIME moved `seconds` more (or, negative, less) than
    /// CLOCK_BOOTTIME. `at` is the new wall time.
    case stepped(seconds: Double, at: Double)
}
