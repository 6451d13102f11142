/// A point of the power curve over many workouts: the best mean power over `seconds` and the
/// workout that holds it.
public struct RangePowerPoint: Sendable, Equatable {
    public var seconds: Int
    public var watts: Double
    public var id: WorkoutID
    /// The workout's start (UTC seconds).
    public var startedAt: Double

    public init(seconds: Int, watts: Double, id: WorkoutID, startedAt: Double) {
        self.seconds = seconds; self.watts = watts; self.id = id; self.startedAt = startedAt
    }

    /// `{"seconds", "watts", "id", "startedAt"}`.
    public func json() -> JSON {
        ["seconds": .int(seconds), "watts": .number(rounded(watts, 1)), "id": .string(id.rawValue),
         "startedAt": .string(ISO8601.format(startedAt, fractionDigits: 3))]
    }
}

/// The power-duration curve (mean-maximal power) of workouts and of ranges of them
/// (docs/metrics.md, "Power curve"). Pure.
public enum PowerCurve {
    /// Durations (s) of the curve, 1 s to 5 h: every duration `power-curve` names.
    public static let durations = [1, 2, 3, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 360, 480, 600, 720, 900, 1200,
                                   1500, 1800, 2400, 3600, 4500, 5400, 7200, 9000, 10800, 14400, 18000]

    /// The whole curve of a saved workout: its points, events and sensor readings measured
    /// again (as `recompute` does) and the mean-maximal power over each of `durations` from the
    /// same seconds as its normalized power. Empty without power.
    /// Most points a workout is decoded whole for to measure its curve: memory grows with the
    /// points (~200 bytes each while measured).
    public static let wholeCurvePoints = 200_000

    /// Whether `s`'s own best powers (5 s, 1, 5, 20 and 60 min, found from every point when it
    /// was saved) stand in for its curve: a workout of more than `wholeCurvePoints` points (a
    /// multi-day file) adds those durations to a range's curve, not every one.
    public static func standsInForCurve(_ s: WorkoutSummary) -> Bool { s.pointCount > wholeCurvePoints }

    public static func of(_ w: Workout, settings: MetricsSettings) -> [PowerCurvePoint] {
        let r = WorkoutRecorder.rebuild(id: w.id, activity: w.activity, startedAt: w.summary.startedAt,
                                        settings: Importer.origin(ofSource: w.source).settings(settings), points: w.points,
                                        events: w.events, heartRate: w.heartRate, sensors: w.sensors, odometer: w.odometer)
        let end = w.summary.endedAt ?? max(w.points.last?.fix.time ?? w.summary.startedAt, w.sensors.last?.time ?? w.summary.startedAt)
        return r.finishedPowerAnalysis(at: end)?.meanMaximal(durations) ?? []
    }

    /// For each duration, the best of `workouts`' curves and the workout it comes from (the
    /// earlier workout on a tie). Durations no workout reaches are left out.
    public static func best(of workouts: [(id: WorkoutID, startedAt: Double, curve: [PowerCurvePoint])]) -> [RangePowerPoint] {
        var best: [Int: RangePowerPoint] = [:]
        for w in workouts.sorted(by: { $0.startedAt < $1.startedAt }) {
            for p in w.curve where p.watts.isFinite && p.watts > (best[p.seconds]?.watts ?? -1) {
                best[p.seconds] = RangePowerPoint(seconds: p.seconds, watts: p.watts, id: w.id, startedAt: w.startedAt)
            }
        }
        return best.values.sorted { $0.seconds < $1.seconds }
    }
}

/// The two-parameter critical-power model (Monod and Scherrer; Jones et al. 2010) fitted to a
/// power curve: the work done in t seconds at the best mean power is W = CP x t + W', so a
/// least-squares line through (t, watts x t) over efforts of 2 to 20 min gives CP (the slope, W)
/// and W' (the intercept, J). The estimated FTP is the model's power for 60 min,
/// CP + W' / 3600.
public struct CriticalPowerModel: Sendable, Equatable {
    public var criticalPower: Double
    public var wPrime: Double

    /// Durations (s) the model is fitted over.
    public static let fitSeconds = 120...1200

    public init(criticalPower: Double, wPrime: Double) { self.criticalPower = criticalPower; self.wPrime = wPrime }

    /// The model's estimate of functional threshold power (W).
    public var estimatedFTP: Double { criticalPower + wPrime / 3600 }

    /// The model's mean power over `seconds`: CP + W' / t.
    public func watts(seconds: Double) -> Double { criticalPower + wPrime / seconds }

    /// The fit to the points of `curve` within `fitSeconds`; nil with fewer than two durations
    /// there, or when the line says nothing physical (CP or W' not positive).
    public static func fit(_ curve: [(seconds: Int, watts: Double)]) -> CriticalPowerModel? {
        let pts = curve.filter { fitSeconds.contains($0.seconds) && $0.watts.isFinite && $0.watts > 0 }
        guard Set(pts.map(\.seconds)).count >= 2 else { return nil }
        let n = Double(pts.count)
        let ts = pts.map { Double($0.seconds) }, ws = pts.map { Double($0.seconds) * $0.watts }
        let mt = ts.reduce(0, +) / n, mw = ws.reduce(0, +) / n
        var sxy = 0.0, sxx = 0.0
        for (t, w) in zip(ts, ws) { sxy += (t - mt) * (w - mw); sxx += (t - mt) * (t - mt) }
        guard sxx > 0 else { return nil }
        let cp = sxy / sxx, wp = mw - cp * mt
        guard cp > 0, wp > 0, cp.isFinite, wp.isFinite else { return nil }
        return CriticalPowerModel(criticalPower: cp, wPrime: wp)
    }
}
