/// The best mean power over one duration found in a workout (a point of its power curve).
public struct PowerCurvePoint: Sendable, Equatable {
    public var seconds: Int
    /// Mean watts over the best `seconds` in a row.
    public var watts: Double
    /// Where that stretch began (UTC seconds).
    public var startTime: Double

    public init(seconds: Int, watts: Double, startTime: Double) { self.seconds = seconds; self.watts = watts; self.startTime = startTime }
}

/// Power analysis over whole seconds, fed in time order (`PowerSeconds` makes the seconds from
/// the readings). Pure and incremental: O(1) per second, so a live workout keeps it current.
///
/// - Normalized power (Coggan, as GoldenCheetah and TrainingPeaks compute it): the 30 s rolling
///   mean of the seconds with power, each raised to the 4th power, averaged, 4th root. Seconds
///   without power (a dropout, a pause) are left out of the rolling window; nil before 30 s.
/// - Intensity factor NP / FTP; training stress = hours with power x IF^2 x 100.
/// - Seconds in Coggan's 7 zones (`PowerZones`) when an FTP is known.
/// - The power curve: the best mean power over 5 s, 1, 5, 20 and 60 min of consecutive seconds,
///   a second without power counting as 0 W (power not recorded is not claimed).
public struct PowerAnalysis: Sendable {
    /// The durations of the power curve.
    public static let curveSeconds = [5, 60, 300, 1200, 3600]
    /// The rolling window of normalized power.
    public static let rollingSeconds = 30

    public let zones: PowerZones?
    /// Seconds with power, their summed watts.
    public private(set) var coveredSeconds = 0
    public private(set) var wattSum = 0.0
    /// Seconds in zones 1-7 (index 0 = zone 1); empty without an FTP.
    public private(set) var zoneSeconds: [Double]
    private var ring = [Double](repeating: 0, count: PowerAnalysis.rollingSeconds)
    private var ringSum = 0.0
    private var fourthSum = 0.0
    private var fourthCount = 0
    /// First second fed, and prefix sums of watts over every second since (0 W where none).
    private var first: Int?
    private var prefix: [Double] = [0]
    private var best: [(watts: Double, start: Int)?] = Array(repeating: nil, count: PowerAnalysis.curveSeconds.count)

    public init(ftp: Double? = nil) {
        zones = ftp.flatMap(PowerZones.init(ftp:))
        zoneSeconds = zones == nil ? [] : Array(repeating: 0, count: PowerZones.count)
    }

    /// The mean power of second `second` (UTC seconds, increasing; a skipped second had none).
    /// Negative or non-finite watts count as 0; a second not after the last one is ignored.
    public mutating func add(second: Int, watts raw: Double) {
        let w = raw.isFinite ? max(0, raw) : 0
        if let f = first {
            let n = second - f  // index of this second
            guard n >= prefix.count - 1 else { return }
            while prefix.count - 1 < n { prefix.append(prefix[prefix.count - 1]) }
        } else {
            first = second
        }
        prefix.append(prefix[prefix.count - 1] + w)
        let slot = coveredSeconds % PowerAnalysis.rollingSeconds
        ringSum += w - ring[slot]
        ring[slot] = w
        coveredSeconds += 1
        wattSum += w
        if coveredSeconds >= PowerAnalysis.rollingSeconds {
            let mean = max(0, ringSum) / Double(PowerAnalysis.rollingSeconds)
            let sq = mean * mean
            fourthSum += sq * sq
            fourthCount += 1
        }
        if let z = zones { zoneSeconds[z.zone(of: w) - 1] += 1 }
        let end = prefix.count - 1
        for (i, k) in PowerAnalysis.curveSeconds.enumerated() where end >= k {
            let mean = (prefix[end] - prefix[end - k]) / Double(k)
            if mean > (best[i]?.watts ?? -1) { best[i] = (mean, (first ?? second) + end - k) }
        }
    }

    /// Mean power of the seconds with power; nil without any.
    public var averagePower: Double? { coveredSeconds > 0 ? wattSum / Double(coveredSeconds) : nil }

    /// nil before 30 seconds with power.
    public var normalizedPower: Double? {
        guard fourthCount > 0 else { return nil }
        let m = fourthSum / Double(fourthCount)
        return m.squareRoot().squareRoot()
    }

    /// NP / FTP; nil without either.
    public var intensityFactor: Double? {
        guard let np = normalizedPower, let z = zones else { return nil }
        return np / z.ftp
    }

    /// Hours with power x IF^2 x 100 (= s x NP x IF / (FTP x 3600) x 100); nil without IF.
    public var trainingStress: Double? {
        guard let f = intensityFactor else { return nil }
        return Double(coveredSeconds) / 3600 * f * f * 100
    }

    /// The best mean power over each of `durations` (seconds) of consecutive seconds, from the
    /// prefix sums (a second without power counts as 0 W, as in `curve`): O(seconds) per
    /// duration. One point per duration the workout is long enough for; the earliest stretch on
    /// a tie.
    public func meanMaximal(_ durations: [Int]) -> [PowerCurvePoint] {
        guard let first else { return [] }
        let n = prefix.count - 1
        var out: [PowerCurvePoint] = []
        for k in durations where k > 0 && k <= n {
            var bestSum = -1.0, bestEnd = k
            for end in k...n {
                let sum = prefix[end] - prefix[end - k]
                if sum > bestSum { bestSum = sum; bestEnd = end }
            }
            out.append(PowerCurvePoint(seconds: k, watts: bestSum / Double(k), startTime: Double(first + bestEnd - k)))
        }
        return out
    }

    /// The power curve so far: one point per duration the workout is long enough for.
    public var curve: [PowerCurvePoint] {
        zip(PowerAnalysis.curveSeconds, best).compactMap { k, b in b.map { PowerCurvePoint(seconds: k, watts: $0.watts, startTime: Double($0.start)) } }
    }
}
