/// What `ReceiverClock` learned from a fix, for the log.
public enum ReceiverClockEvent: Sendable, Equatable {
    /// The first fix: receiver time minus system time as measured (`applied` is what fixes are
    /// moved by: 0 when the clocks agree within the tolerance).
    case offsetLearned(measured: Double, applied: Double)
    /// Consecutive fixes agreed on a new offset: the receiver's clock really stepped.
    case stepAccepted(from: Double, to: Double, fixes: Int)
    /// `count` fixes disagreed with the receiver's own sequence by `deviation` seconds and the
    /// next fix agreed with it again: they were outliers, placed by their arrival (`deviation`: the
    /// last of them).
    case outliersIgnored(count: Int, deviation: Double)
    /// The problem shown in `gps.problem` changed (nil: none any more).
    case problemChanged(String?)
}
