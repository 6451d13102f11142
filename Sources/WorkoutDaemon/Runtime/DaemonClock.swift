import Glibc

/// The daemon's clock: the one place the shell reads the time of day for the core. Wall time at
/// start-up advanced by the monotonic clock, so a wall-clock step during a workout changes no
/// duration. Every `now` the core receives comes from `now()`; replace this type to change
/// the time model.
final class DaemonClock {
    /// Wall time at start-up (moved forward, never back, by `runFrom(atLeast:)`).
    private var wallAnchor: Double
    /// The monotonic reading taken with it.
    private let monoAnchor: Double

    init() {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        wallAnchor = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
        monoAnchor = EventLoop.monotonic()
    }

    /// Seconds since the Unix epoch, advancing with the monotonic clock.
    func now() -> Double { wallAnchor + (EventLoop.monotonic() - monoAnchor) }

    /// At restore, the wall clock may be behind the journal (stepped back while the daemon was
    /// down): run from the journal's last moment instead, so the workout's times keep increasing.
    func runFrom(atLeast t: Double) {
        let n = now()
        if t > n { wallAnchor += t - n }
    }
}
