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
/// 6. closer than the stationary radius to the last accepted fix -> `stationaryJitter`, unless
///    the receiver reports a speed of at least `movingSpeed` (its Doppler speed says it moves);
/// 7. otherwise accepted, adding the WGS84 geodesic distance from the last accepted fix.
public struct FixFilter: Sendable {
    public let activity: ActivityType
    /// The rules in force (changed by a reload while a workout records: the next fix follows them).
    public internal(set) var settings: MetricsSettings {
        didSet { maximumSpeed = settings.speedLimit.maximumSpeed(for: activity) }
    }
    /// Fixes at or before this time are out of order until one is accepted (the workout start).
    private let startFloor: Double
    private var phase: Phase
    /// The last anchor-to-fix distance `evaluate` (tracking) or `acceptMovement` measured.
    public private(set) var lastMeasured = MeasuredPair.none

    /// What the filter keeps of a fix: when, where, and the accuracy its radius widens to. A
    /// `Fix` carries a dozen more optionals (about 190 bytes); the phase, rewritten for every
    /// accepted fix, holds this 40-byte summary of it instead.
    public struct Position: Sendable, Equatable {
        public var time: Double
        public var latitude: Double
        public var longitude: Double
        public var horizontalAccuracy: Double?

        public init(_ fix: Fix) {
            time = fix.time; latitude = fix.latitude; longitude = fix.longitude; horizontalAccuracy = fix.horizontalAccuracy
        }
    }

    /// Where the filter stands. Each case carries what exists in it; nothing is reset by hand.
    enum Phase: Sendable {
        /// At the start and after a signal loss: `warmUpCount` mutually consistent fixes are
        /// needed (`chain`). `anchor` is the last accepted fix before the loss, if any: a fix that
        /// agrees with it is trusted at once.
        /// -> tracking (a fix is trusted)
        case warmingUp(anchor: Position?, chain: Chain)
        /// After a pause: the next acceptable fix starts a new segment, measured from nothing.
        /// -> tracking (next fix), warmingUp (restart after a signal loss)
        case segmentPending(anchor: Position)
        /// Extending the track from `anchor`; `chain` holds too-fast fixes that agree with each
        /// other (enough of them and the receiver has really moved: a new segment).
        /// -> segmentPending, warmingUp (restart)
        case tracking(anchor: Position, chain: Chain)
    }

    /// Candidate fixes agreeing with each other but not (yet) with the anchor.
    struct Chain: Sendable {
        var last: Position?
        var count = 0
        static let empty = Chain()
    }

    /// A filter for a workout that started at `startedAt` (fixes before it are out of order).
    public init(activity: ActivityType, settings: MetricsSettings, startedAt: Double = -Double.infinity) {
        self.activity = activity
        self.settings = settings
        self.maximumSpeed = settings.speedLimit.maximumSpeed(for: activity)
        self.movingSpeed = max(activity.autoPauseSpeed ?? FixFilter.minimumDopplerSpeed, FixFilter.minimumDopplerSpeed)
        self.startFloor = startedAt.nextDown  // a fix stamped exactly at the start is in order
        self.phase = .warmingUp(anchor: nil, chain: .empty)
    }

    /// The last accepted fix (what the filter keeps of it): the anchor distances are measured from.
    public var lastAccepted: Position? {
        switch phase {
        case .warmingUp(let anchor, _): return anchor
        case .segmentPending(let anchor), .tracking(let anchor, _): return anchor
        }
    }

    /// Time before which fixes are out of order (the workout start, then the last accepted fix).
    public var floorTime: Double {
        switch phase {
        case .warmingUp(let anchor, _): return anchor?.time ?? startFloor
        case .segmentPending(let anchor), .tracking(let anchor, _): return anchor.time
        }
    }

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
        qualityRejection(fix, minimumFixMode: settings.minimumFixMode, maximumHorizontalAccuracy: settings.maximumHorizontalAccuracy)
    }

    /// `qualityRejection(_:settings:)` with the two settings it reads (the per-fix path passes
    /// them, not the whole settings).
    @inline(__always)
    static func qualityRejection(_ fix: Fix, minimumFixMode: FixMode, maximumHorizontalAccuracy: Double) -> RejectionReason? {
        if !fix.time.isFinite { return .outOfOrder }
        if !fix.latitude.isFinite || !fix.longitude.isFinite || Swift.abs(fix.latitude) > 90 || Swift.abs(fix.longitude) > 180 {
            return .invalidPosition
        }
        if Swift.abs(fix.latitude) < 1e-6 && Swift.abs(fix.longitude) < 1e-6 { return .nullIsland }
        if fix.mode < minimumFixMode { return .noFix }
        if let acc = fix.horizontalAccuracy, !(acc <= maximumHorizontalAccuracy) { return .lowAccuracy }
        return nil
    }

    /// The receiver's own speed (Doppler: RMC, gpsd TPV `speed`) from which a fix inside the
    /// stationary radius is movement, not jitter: the activity's auto-pause speed, at least
    /// `minimumDopplerSpeed`. A receiver that reports its error as `eph` widens the radius
    /// (gpsd: 10-20 m), so without this a runner's 1 Hz track was cut to chords and ran short.
    public let movingSpeed: Double

    /// Lowest speed (m/s) a receiver's report must show to count as movement: a stationary
    /// receiver's Doppler speed stays below it.
    public static let minimumDopplerSpeed = 0.5

    /// Whether the receiver says this fix was taken while moving (`movingSpeed`).
    @inline(__always)
    func reportsMovement(_ fix: Fix) -> Bool {
        guard let v = fix.speed, v.isFinite else { return false }
        return v >= movingSpeed
    }

    /// The highest plausible speed (m/s): the activity's, or any activity's for a device's track.
    /// Kept with the settings (asked for every fix; the activity's builds its whole profile).
    public private(set) var maximumSpeed: Double

    /// The stationary radius used for a fix: the setting, widened to the fix's own accuracy.
    public func radius(for fix: Fix) -> Double {
        max(settings.stationaryRadius, fix.horizontalAccuracy ?? 0)
    }

    /// `radius(for:)` of a kept position (the same arithmetic).
    private func radius(for p: Position) -> Double {
        max(settings.stationaryRadius, p.horizontalAccuracy ?? 0)
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
    private func consistent(_ a: Position, _ b: Position) -> Bool {
        let dt = b.time - a.time
        guard dt > 0 else { return false }
        let d = Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
        let allowance = 2 * max(radius(for: a), radius(for: b))
        return d <= settings.jumpThreshold && max(0, d - allowance) / dt <= maximumSpeed
    }

    /// Adds `fix` to `chain`; true when the chain is long enough to be trusted.
    private func extend(_ chain: inout Chain, with fix: Position) -> Bool {
        if let last = chain.last, consistent(last, fix) {
            chain.count += 1
        } else {
            chain.count = 1
        }
        chain.last = fix
        return chain.count >= max(1, settings.warmUpCount)
    }

    private mutating func accept(_ fix: Position, distance: Double, newSegment: Bool) -> FixDecision {
        phase = .tracking(anchor: fix, chain: .empty)
        return .accepted(distance: distance, newSegment: newSegment)
    }

    /// Accepts `fix` (which `evaluate` just called stationary jitter) as real movement: the
    /// recorder does this when a departure from an auto-pause is confirmed. Adds the distance
    /// from the last accepted fix.
    public mutating func acceptMovement(_ fix: Fix) -> FixDecision {
        guard let anchor = lastAccepted, fix.time > anchor.time else { return .rejected(.outOfOrder) }
        let here = Position(fix)
        lastMeasured = .measure(anchor, here)
        return accept(here, distance: lastMeasured.meters, newSegment: false)
    }

    /// Decides about `fix`. `minimumMove` raises the stationary radius: the recorder passes
    /// `.infinity` while auto-paused, so that only its departure rule (`acceptMovement`) resumes.
    /// `known` may hold the geodesic already measured from the filter's anchor to `fix` (an
    /// import's first pass measured each fix from the one before): used only for that exact pair.
    public mutating func evaluate(_ fix: Fix, minimumMove: Double = 0, known: MeasuredPair = .none) -> FixDecision {
        if let reason = FixFilter.qualityRejection(fix, minimumFixMode: settings.minimumFixMode,
                                                   maximumHorizontalAccuracy: settings.maximumHorizontalAccuracy) { return .rejected(reason) }
        if !(fix.time > floorTime) { return .rejected(.outOfOrder) }
        let here = Position(fix)
        switch phase {
        case .warmingUp(let anchor, var chain):
            if let last = chain.last, here.time <= last.time {
                if here.time == last.time { return .rejected(.outOfOrder) }
                chain = .empty  // time went backwards: start the chain again
            }
            // After a signal loss, a fix that agrees with where the track was is trusted at once.
            if let anchor, consistent(anchor, here) { return accept(here, distance: 0, newSegment: true) }
            if extend(&chain, with: here) { return accept(here, distance: 0, newSegment: true) }
            phase = .warmingUp(anchor: anchor, chain: chain)
            return .rejected(.warmUp)
        case .segmentPending:
            return accept(here, distance: 0, newSegment: true)
        case .tracking(let anchor, let pending):
            lastMeasured = known.meters(from: anchor, to: here).map { MeasuredPair(anchor, here, meters: $0) } ?? .measure(anchor, here)
            let d = lastMeasured.meters
            let r = radius(for: here)
            let dt = here.time - anchor.time
            if max(0, d - 2 * max(r, radius(for: anchor))) / dt > maximumSpeed {
                var chain = pending
                if let last = chain.last, here.time <= last.time { chain = .empty }
                if extend(&chain, with: here) { return accept(here, distance: 0, newSegment: true) }
                phase = .tracking(anchor: anchor, chain: chain)
                return .rejected(.tooFast)
            }
            if d > settings.jumpThreshold { return accept(here, distance: 0, newSegment: true) }
            if d < max(r, minimumMove) && !(minimumMove == 0 && reportsMovement(fix)) {
                phase = .tracking(anchor: anchor, chain: .empty)
                return .rejected(.stationaryJitter)
            }
            // `accept` writes the phase once (not first the emptied chain, then the new anchor).
            return accept(here, distance: d, newSegment: false)
        }
    }
}
