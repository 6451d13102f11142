import Glibc

/// A moment on the monotonic clock by which something must be done (the shutdown's steps share
/// one): how long is left, never negative.
struct Deadline {
    let end: Double

    init(seconds: Double) { end = Deadline.monotonic() + seconds }

    /// Seconds left (0 once it passed).
    var remaining: Double { max(0, end - Deadline.monotonic()) }

    private static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
