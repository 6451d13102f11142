/// Cumulative revolutions and the time of the last revolution event, as a wheel or crank sensor
/// reports them (both wrap around: 32-bit wheel, 16-bit crank revolutions, 16-bit event time).
public struct RevolutionData: Sendable, Equatable {
    public var revolutions: UInt32
    /// Time of the last event in units of 1 / `ticksPerSecond` s.
    public var eventTime: UInt16
    /// 1024 (CSC, crank in Cycling Power) or 2048 (wheel in Cycling Power).
    public var ticksPerSecond: Int

    public init(revolutions: UInt32, eventTime: UInt16, ticksPerSecond: Int) {
        self.revolutions = revolutions; self.eventTime = eventTime; self.ticksPerSecond = ticksPerSecond
    }

    /// Revolutions per minute from `previous` to this report: nil when no new event happened (the
    /// event time did not move: the sensor repeats its last report) or the reports disagree on
    /// the unit. Both counters wrap: the crank's 16-bit count (`counterBits` 16) and the event
    /// time, so a difference is taken modulo 2^bits.
    public func revolutionsPerMinute(since previous: RevolutionData, counterBits: Int) -> Double? {
        guard previous.ticksPerSecond == ticksPerSecond, ticksPerSecond > 0 else { return nil }
        let dt = Int(eventTime &- previous.eventTime)  // UInt16 wrap-around
        guard dt > 0 else { return nil }
        let mask: UInt32 = counterBits >= 32 ? .max : (1 << UInt32(counterBits)) - 1
        let dr = (revolutions &- previous.revolutions) & mask
        return Double(dr) * 60 * Double(ticksPerSecond) / Double(dt)
    }
}
