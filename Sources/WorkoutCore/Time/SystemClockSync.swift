/// Whether the kernel believes the system clock is synchronized (`adjtimex`, read-only call).
/// A Raspberry Pi without a real-time clock boots unsynchronized with a wrong date until NTP (or
/// GPS) sets it; the kernel then reports `TIME_ERROR` and the `STA_UNSYNC` status bit.
public enum SystemClockSync: String, Sendable, Equatable, CaseIterable {
    case synchronized
    case unsynchronized
    /// adjtimex failed or is not available.
    case unknown

    /// `TIME_ERROR`, adjtimex's return value for an unsynchronized clock.
    public static let timeError: Int32 = 5
    /// `STA_UNSYNC` in `timex.status`.
    public static let staUnsync: Int32 = 0x0040

    /// From adjtimex's return value (negative: the call failed) and `timex.status`.
    public init(adjtimexResult result: Int32, status: Int32) {
        if result < 0 { self = .unknown }
        else if result == SystemClockSync.timeError || status & SystemClockSync.staUnsync != 0 { self = .unsynchronized }
        else { self = .synchronized }
    }
}
