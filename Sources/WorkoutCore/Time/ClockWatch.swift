/// Detects suspends and wall-clock steps from successive `ClockReading`s (pure: the readings
/// come in as arguments; the daemon reads the clocks about once a second).
///
/// Between two readings, CLOCK_BOOTTIME and CLOCK_MONOTONIC advance together unless the machine
/// was suspended (BOOTTIME counts the suspended time, MONOTONIC does not); CLOCK_REALTIME and
/// CLOCK_BOOTTIME advance together unless the wall clock was set (NTP's slewing moves it at most
/// 0.5 ms a second, far below `threshold`). A suspend moves REALTIME and BOOTTIME alike, so it is
/// not also reported as a step.
public struct ClockWatch: Sendable {
    /// Differences smaller than this are noise (seconds).
    public var threshold: Double
    public private(set) var last: ClockReading?

    public init(threshold: Double = 0.5) {
        self.threshold = threshold
    }

    /// Takes a new reading; returns what happened since the previous one (suspend first).
    public mutating func observe(_ now: ClockReading) -> [ClockEvent] {
        defer { last = now }
        guard let p = last else { return [] }
        let dMono = now.monotonic - p.monotonic
        let dBoot = now.boottime - p.boottime
        let dReal = now.realtime - p.realtime
        var out: [ClockEvent] = []
        let slept = dBoot - dMono
        if slept >= threshold {
            out.append(.suspended(seconds: slept, from: now.realtime - slept, to: now.realtime))
        }
        let step = dReal - dBoot
        if abs(step) >= threshold {
            out.append(.stepped(seconds: step, at: now.realtime))
        }
        return out
    }
}
