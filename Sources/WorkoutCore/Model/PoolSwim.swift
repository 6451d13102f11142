/// The unit a pool is measured in (and its pace shown per 100 of).
public enum PoolUnit: String, Sendable, Equatable, CaseIterable {
    case meters = "m"
    case yards = "yd"

    public var meters: Double {
        switch self {
        case .meters: return 1
        case .yards: return 0.9144
        }
    }
}

/// The stroke of a length (FIT `swim_stroke`).
public enum SwimStroke: String, Sendable, Equatable, CaseIterable {
    case freestyle, backstroke, breaststroke, butterfly, drill, mixed, im

    public init?(fit: UInt8) {
        switch fit {
        case 0: self = .freestyle
        case 1: self = .backstroke
        case 2: self = .breaststroke
        case 3: self = .butterfly
        case 4: self = .drill
        case 5: self = .mixed
        case 6: self = .im
        default: return nil
        }
    }
}

/// One length of a pool swim: swum (active) or a rest at the wall (idle).
public struct SwimLength: Sendable, Equatable {
    /// UTC seconds since 1970.
    public var start: Double
    public var seconds: Double
    public var strokes: Int?
    public var stroke: SwimStroke?
    public var active: Bool

    public init(start: Double, seconds: Double, strokes: Int? = nil, stroke: SwimStroke? = nil, active: Bool = true) {
        self.start = start; self.seconds = seconds; self.strokes = strokes; self.stroke = stroke; self.active = active
    }

    /// SWOLF: seconds plus strokes of the length; nil without strokes or for a rest.
    public var swolf: Double? {
        guard active, let strokes else { return nil }
        return seconds + Double(strokes)
    }
}

/// A pool swim as the watch recorded it: the pool's length and every length.
public struct PoolSwim: Sendable, Equatable {
    /// Metres (a 25-yard pool is 22.86).
    public var poolLengthMeters: Double
    public var unit: PoolUnit
    public var lengths: [SwimLength]

    public init(poolLengthMeters: Double, unit: PoolUnit, lengths: [SwimLength]) {
        self.poolLengthMeters = poolLengthMeters; self.unit = unit; self.lengths = lengths
    }

    public var activeLengths: Int { lengths.reduce(0) { $0 + ($1.active ? 1 : 0) } }
    /// The swum distance: active lengths times the pool's length.
    public var distanceMeters: Double { Double(activeLengths) * poolLengthMeters }
}

/// A swim's figures for the summary (JSON `swim`): the pool and its lengths for a pool swim,
/// strokes and pace for any swim. Pace is per 100 of the pool's unit (100 m, or 100 yd in a
/// yard pool), over the active lengths' time (rests left out) for a pool, else over the
/// workout's moving time.
public struct SwimSummary: Sendable, Equatable {
    public var poolLengthMeters: Double?
    public var poolUnit: PoolUnit?
    public var lengths: Int?
    public var activeLengths: Int?
    public var strokes: Int?
    /// Mean SWOLF of the active lengths with strokes.
    public var averageSwolf: Double?
    /// Seconds per 100 `paceUnit`.
    public var pacePer100: Double?
    public var paceUnit: PoolUnit
    /// The stroke of most active lengths.
    public var mainStroke: SwimStroke?

    public init(poolLengthMeters: Double? = nil, poolUnit: PoolUnit? = nil, lengths: Int? = nil, activeLengths: Int? = nil,
                strokes: Int? = nil, averageSwolf: Double? = nil, pacePer100: Double? = nil, paceUnit: PoolUnit = .meters,
                mainStroke: SwimStroke? = nil) {
        self.poolLengthMeters = poolLengthMeters; self.poolUnit = poolUnit; self.lengths = lengths; self.activeLengths = activeLengths
        self.strokes = strokes; self.averageSwolf = averageSwolf; self.pacePer100 = pacePer100; self.paceUnit = paceUnit
        self.mainStroke = mainStroke
    }

    /// A pool swim's figures.
    public init(pool: PoolSwim, strokes total: Int?) {
        let active = pool.lengths.filter(\.active)
        let counted = active.compactMap(\.strokes)
        let swolfs = active.compactMap(\.swolf)
        let seconds = active.reduce(0) { $0 + $1.seconds }
        let hundreds = pool.distanceMeters / pool.unit.meters / 100
        var byStroke: [SwimStroke: Int] = [:]
        for l in active { if let s = l.stroke { byStroke[s, default: 0] += 1 } }
        self.init(poolLengthMeters: pool.poolLengthMeters, poolUnit: pool.unit, lengths: pool.lengths.count, activeLengths: active.count,
                  strokes: counted.isEmpty ? total : counted.reduce(0, +),
                  averageSwolf: swolfs.isEmpty ? nil : swolfs.reduce(0, +) / Double(swolfs.count),
                  pacePer100: hundreds > 0 && seconds > 0 ? seconds / hundreds : nil, paceUnit: pool.unit,
                  mainStroke: SwimStroke.allCases.filter { byStroke[$0] != nil }.max { byStroke[$0]! < byStroke[$1]! })
    }
}
