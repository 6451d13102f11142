/// What dates a workout: the system clock, or while the kernel says the system clock is not
/// synchronized, a receiver giving consistent time (its offset is then added to the workout's
/// clock, so the saved dates are the receiver's).
public enum DateSource: Sendable, Equatable {
    case system
    /// Receiver time minus system time, added to the workout's clock.
    case receiver(offset: Double)

    /// The receiver dates the workout when the system clock is unsynchronized and the receiver's
    /// time is trusted (`ReceiverClock.isTrusted`) and differs by more than its tolerance.
    public static func choose(sync: SystemClockSync, receiver: ReceiverClock) -> DateSource {
        switch sync {
        case .synchronized, .unknown:
            return .system
        case .unsynchronized:
            guard receiver.isTrusted, let o = receiver.offset, o != 0 else { return .system }
            return .receiver(offset: o)
        }
    }

    /// For `status`: where the workout's dates come from, in words.
    public func describe(sync: SystemClockSync) -> String {
        switch self {
        case .system:
            switch sync {
            case .synchronized: return "system clock (synchronized)"
            case .unsynchronized: return "system clock (not synchronized; no receiver time to trust yet)"
            case .unknown: return "system clock"
            }
        case .receiver(let o):
            return "GPS receiver (system clock not synchronized, \(ClockOffsetText.amount(o)) \(o > 0 ? "behind" : "ahead of") the receiver)"
        }
    }
}
