/// What a body can do in an activity: the bounds of the plausibility model (docs/metrics.md
/// "Plausibility", with the sources of each figure). A stretch of a track outside them is kept
/// and drawn but counts in no maximum, best effort, record or split pace (`PlausibilityCheck`).
public struct PlausibilityBounds: Sendable, Equatable {
    /// Highest speed (m/s) held over `PlausibilityCheck.window` seconds on the flat or uphill
    /// (and where the track has no altitude).
    public var flatSpeed: Double
    /// Highest speed (m/s) with the altitude falling (at least `descentGrade`).
    public var descentSpeed: Double
    /// Highest acceleration (m/s²) held from the speed before, over several seconds.
    public var acceleration: Double
    /// The fastest times ever run (world records, metres and seconds), shortest first: no effort
    /// over a distance is faster than the record at it (interpolated in speed between two).
    /// Empty where the speeds bound it alone.
    public var records: [(meters: Double, seconds: Double)]

    /// The highest speed (m/s) the activity holds for a kilometre on the flat: a track whose
    /// median moving speed is above it is another activity (running: the 1 km world record's
    /// 7.58 m/s, 27 km/h).
    public var heldCeiling: Double { min(flatSpeed, 1000 / fastestSeconds(meters: 1000)) }

    /// A fall of at least this fraction of the distance is a descent (2 %).
    public static let descentGrade = 0.02

    public static func == (a: PlausibilityBounds, b: PlausibilityBounds) -> Bool {
        a.flatSpeed == b.flatSpeed && a.descentSpeed == b.descentSpeed && a.acceleration == b.acceleration
            && a.records.elementsEqual(b.records) { $0.meters == $1.meters && $0.seconds == $1.seconds }
    }

    /// The highest speed (m/s) over a stretch that falls `fall` metres (negative: climbs) over
    /// `meters`; nil `fall` (no altitude) is the flat.
    public func topSpeed(meters: Double, fall: Double?) -> Double {
        guard let fall, meters > 0, fall >= PlausibilityBounds.descentGrade * meters else { return flatSpeed }
        return descentSpeed
    }

    /// The fewest seconds `meters` can take: the records' (interpolated in speed), never less
    /// than at the descent speed.
    public func fastestSeconds(meters d: Double) -> Double {
        var speed = descentSpeed
        if let first = records.first, let last = records.last {
            if d <= first.meters {
                speed = min(speed, first.meters / first.seconds)
            } else if d >= last.meters {
                speed = min(speed, last.meters / last.seconds)
            } else if let k = records.firstIndex(where: { $0.meters >= d }) {
                let a = records[k - 1], b = records[k]
                let va = a.meters / a.seconds, vb = b.meters / b.seconds
                speed = min(speed, va + (d - a.meters) / (b.meters - a.meters) * (vb - va))
            }
        }
        return d / speed
    }
}

extension PlausibilityBounds {
    /// Men's outdoor world records (World Athletics, 2025): 100 m 9.58, 200 m 19.19, 400 m
    /// 43.03, 800 m 1:40.91, 1000 m 2:11.96, 1500 m 3:26.00, mile 3:43.13, 3000 m 7:20.67,
    /// 5000 m 12:35.36, 10,000 m 26:11.00, half marathon 56:42, marathon 2:00:35.
    static let runningRecords: [(meters: Double, seconds: Double)] = [
        (100, 9.58), (200, 19.19), (400, 43.03), (800, 100.91), (1000, 131.96), (1500, 206.00), (1609.344, 223.13),
        (3000, 440.67), (5000, 755.36), (10000, 1571.00), (21097.5, 3402), (42195, 7235),
    ]
}

extension ActivityType {
    /// The plausibility bounds of this activity (docs/metrics.md, "Plausibility").
    public var plausibility: PlausibilityBounds {
        let top = maxPlausibleSpeed
        switch self {
        case .running, .trailRunning, .treadmillRunning, .transition:
            // Bolt's fastest 10 m, 12.4 m/s; a sprint start reaches 10 m/s in about 4 s.
            return PlausibilityBounds(flatSpeed: 12.5, descentSpeed: 12.5, acceleration: 3.0, records: PlausibilityBounds.runningRecords)
        case .walking, .hiking:
            return PlausibilityBounds(flatSpeed: top, descentSpeed: top, acceleration: 1.5, records: [])
        case .cycling, .indoorCycling:
            // "Cyclists on the flat rarely pass 60 km/h" (a sprint finish 70-75); descents ~100 km/h.
            return PlausibilityBounds(flatSpeed: 20.0, descentSpeed: max(top, 27.8), acceleration: 1.5, records: [])
        case .mountainBiking:
            return PlausibilityBounds(flatSpeed: 16.7, descentSpeed: top, acceleration: 1.5, records: [])
        case .downhillSkiing, .snowboarding:
            // Lifts and traverses are slow; the speed comes from the fall.
            return PlausibilityBounds(flatSpeed: 12.0, descentSpeed: top, acceleration: 5.0, records: [])
        case .crossCountrySkiing, .skating, .inlineSkating:
            return PlausibilityBounds(flatSpeed: min(top, 15.0), descentSpeed: top, acceleration: 2.0, records: [])
        case .openWaterSwimming, .poolSwimming, .rowing, .indoorRowing, .kayaking, .standUpPaddling:
            return PlausibilityBounds(flatSpeed: top, descentSpeed: top, acceleration: 1.0, records: [])
        case .sailing:
            return PlausibilityBounds(flatSpeed: top, descentSpeed: top, acceleration: 2.0, records: [])
        case .strength, .hiit, .elliptical, .yoga, .climbing, .dance, .other:
            return PlausibilityBounds(flatSpeed: top, descentSpeed: top, acceleration: 10.0, records: [])
        }
    }
}

extension ActivityType {
    /// Where the activity stands among those a track's speeds tell apart (walk or hike 0, run 1,
    /// ride 2, a motor vehicle 3); nil for the others (a paddle, a ski), whose speeds the
    /// inference does not judge.
    public var speedRank: Int? {
        switch self {
        case .walking, .hiking: return 0
        case .running, .trailRunning, .transition: return 1
        case .cycling, .mountainBiking: return 2
        case .other: return 3
        case .treadmillRunning, .indoorCycling, .openWaterSwimming, .poolSwimming, .rowing, .indoorRowing, .kayaking, .standUpPaddling,
             .crossCountrySkiing, .downhillSkiing, .snowboarding, .skating, .inlineSkating, .sailing, .strength, .hiit, .elliptical,
             .yoga, .climbing, .dance:
            return nil
        }
    }
}
