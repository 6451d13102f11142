/// What `SensorTrack.add` did with a reading.
public enum SensorOutcome: Sendable, Equatable {
    /// Recorded; with the values the channels took from it (a channel another source holds
    /// takes nothing; `distance` is what it added to the track's).
    case recorded(SensorReading)
    /// Before the last sample or gap: dropped.
    case ignoredOutOfOrder
    /// Not a finite time, or nothing usable in it: dropped.
    case ignoredInvalid
}

/// A workout's power, cadence, speed and sensor distance recorded beside the fixes: every sample
/// with its gaps, each channel following one source at a time, and the figures (power analysis,
/// average cadence, maximum speed, distance). Pure; times are arguments. Replaying `samples`
/// through a fresh track gives the same figures (`replay`).
///
/// A reading holds until the next reading of its channel, its source's gap, or for at most
/// `maximumSampleInterval`. When several sources give a channel, the best-ranked one that is
/// heard wins (`SensorSource.rank`): a power meter's cadence before a CSC sensor's, a wheel's
/// speed and distance before a footpod's.
public struct SensorTrack: Sendable {
    /// Every accepted reading and every gap, in order: what is saved and journaled.
    public private(set) var samples: [SensorSample] = []
    /// Metres from the distance channel.
    public private(set) var distance = 0.0
    public private(set) var maxPower: Int?
    public private(set) var maxCadence: Double?
    public private(set) var maxSpeed: Double?
    /// The functional threshold power the analysis uses.
    public let ftp: Double?

    /// Longest time (s) a reading holds without the next one.
    public static let maximumSampleInterval = 5.0
    /// Plausible values; others are dropped from the reading (the rest of it is kept).
    public static let plausiblePower = 0...3000
    public static let plausibleCadence = 0.0...300
    public static let plausibleSpeed = 0.0...40

    /// The reading each channel follows now (power, cadence, speed; distance keeps its source).
    private struct Held: Sendable {
        var source: SensorSource
        var time: Double
        var value: Double
    }
    private var power: Held?
    private var cadence: Held?
    private var speed: Held?
    private var distanceSource: (source: SensorSource, time: Double)?
    private var powerSeconds: PowerSeconds
    /// Time-weighted cadence over the time a non-zero cadence held (coasting leaves it out).
    private var cadenceSum = 0.0
    private var cadenceTime = 0.0
    private var lastMarkTime = -Double.infinity
    /// Sources with a reading since their last gap.
    private var running: Set<SensorSource> = []

    public init(ftp: Double? = nil) {
        self.ftp = ftp
        powerSeconds = PowerSeconds(ftp: ftp)
    }

    public var isEmpty: Bool { samples.isEmpty }
    /// Whether any reading gave distance (an indoor workout measures its distance with it).
    public private(set) var hasDistance = false

    // MARK: - Recording

    /// Records a reading of `source` at `time`.
    @discardableResult
    public mutating func add(time t: Double, source: SensorSource, reading raw: SensorReading) -> SensorOutcome {
        guard t.isFinite else { return .ignoredInvalid }
        guard t >= lastMarkTime else { return .ignoredOutOfOrder }
        let r = SensorTrack.plausible(raw)
        guard !r.isEmpty else { return .ignoredInvalid }
        var taken = SensorReading()
        if let w = r.power, SensorTrack.takes(power, .power, source, at: t) {
            closePower(until: t)
            power = Held(source: source, time: t, value: Double(w))
            maxPower = max(maxPower ?? w, w)
            taken.power = w
        }
        if let c = r.cadence, SensorTrack.takes(cadence, .cadence, source, at: t) {
            closeCadence(until: t)
            cadence = Held(source: source, time: t, value: c)
            maxCadence = max(maxCadence ?? c, c)
            taken.cadence = c
        }
        if let v = r.speed, SensorTrack.takes(speed, .speed, source, at: t) {
            speed = Held(source: source, time: t, value: v)
            maxSpeed = max(maxSpeed ?? v, v)
            taken.speed = v
        }
        if let d = r.distance {
            let holder = distanceSource
            if holder.map({ $0.source == source || source.rank(for: .distance) < $0.source.rank(for: .distance)
                                || t - $0.time > SensorTrack.maximumSampleInterval }) ?? true {
                distanceSource = (source, t)
                distance += d
                taken.distance = d
                hasDistance = true
            }
        }
        samples.append(SensorSample(time: t, source: source, reading: r))
        running.insert(source)
        lastMarkTime = t
        return .recorded(taken)
    }

    /// Whether `source` may give `channel` now: nothing holds it, it holds it, it ranks better,
    /// or the holder went quiet.
    private static func takes(_ held: Held?, _ channel: SensorChannel, _ source: SensorSource, at t: Double) -> Bool {
        guard let h = held else { return true }
        return h.source == source || source.rank(for: channel) < h.source.rank(for: channel) || t - h.time > SensorTrack.maximumSampleInterval
    }

    /// Counts the held power up to `t` (at most `maximumSampleInterval` after its reading).
    private mutating func closePower(until t: Double) {
        guard let h = power else { return }
        power = nil
        let end = min(t, h.time + SensorTrack.maximumSampleInterval)
        if end > h.time { powerSeconds.hold(h.value, from: h.time, to: end) }
    }

    /// Counts the held cadence up to `t`, when it is not zero.
    private mutating func closeCadence(until t: Double) {
        guard let h = cadence else { return }
        cadence = nil
        let end = min(t, h.time + SensorTrack.maximumSampleInterval)
        if end > h.time, h.value > 0 { cadenceSum += h.value * (end - h.time); cadenceTime += end - h.time }
    }

    /// `source` stopped at `time` (dropped out, closed): its readings end there, a gap. Returns
    /// false (and stores nothing) when it has no reading since its last gap or the time is out of order.
    @discardableResult
    public mutating func gap(at t: Double, source: SensorSource) -> Bool {
        guard running.contains(source), t.isFinite, t >= lastMarkTime else { return false }
        if power?.source == source { closePower(until: t) }
        if cadence?.source == source { closeCadence(until: t) }
        if speed?.source == source { speed = nil }
        if distanceSource?.source == source { distanceSource = nil }
        running.remove(source)
        samples.append(SensorSample(time: t, source: source, reading: nil))
        lastMarkTime = t
        return true
    }

    /// Every source stops at `time` (the workout paused or ended); the sources that had readings.
    @discardableResult
    public mutating func gapAll(at t: Double) -> [SensorSource] {
        let open = SensorSource.allCases.filter { running.contains($0) }
        return open.filter { gap(at: t, source: $0) }
    }

    /// Values outside the plausible ranges left out.
    static func plausible(_ r: SensorReading) -> SensorReading {
        var out = SensorReading()
        if let w = r.power, plausiblePower.contains(w) { out.power = w }
        if let c = r.cadence, c.isFinite, plausibleCadence.contains(c) { out.cadence = c }
        if let v = r.speed, v.isFinite, plausibleSpeed.contains(v) { out.speed = v }
        if let d = r.distance, d.isFinite, d >= 0 { out.distance = d }
        return out
    }

    // MARK: - Figures

    /// The track with every held reading counted up to `t` and the last second analysed: the
    /// figures of a finished workout. (A live summary reads the figures as they are: the analysis
    /// lags the readings by at most a second or one reading.)
    public func finished(at t: Double) -> SensorTrack {
        var c = self
        c.closePower(until: t)
        c.closeCadence(until: t)
        c.powerSeconds.flush()
        return c
    }

    public var analysis: PowerAnalysis { powerSeconds.analysis }
    /// Joules of work (power held over time).
    public var work: Double { powerSeconds.work }
    /// Whether any power was recorded.
    public var hasPower: Bool { maxPower != nil }

    /// Mean power over the time power held (zeros count), including the reading holding at `t`.
    public func averagePower(at t: Double) -> Double? {
        var work = powerSeconds.work, time = powerSeconds.covered
        if let h = power {
            let end = min(t, h.time + SensorTrack.maximumSampleInterval)
            if end > h.time { work += h.value * (end - h.time); time += end - h.time }
        }
        return time > 0 ? work / time : nil
    }

    /// Mean cadence over the time a non-zero cadence held, including the one holding at `t`.
    public func averageCadence(at t: Double) -> Double? {
        var sum = cadenceSum, time = cadenceTime
        if let h = cadence, h.value > 0 {
            let end = min(t, h.time + SensorTrack.maximumSampleInterval)
            if end > h.time { sum += h.value * (end - h.time); time += end - h.time }
        }
        return time > 0 ? sum / time : nil
    }

    /// The value a channel holds at `t` (nil in a gap, or when its reading is too old).
    public func current(_ channel: SensorChannel, at t: Double) -> Double? {
        let h: Held?
        switch channel {
        case .power: h = power
        case .cadence: h = cadence
        case .speed: h = speed
        case .distance: return nil
        }
        guard let h, t - h.time <= SensorTrack.maximumSampleInterval else { return nil }
        return h.value
    }

    /// A track rebuilt from saved samples.
    public static func replay(_ samples: [SensorSample], ftp: Double?) -> SensorTrack {
        var t = SensorTrack(ftp: ftp)
        for s in samples {
            if let r = s.reading { t.add(time: s.time, source: s.source, reading: r) } else { t.gap(at: s.time, source: s.source) }
        }
        return t
    }
}
