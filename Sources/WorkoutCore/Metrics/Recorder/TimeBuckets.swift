/// Time accounting of a workout: every second since the start belongs to exactly one bucket,
/// the one of the recorder's phase while that second passed (`RecorderPhase.bucket`).
/// elapsed = moving + auto-paused + signal lost; user-paused time is outside elapsed.
struct TimeBuckets: Sendable {
    enum Bucket: Sendable { case moving, autoPaused, signalLost, userPaused }

    /// Everything before this instant is accounted.
    private(set) var accountedUntil: Double
    private(set) var moving = 0.0
    private(set) var autoPaused = 0.0
    private(set) var signalLost = 0.0
    private(set) var userPaused = 0.0

    init(from start: Double) { accountedUntil = start }

    /// Puts [accountedUntil, t] in `bucket`; a `t` not after the accounted time adds nothing.
    mutating func account(until t: Double, in bucket: Bucket) {
        let dt = t - accountedUntil
        guard dt > 0 else { return }
        switch bucket {
        case .moving: moving += dt
        case .autoPaused: autoPaused += dt
        case .signalLost: signalLost += dt
        case .userPaused: userPaused += dt
        }
        accountedUntil = t
    }
}
