/// How fast a recorded track moves, against the activity named for it: a device's track far
/// faster than its activity allows (a ride imported as a hike) keeps its distance
/// (`SpeedLimit.anyActivity`), and the import says so, naming the speed and a likely activity.
struct TrackSpeedCheck {
    /// Median speed (m/s) of the steps that move (at least `movingSpeed`), or nil with too few.
    let medianMovingSpeed: Double?

    /// A step slower than this (m/s) is standing still and does not count.
    static let movingSpeed = 0.5
    /// Fewer moving steps than this say nothing.
    static let minimumSteps = 10

    /// Steps between consecutive fixes of the same segment with a later time.
    init(fixes: some Sequence<Fix>, segments: some Sequence<Int>) {
        var steps = Steps()
        for (f, s) in zip(fixes, segments) { steps.add(f, segment: s) }
        self = steps.check
    }

    init(medianOf speeds: [Double]) {
        guard speeds.count >= TrackSpeedCheck.minimumSteps else { medianMovingSpeed = nil; return }
        let speeds = speeds.sorted()
        let n = speeds.count
        medianMovingSpeed = n % 2 == 1 ? speeds[n / 2] : (speeds[n / 2 - 1] + speeds[n / 2]) / 2
    }

    /// The steps fed one fix at a time (the importer does it beside the recorder, reusing the
    /// distance the fix filter measured when the step is the filter's anchor-to-fix pair).
    struct Steps {
        /// The moving steps' speeds: every one up to `kept`; beyond, every `stride`-th (the
        /// systematic sample of a long track, whose median is the track's within a hair): memory
        /// stays bounded whatever the track (a 1.5 M-record file).
        private var speeds: [Double] = []
        private var stride = 1
        private var skipped = 0
        static let kept = 1 << 16
        /// The length of the last moving step (m).
        private(set) var lastDistance = 0.0
        /// The length of the step the last fix ended (m), moving or not; nil when it ended none
        /// (a new segment, a fix the quality gates refuse, or one not later than the one before).
        private(set) var lastStep: Double?
        /// The moving steps' speeds so far (m/s; the sample beyond `kept`, as above).
        var movingSpeeds: [Double] { speeds }
        /// How many moving steps so far (all of them, sampled or not).
        private(set) var movingCount = 0
        /// The previous fix (what a step needs of it), its segment, and whether it passes the
        /// quality gates.
        private var previous: (position: FixFilter.Position, segment: Int, usable: Bool)?
        /// The default quality gates (`MetricsSettings()`'s), kept beside the steps (not the
        /// whole settings, nor a global read for every fix).
        private let gateMode: FixMode
        private let gateAccuracy: Double

        init() {
            let defaults = MetricsSettings()
            gateMode = defaults.minimumFixMode
            gateAccuracy = defaults.maximumHorizontalAccuracy
        }

        /// The next fix in order; `known` may hold the geodesic already measured between the
        /// previous fix and this one (used only when it is that exact pair).
        mutating func add(_ f: Fix, segment s: Int, known: MeasuredPair = .none) {
            let here = FixFilter.Position(f)
            let usable = FixFilter.qualityRejection(f, minimumFixMode: gateMode, maximumHorizontalAccuracy: gateAccuracy) == nil
            defer { previous = (here, s, usable) }
            lastStep = nil
            guard let p = previous, p.segment == s, here.time > p.position.time, usable, p.usable else { return }
            let d = known.meters(from: p.position, to: here) ?? MeasuredPair.measure(p.position, here).meters
            lastStep = d
            let v = d / (here.time - p.position.time)
            if v.isFinite, v >= TrackSpeedCheck.movingSpeed { keep(v); lastDistance = d }
        }

        private mutating func keep(_ v: Double) {
            movingCount += 1
            skipped += 1
            guard skipped >= stride else { return }
            skipped = 0
            speeds.append(v)
            if speeds.count >= Steps.kept * 2 {
                // Every other one kept, and from now on every other one taken.
                speeds = Swift.stride(from: 0, to: speeds.count, by: 2).map { speeds[$0] }
                stride *= 2
            }
        }

        var check: TrackSpeedCheck { TrackSpeedCheck(medianOf: speeds) }

        /// `check.warning(activity:distance:)`, without sorting the speeds when a count decides;
    /// else the warning that the speeds say a faster kind of activity than the one named
    /// (`ActivityInference.contradiction`).
        /// Sorted, the median is `s[n/2]` (n odd) or `(s[n/2-1] + s[n/2]) / 2` (n even), never
        /// above `s[n/2]` (rounding is monotone); with fewer than `n - n/2` speeds above the limit,
        /// `s[n/2]` is not above it, so neither is the median: no warning, as the sort would say.
        func warning(activity: ActivityType, distance: Double) -> String? {
            guard activity.supportsGPS, speeds.count >= TrackSpeedCheck.minimumSteps else { return nil }
            let limit = activity.maxPlausibleSpeed
            var above = 0
            for v in speeds where v > limit { above += 1 }
            if above < speeds.count - speeds.count / 2 {
                // Not far beyond the activity: perhaps beyond what it holds (a drive named a run).
                let ceiling = activity.plausibility.heldCeiling
                var held = 0
                for v in speeds where v > ceiling { held += 1 }
                if held < speeds.count - speeds.count / 2 { return nil }
            }
            return check.warning(activity: activity, distance: distance)
        }
    }

    /// The activity a typical moving speed (m/s) suggests, or nil beyond any (a vehicle).
    static func likelyActivity(speed v: Double) -> ActivityType? {
        if v < 2.0 { return .walking }       // < 7.2 km/h
        if v < 5.0 { return .running }       // < 18 km/h
        if v < 12.5 { return .cycling }      // < 45 km/h
        return nil
    }

    /// The warning when the track's median moving speed is above the highest `activity` allows.
    func warning(activity: ActivityType, distance: Double) -> String? {
        guard activity.supportsGPS, let v = medianMovingSpeed else { return nil }
        guard v > activity.maxPlausibleSpeed else { return ActivityInference.contradiction(named: activity, median: v) }
        let kmh = { (x: Double) in String(Int((x * 3.6).rounded())) }
        let likely = TrackSpeedCheck.likelyActivity(speed: v).map { "likely " + $0.displayName.lowercased() } ?? "likely a motor vehicle"
        return "moves at \(kmh(v)) km/h median, far faster than \(activity.displayName.lowercased()) allows (\(kmh(activity.maxPlausibleSpeed)) km/h); "
            + "\(likely); distance kept as recorded (\(formatFixed(distance / 1000, decimals: 2)) km)"
    }
}
