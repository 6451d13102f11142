/// Why the fix-quality pipeline kept a fix out of the distance. Every rejected fix stays in the
/// record with its reason, so totals can be recomputed later with other thresholds.
public enum RejectionReason: String, Sendable, Codable, CaseIterable {
    /// mode below the configured minimum (no fix, or 2D where 3D is required)
    case noFix = "no_fix"
    /// horizontal accuracy worse than the gate
    case lowAccuracy = "low_accuracy"
    /// latitude 0, longitude 0: a receiver's placeholder, not a place
    case nullIsland = "null_island"
    /// a first fix not yet confirmed by consistent followers (cached or stale position)
    case warmUp = "warm_up"
    /// implies a speed above the activity's highest plausible speed
    case tooFast = "too_fast"
    /// same or earlier time than the previous accepted fix
    case outOfOrder = "out_of_order"
    /// movement within the receiver's noise while standing still
    case stationaryJitter = "stationary_jitter"
    /// coordinates outside [-90, 90] x [-180, 180] or not finite
    case invalidPosition = "invalid_position"
    /// stamped at or before the last pause, resume or lap although it arrived after it (a
    /// receiver running late): kept and counted, adds nothing
    case late
    /// an imported record stamped far out of sequence with the records around it (a device's
    /// bad timestamp: the FIT epoch, years ahead; `ImportTimeJudge`): kept and counted, adds nothing
    case timeOutlier = "time_outlier"

    /// Whether a fix kept out of the distance for this reason is still a valid position of the
    /// recorded track: stationary jitter is (the person was there, standing or moving within the
    /// receiver's noise), so it is exported with the track and adds no distance. Every other
    /// reason marks a fix that is not trusted as a position (quality, warm-up, jump, order) and
    /// stays out of every export, counted by its reason.
    public var keepsPosition: Bool {
        switch self {
        case .stationaryJitter: return true
        case .noFix, .lowAccuracy, .nullIsland, .warmUp, .tooFast, .outOfOrder, .invalidPosition, .late, .timeOutlier: return false
        }
    }
}

/// A fix as recorded in a workout: accepted (with the segment it belongs to) or rejected.
public struct TrackPoint: Sendable, Equatable {
    public var fix: Fix
    /// nil when the fix was accepted into the track.
    public var rejection: RejectionReason?
    /// Index of the segment (a jump or signal loss starts a new one).
    public var segment: Int

    public init(fix: Fix, rejection: RejectionReason? = nil, segment: Int = 0) {
        self.fix = fix
        self.rejection = rejection
        self.segment = segment
    }

    /// Whether the fix added to the distance (it may add 0 m: the start of a segment).
    public var isAccepted: Bool { rejection == nil }

    /// Whether the point belongs to the recorded track that exports write: accepted, or kept out
    /// of the distance only as stationary jitter (`RejectionReason.keepsPosition`).
    public var isOnTrack: Bool { rejection?.keepsPosition ?? true }
}
