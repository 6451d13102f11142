/// What dates a workout: the system clock, or while the kernel says the system clock is not
/// synchronized, a receiver giving consistent time (its offset is then added to the workout's
/// clock, so the saved dates are the receiver's).
public enum DateSource: Sendable, Equatable {
    case system
    /// Receiver time minus system time, added to the workout's clock.
    case receiver(offset: Double)

    /// No receiver date before this (2026-01-01T00:00:00Z, before this code was written) dates a
    /// workout: a replayed old log or a receiver 1024 weeks behind is not the time.
    public static let earliestReceiverDate = 1_767_225_600.0

    /// No receiver more than this (10 years, in seconds) ahead of the system clock, or of
    /// `earliestReceiverDate` when the system clock is behind that, dates a workout: a receiver
    /// 63 years ahead (2090) would file today's workout outside today's streak and this week's
    /// totals. A system clock without a battery starts at its last known date, which is not
    /// years behind the truth; a receiver that far ahead is wrong, not the time.
    public static let latestReceiverLead = 10 * 365.25 * 86_400.0

    /// The receiver dates the workout when the system clock is unsynchronized and the receiver's
    /// time is trusted (`ReceiverClock.isTrusted`), differs by more than its tolerance, is not
    /// before `earliestReceiverDate` and not more than `latestReceiverLead` ahead.
    public static func choose(sync: SystemClockSync, receiver: ReceiverClock) -> DateSource {
        switch sync {
        case .synchronized, .unknown:
            return .system
        case .unsynchronized:
            guard receiver.isTrusted, let o = receiver.offset, o != 0,
                  let r = receiver.latestReceiverTime, r >= earliestReceiverDate,
                  r - max(r - o, earliestReceiverDate) <= latestReceiverLead else { return .system }
            return .receiver(offset: o)
        }
    }

    /// Seconds the workout's clock is moved from the system clock's dates (0 for `.system`).
    public var offset: Double {
        switch self {
        case .system: return 0
        case .receiver(let o): return o
        }
    }

    /// What dates a workout next, given what dates it now (`self`) and a receiver whose clock is
    /// measured against the workout's clock as it is now (already moved by `offset`): the system
    /// clock once the kernel says synchronized (or cannot say); while unsynchronized, the
    /// receiver's time once it is trusted and differs (the offsets add up), else no change (an
    /// unconfirmed or out-of-sequence receiver does not move the dates back and forth). The
    /// workout's clock moves by `next.offset - offset`.
    public func next(sync: SystemClockSync, receiver: ReceiverClock) -> DateSource {
        switch sync {
        case .synchronized, .unknown:
            return .system
        case .unsynchronized:
            switch DateSource.choose(sync: sync, receiver: receiver) {
            case .receiver(let o): return .receiver(offset: offset + o)
            case .system: return self
            }
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
