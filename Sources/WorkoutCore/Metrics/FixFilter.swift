/// What the fix-quality pipeline decided about one fix.
public enum FixDecision: Sendable, Equatable {
    /// Kept out of the distance, for this reason.
    case rejected(RejectionReason)
    /// Accepted into the track. `distance` (m) is what it adds: 0 when it starts a new segment.
    case accepted(distance: Double, newSegment: Bool)
}

/// The fix-quality pipeline: decides, fix by fix, whether a position extends the track, starts a
/// new segment, or is rejected (and why). Pure and O(1) per fix; the rules and their order are
/// written in docs/metrics.md:
///
/// 1. not finite time -> `outOfOrder`; coordinates not finite or outside [-90, 90] x
///    [-180, 180] -> `invalidPosition`; (0, 0) -> `nullIsland`; mode below the minimum ->
///    `noFix`; horizontal accuracy worse than the gate -> `lowAccuracy`;
/// 2. time not after the last accepted fix -> `outOfOrder`;
/// 3. warm-up (start, after a signal loss): `warmUpCount` consecutive mutually consistent fixes
///    (plausible speed, no jump between them) are needed; earlier ones -> `warmUp`. After a
///    signal loss, a fix consistent with the last accepted one is trusted at once;
/// 4. implied speed from the last accepted fix above `activity.maxPlausibleSpeed` (after allowing
///    twice the noise radius) -> `tooFast`; if such fixes keep agreeing with each other for
///    `warmUpCount` fixes, the receiver has really moved: a new segment starts there;
/// 5. farther than `jumpThreshold` -> accepted as the start of a new segment, adding nothing;
/// 6. closer than the stationary radius to the last accepted fix -> `stationaryJitter`;
/// 7. otherwise accepted, adding the WGS84 geodesic distance from the last accepted fix.
public struct FixFilter: Sendable {
    public let activity: ActivityType
    public let settings: MetricsSettings
    /// The last accepted fix: the anchor distances are measured from.
    public private(set) var lastAccepted: Fix?
    /// Time before which fixes are out of order (the workout start, then the last accepted fix).
    public private(set) var floorTime: Double
    /// True until `warmUpCount` consistent fixes arrive (at the start and after `restart`).
    public private(set) var warmingUp = true
    /// True when the next accepted fix must start a new segment.
    public private(set) var segmentPending = true
    /// Candidates agreeing with each other but not (yet) with the anchor.
    private var chainLast: Fix?
    private var chainCount = 0

    /// A filter for a workout that started at `startedAt` (fixes before it are out of order).
    public init(activity: ActivityType, settings: MetricsSettings, startedAt: Double = -Double.infinity) {
        self.activity = activity
        self.settings = settings
        self.floorTime = startedAt.nextDown  // a fix stamped exactly at the start is in order
    }

    /// The rejection a fix earns on its own, before any comparison with other fixes.
    public static func qualityRejection(_ fix: Fix, settings: MetricsSettings) -> RejectionReason? {
        if !fix.time.isFinite { return .outOfOrder }
        if !fix.latitude.isFinite || !fix.longitude.isFinite || Swift.abs(fix.latitude) > 90 || Swift.abs(fix.longitude) > 180 {
            return .invalidPosition
        }
        if Swift.abs(fix.latitude) < 1e-6 && Swift.abs(fix.longitude) < 1e-6 { return .nullIsland }
        if fix.mode < settings.minimumFixMode { return .noFix }
        if let acc = fix.horizontalAccuracy, !(acc <= settings.maximumHorizontalAccuracy) { return .lowAccuracy }
        return nil
    }

    /// The stationary radius used for a fix: the setting, widened to the fix's own accuracy.
    public func radius(for fix: Fix) -> Double {
        max(settings.stationaryRadius, fix.horizontalAccuracy ?? 0)
    }

    /// The next accepted fix starts a new segment; with `warmUp`, only after a new warm-up
    /// (after a signal loss). Used by the recorder after a pause or a signal loss.
    public mutating func restart(warmUp: Bool) {
        segmentPending = true
        if warmUp { warmingUp = true }
        chainLast = nil
        chainCount = 0
    }

    /// Whether `b` follows `a` plausibly: later, not a jump, not faster than the activity allows.
    private func consistent(_ a: Fix, _ b: Fix) -> Bool {
        let dt = b.time - a.time
        guard dt > 0 else { return false }
        let d = Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
        let allowance = 2 * max(radius(for: a), radius(for: b))
        return d <= settings.jumpThreshold && max(0, d - allowance) / dt <= activity.maxPlausibleSpeed
    }

    /// Adds `fix` to the candidate chain; true when the chain is long enough to be trusted.
    private mutating func extendChain(_ fix: Fix) -> Bool {
        if let last = chainLast, consistent(last, fix) {
            chainCount += 1
        } else {
            chainCount = 1
        }
        chainLast = fix
        return chainCount >= max(1, settings.warmUpCount)
    }

    private mutating func accept(_ fix: Fix, distance: Double, newSegment: Bool) -> FixDecision {
        lastAccepted = fix
        floorTime = fix.time
        warmingUp = false
        segmentPending = false
        chainLast = nil
        chainCount = 0
        return .accepted(distance: distance, newSegment: newSegment)
    }

    /// Accepts `fix` (which `evaluate` just called stationary jitter) as real movement: the
    /// recorder does this when a departure from an auto-pause is confirmed. Adds the distance
    /// from the last accepted fix.
    public mutating func acceptMovement(_ fix: Fix) -> FixDecision {
        guard let anchor = lastAccepted, fix.time > anchor.time else { return .rejected(.outOfOrder) }
        let d = Geodesic.wgs84.distance(latitude1: anchor.latitude, longitude1: anchor.longitude, latitude2: fix.latitude, longitude2: fix.longitude)
        return accept(fix, distance: d, newSegment: false)
    }

    /// Decides about `fix`. `minimumMove` raises the stationary radius (the recorder passes the
    /// auto-resume distance while motion is paused).
    public mutating func evaluate(_ fix: Fix, minimumMove: Double = 0) -> FixDecision {
        if let reason = FixFilter.qualityRejection(fix, settings: settings) { return .rejected(reason) }
        if !(fix.time > floorTime) { return .rejected(.outOfOrder) }
        if warmingUp {
            if let last = chainLast, fix.time <= last.time {
                if fix.time == last.time { return .rejected(.outOfOrder) }
                chainLast = nil; chainCount = 0  // time went backwards: start the chain again
            }
            // After a signal loss, a fix that agrees with where the track was is trusted at once.
            if let anchor = lastAccepted, consistent(anchor, fix) { return accept(fix, distance: 0, newSegment: true) }
            if extendChain(fix) { return accept(fix, distance: 0, newSegment: true) }
            return .rejected(.warmUp)
        }
        guard let anchor = lastAccepted else { return accept(fix, distance: 0, newSegment: true) }
        if segmentPending { return accept(fix, distance: 0, newSegment: true) }
        let d = Geodesic.wgs84.distance(latitude1: anchor.latitude, longitude1: anchor.longitude, latitude2: fix.latitude, longitude2: fix.longitude)
        let r = radius(for: fix)
        let dt = fix.time - anchor.time
        if max(0, d - 2 * max(r, radius(for: anchor))) / dt > activity.maxPlausibleSpeed {
            if let last = chainLast, fix.time <= last.time { chainLast = nil; chainCount = 0 }
            if extendChain(fix) { return accept(fix, distance: 0, newSegment: true) }
            return .rejected(.tooFast)
        }
        chainLast = nil; chainCount = 0
        if d > settings.jumpThreshold { return accept(fix, distance: 0, newSegment: true) }
        if d < max(r, minimumMove) { return .rejected(.stationaryJitter) }
        return accept(fix, distance: d, newSegment: false)
    }
}
