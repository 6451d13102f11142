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
/// 4. implied speed from the last accepted fix above `activity.maxPlausibleSpeed` (or, for a
///    device's track, `settings.speedLimit`'s highest of any activity) (after allowing
///    twice the noise radius) -> `tooFast`; if such fixes keep agreeing with each other for
///    `warmUpCount` fixes, the receiver has really moved: a new segment starts there;
/// 5. farther than `jumpThreshold` -> accepted as the start of a new segment, adding nothing;
/// 6. closer than the stationary radius to the last accepted fix -> `stationaryJitter`;
/// 7. otherwise accepted, adding the WGS84 geodesic distance from the last accepted fix.
public struct FixFilter: Sendable {
    public let activity: ActivityType
    /// The rules in force (changed by a reload while a workout records: the next fix follows them).
    public internal(set) var settings: MetricsSettings
    /// Fixes at or before this time are out of order until one is accepted (the workout start).
    private let startFloor: Double
    private var phase: Phase

    /// Where the filter stands. Each case carries what exists in it; nothing is reset by hand.
    enum Phase: Sendable {
        /// At the start and after a signal loss: `warmUpCount` mutually consistent fixes are
        /// needed (`chain`). `anchor` is the last accepted fix before the loss, if any: a fix that
        /// agrees with it is trusted at once.
        /// -> tracking (a fix is trusted)
        case warmingUp(anchor: Fix?, chain: Chain)
        /// After a pause: the next acceptable fix starts a new segment, measured from nothing.
        /// -> tracking (next fix), warmingUp (restart after a signal loss)
        case segmentPending(anchor: Fix)
        /// Extending the track from `anchor`; `chain` holds too-fast fixes that agree with each
        /// other (enough of them and the receiver has really moved: a new segment).
        /// -> segmentPending, warmingUp (restart)
        case tracking(anchor: Fix, chain: Chain)
    }

    /// Candidate fixes agreeing with each other but not (yet) with the anchor.
    struct Chain: Sendable {
        var last: Fix?
        var count = 0
        static let empty = Chain()
    }

    /// A filter for a workout that started at `startedAt` (fixes before it are out of order).
    public init(activity: ActivityType, settings: MetricsSettings, startedAt: Double = -Double.infinity) {
        self.activity = activity
        self.settings = settings
        self.startFloor = startedAt.nextDown  // a fix stamped exactly at the start is in order
        self.phase = .warmingUp(anchor: nil, chain: .empty)
    }

    /// The last accepted fix: the anchor distances are measured from.
    public var lastAccepted: Fix? {
        switch phase {
        case .warmingUp(let anchor, _): return anchor
        case .segmentPending(let anchor), .tracking(let anchor, _): return anchor
        }
    }

    /// Time before which fixes are out of order (the workout start, then the last accepted fix).
    public var floorTime: Double { lastAccepted?.time ?? startFloor }

    /// Whether `warmUpCount` consistent fixes are still needed (at the start and after a loss).
    public var warmingUp: Bool {
        switch phase {
        case .warmingUp: return true
        case .segmentPending, .tracking: return false
        }
    }

    /// Whether the next accepted fix starts a new segment.
    public var segmentPending: Bool {
        switch phase {
        case .warmingUp, .segmentPending: return true
        case .tracking: return false
        }
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

    /// The highest plausible speed (m/s): the activity's, or any activity's for a device's track.
    public var maximumSpeed: Double { settings.speedLimit.maximumSpeed(for: activity) }

    /// The stationary radius used for a fix: the setting, widened to the fix's own accuracy.
    public func radius(for fix: Fix) -> Double {
        max(settings.stationaryRadius, fix.horizontalAccuracy ?? 0)
    }

    /// The next accepted fix starts a new segment; with `warmUp`, only after a new warm-up
    /// (after a signal loss). Used by the recorder after a pause or a signal loss.
    public mutating func restart(warmUp: Bool) {
        switch phase {
        case .warmingUp(let anchor, _):
            phase = .warmingUp(anchor: anchor, chain: .empty)
        case .segmentPending(let anchor), .tracking(let anchor, _):
            phase = warmUp ? .warmingUp(anchor: anchor, chain: .empty) : .segmentPending(anchor: anchor)
        }
    }

    /// Whether `b` follows `a` plausibly: later, not a jump, not faster than the activity allows.
    private func consistent(_ a: Fix, _ b: Fix) -> Bool {
        let dt = b.time - a.time
        guard dt > 0 else { return false }
        let d = Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
        let allowance = 2 * max(radius(for: a), radius(for: b))
        return d <= settings.jumpThreshold && max(0, d - allowance) / dt <= maximumSpeed
    }

    /// Adds `fix` to `chain`; true when the chain is long enough to be trusted.
    private func extend(_ chain: inout Chain, with fix: Fix) -> Bool {
        if let last = chain.last, consistent(last, fix) {
            chain.count += 1
        } else {
            chain.count = 1
        }
        chain.last = fix
        return chain.count >= max(1, settings.warmUpCount)
    }

    private mutating func accept(_ fix: Fix, distance: Double, newSegment: Bool) -> FixDecision {
        phase = .tracking(anchor: fix, chain: .empty)
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

    /// Decides about `fix`. `minimumMove` raises the stationary radius: the recorder passes
    /// `.infinity` while auto-paused, so that only its departure rule (`acceptMovement`) resumes.
    public mutating func evaluate(_ fix: Fix, minimumMove: Double = 0) -> FixDecision {
        if let reason = FixFilter.qualityRejection(fix, settings: settings) { return .rejected(reason) }
        if !(fix.time > floorTime) { return .rejected(.outOfOrder) }
        switch phase {
        case .warmingUp(let anchor, var chain):
            if let last = chain.last, fix.time <= last.time {
                if fix.time == last.time { return .rejected(.outOfOrder) }
                chain = .empty  // time went backwards: start the chain again
            }
            // After a signal loss, a fix that agrees with where the track was is trusted at once.
            if let anchor, consistent(anchor, fix) { return accept(fix, distance: 0, newSegment: true) }
            if extend(&chain, with: fix) { return accept(fix, distance: 0, newSegment: true) }
            phase = .warmingUp(anchor: anchor, chain: chain)
            return .rejected(.warmUp)
        case .segmentPending:
            return accept(fix, distance: 0, newSegment: true)
        case .tracking(let anchor, var chain):
            let d = Geodesic.wgs84.distance(latitude1: anchor.latitude, longitude1: anchor.longitude, latitude2: fix.latitude, longitude2: fix.longitude)
            let r = radius(for: fix)
            let dt = fix.time - anchor.time
            if max(0, d - 2 * max(r, radius(for: anchor))) / dt > maximumSpeed {
                if let last = chain.last, fix.time <= last.time { chain = .empty }
                if extend(&chain, with: fix) { return accept(fix, distance: 0, newSegment: true) }
                phase = .tracking(anchor: anchor, chain: chain)
                return .rejected(.tooFast)
            }
            phase = .tracking(anchor: anchor, chain: .empty)
            if d > settings.jumpThreshold { return accept(fix, distance: 0, newSegment: true) }
            if d < max(r, minimumMove) { return .rejected(.stationaryJitter) }
            return accept(fix, distance: d, newSegment: false)
        }
    }
}
