/// A workout's clock: the wall time read once when the workout starts (or is restored), advanced
/// by CLOCK_BOOTTIME. So a suspend counts (BOOTTIME runs through it), a wall-clock step during the
/// workout changes no duration, and the next workout reads the wall clock afresh.
public struct WorkoutTimeBase: Sendable, Equatable {
    /// Workout time (UTC seconds) at `boottime`.
    public var wall: Double
    public var boottime: Double

    public init(wall: Double, boottime: Double) {
        self.wall = wall
        self.boottime = boottime
    }

    /// The base for a workout starting now.
    public init(_ now: ClockReading) {
        self.init(wall: now.realtime, boottime: now.boottime)
    }

    /// The base for a workout restored from its journal: the wall clock now, or the journal's
    /// last moment if the wall clock is behind it (stepped back while the daemon was down), so
    /// the workout's times keep increasing. The daemon's own clock is not moved.
    public static func restored(_ now: ClockReading, journalLast: Double?) -> WorkoutTimeBase {
        WorkoutTimeBase(wall: max(now.realtime, journalLast ?? -.infinity), boottime: now.boottime)
    }

    /// The workout's time at a BOOTTIME reading.
    public func time(boottime b: Double) -> Double { wall + (b - boottime) }

    /// The same clock with its dates moved by `seconds` (dates taken from a receiver).
    public func shifted(by seconds: Double) -> WorkoutTimeBase {
        WorkoutTimeBase(wall: wall + seconds, boottime: boottime)
    }
}
