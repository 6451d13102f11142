/// Turns a wheel's or a crank's cumulative reports (`RevolutionData`) into the revolutions made
/// since the previous report and the rate, as a head unit does. Pure; `now` is the arrival time
/// of each report on the daemon's clock.
///
/// - Both counters wrap: the revolutions at `counterBits` (32 for a wheel, 16 for a crank) and
///   the event time at 16 bits (64 s at 1/1024 s); differences are taken modulo those.
/// - A report whose event time did not move is a repeat: the part made no whole revolution since.
///   The rate holds for a moment (a slow crank turns less than once between notifications) and
///   is 0 once no revolution came for `stopAfter` seconds: a stopped wheel is zero speed, never
///   the last value.
/// - Revolutions across a dropout are counted (the sensor kept counting while out of range) when
///   their rate is plausible; a counter that jumped (a sensor reset, a battery change) is a new
///   baseline and adds nothing.
public struct RevolutionCounter: Sendable, Equatable {
    /// What one report adds.
    public struct Step: Sendable, Equatable {
        /// Whole revolutions since the previous report (0 for the first one).
        public var revolutions: UInt32
        /// Revolutions per minute; nil while unknown (the first report, after a new baseline).
        public var rpm: Double?

        public init(revolutions: UInt32, rpm: Double?) { self.revolutions = revolutions; self.rpm = rpm }
    }

    public let counterBits: Int
    /// The highest plausible rate; a faster one means the counter jumped.
    public let maximumRPM: Double
    private var last: RevolutionData?
    private var lastArrival = 0.0
    /// Arrival of the last report whose event time moved.
    private var lastEventArrival = 0.0
    private var rpm: Double?

    /// No new revolution for this long (s): stopped.
    public static let stopAfter = 3.0
    /// Reports further apart (s) than the 16-bit event time spans (64 s at 1/1024 s, 32 s at
    /// 1/2048 s, less a margin): the event time may have wrapped unseen, so no rate is taken
    /// from the pair (the revolutions still count if plausible).
    public static func maximumReportGap(ticksPerSecond: Int) -> Double { 60.0 * 1024 / Double(max(ticksPerSecond, 1)) }

    public init(counterBits: Int, maximumRPM: Double) {
        self.counterBits = counterBits
        self.maximumRPM = maximumRPM
    }

    /// A crank: 16-bit revolutions, up to 300 rpm.
    public static var crank: RevolutionCounter { RevolutionCounter(counterBits: 16, maximumRPM: 300) }

    /// A wheel of `circumference` metres: 32-bit revolutions, up to 30 m/s (108 km/h).
    public static func wheel(circumference: Double) -> RevolutionCounter {
        RevolutionCounter(counterBits: 32, maximumRPM: 30 / max(circumference, 0.1) * 60)
    }

    private var mask: UInt32 { counterBits >= 32 ? .max : (1 << UInt32(counterBits)) - 1 }

    /// The next report, arrived at `now`.
    public mutating func add(_ r: RevolutionData, at now: Double) -> Step {
        guard let p = last, p.ticksPerSecond == r.ticksPerSecond, now >= lastArrival else { return rebase(r, at: now) }
        let dr = (r.revolutions &- p.revolutions) & mask
        let ticks = Int(r.eventTime &- p.eventTime)
        let elapsed = now - lastArrival
        if ticks == 0 {
            // A repeat. Revolutions without a new event time cannot be: a reset.
            guard dr == 0 else { return rebase(r, at: now) }
            lastArrival = now
            if now - lastEventArrival >= RevolutionCounter.stopAfter { rpm = 0 }
            return Step(revolutions: 0, rpm: rpm)
        }
        // A rate over the pair when their event times are unambiguous, else a bound from the
        // arrival times (the event time wrapped at least once: more time passed than it shows).
        let gapLimit = RevolutionCounter.maximumReportGap(ticksPerSecond: r.ticksPerSecond)
        let span = elapsed > gapLimit ? elapsed : Double(ticks) / Double(r.ticksPerSecond)
        let rate = Double(dr) * 60 / span
        guard rate <= maximumRPM else { return rebase(r, at: now) }
        last = r
        lastArrival = now
        lastEventArrival = now
        rpm = elapsed > gapLimit ? nil : rate
        return Step(revolutions: dr, rpm: rpm)
    }

    private mutating func rebase(_ r: RevolutionData, at now: Double) -> Step {
        last = r
        lastArrival = now
        lastEventArrival = now
        rpm = nil
        return Step(revolutions: 0, rpm: nil)
    }
}
