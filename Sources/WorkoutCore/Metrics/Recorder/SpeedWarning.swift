/// Fixes arriving far faster than the activity allows, noticed live: a run of
/// `SpeedWarning.tooFastRun` fixes each rejected as `too_fast` or accepted at a windowed speed
/// above the activity's highest plausible speed, while the median of the recent moving steps is
/// above it too (a ride recorded as a hike). Said once per workout, in `status` (`warnings`)
/// and the log.
public struct SpeedWarning: Sendable, Equatable {
    /// Median speed (m/s) of the recent moving steps between usable fixes.
    public var medianSpeed: Double
    public var activity: ActivityType
    /// When it was noticed (the fix that completed the run).
    public var time: Double

    /// Consecutive fixes too fast for the activity that make the warning.
    public static let tooFastRun = 10
    /// Recent points the median speed is measured over.
    static let window = 30

    /// The activity the speed suggests (walking, running, cycling), or nil beyond any.
    public var likelyActivity: ActivityType? { TrackSpeedCheck.likelyActivity(speed: medianSpeed) }

    public var text: String {
        let kmh = { (x: Double) in String(Int((x * 3.6).rounded())) }
        let likely = likelyActivity.map { "likely " + $0.displayName.lowercased() } ?? "likely a motor vehicle"
        return "fixes arrive at \(kmh(medianSpeed)) km/h median, far faster than \(activity.displayName.lowercased()) allows "
            + "(\(kmh(activity.maxPlausibleSpeed)) km/h); \(likely)"
    }
}
