/// One heart-rate reading, or the start of a gap.
public struct HeartRateSample: Sendable, Equatable {
    /// UTC seconds since 1970 (the feed's own time, or the daemon's for a Bluetooth strap).
    public var time: Double
    /// Beats per minute; nil marks the start of a gap (contact lost, strap out of range, pause):
    /// nothing is known until the next sample. A gap is never filled with the last value.
    public var bpm: Int?

    public init(time: Double, bpm: Int?) { self.time = time; self.bpm = bpm }
}

/// One RR interval (time between two beats) and the time of the sample that brought it.
public struct RRInterval: Sendable, Equatable {
    public var time: Double
    /// In 1/1024 s, as the Heart Rate Measurement carries it.
    public var interval1024: UInt16

    public init(time: Double, interval1024: UInt16) { self.time = time; self.interval1024 = interval1024 }

    public var seconds: Double { Double(interval1024) / 1024 }
}

/// What `HeartRateTrack.add` did with a reading.
public enum HeartRateOutcome: Sendable, Equatable {
    case recorded
    /// Not after the last sample or gap: dropped.
    case ignoredOutOfOrder
    /// Not a finite time, or a rate outside `HeartRateTrack.plausibleRange`: dropped (a rate out
    /// of range is counted in `rejected`).
    case ignoredInvalid
}

/// A workout's heart rate: every sample with its gaps, the RR intervals, and the running figures
/// of the workout, the open lap and the open split. Pure; times are arguments.
///
/// Samples further apart than `maximumSampleInterval` are separate runs (a feed that went quiet
/// is a gap even without a marker); an explicit gap (`gap(at:)`) ends a run at once. Only time
/// inside a run counts for zones and heart-rate calories (see `HeartRateStats`).
public struct HeartRateTrack: Sendable {
    public private(set) var samples: [HeartRateSample] = []
    public private(set) var rrIntervals: [RRInterval] = []
    public private(set) var workout: HeartRateStats
    public private(set) var lap: HeartRateStats
    public private(set) var split: HeartRateStats
    public let zones: HeartRateZones?
    public let profile: BodyProfile
    /// Longest time from one sample to the next that still counts as continuous.
    public static let maximumSampleInterval = 5.0
    /// Heart rates a human heart beats at (bpm): a strap's 255 or 0 is a sensor's fault, dropped
    /// and counted (`rejected`), never averaged.
    public static let plausibleRange = 25...250
    /// RR intervals a heart beats at, in 1/1024 s: 200-3,000 ms (300-20 bpm); others (a strap's
    /// 0 ms) are dropped and counted.
    public static let plausibleRR: ClosedRange<UInt16> = 205...3072
    /// Readings and RR intervals dropped as outside physiology, by every path that records heart
    /// rate (strap, feed, import records, fixes that carry it): `heartRateRejected` in the summary.
    public private(set) var rejected = HeartRateRejections()

    /// The last reading of the open run (nil while in a gap or before the first sample).
    private var last: (time: Double, bpm: Int)?
    /// Covered time has been counted up to here.
    private var creditedUntil = -Double.infinity
    /// Time of the last sample or gap marker (order check).
    private var lastMarkTime = -Double.infinity

    /// Room for `n` more samples (an import knows how many it will give).
    public mutating func reserveCapacity(_ n: Int) { samples.reserveCapacity(samples.count + n) }

    public init(zones: HeartRateZones? = nil, profile: BodyProfile = BodyProfile()) {
        self.zones = zones
        self.profile = profile
        workout = HeartRateTrack.emptyStats(zones, profile)
        lap = workout
        split = workout
    }

    private static func emptyStats(_ zones: HeartRateZones?, _ profile: BodyProfile) -> HeartRateStats {
        HeartRateStats(zoneSlots: zones?.slotCount ?? 0, heartRateCalories: profile.supportsHeartRateCalories)
    }

    /// Counts the run's time up to `t` in the zone of the last reading (if `t` is still inside the run).
    private mutating func credit(until t: Double) {
        guard let l = last, t > creditedUntil, t - l.time <= HeartRateTrack.maximumSampleInterval else { return }
        let dt = t - creditedUntil
        let zone = zones?.zone(of: l.bpm)
        let rate = profile.keytelKcalPerMinute(bpm: Double(l.bpm))
        workout.cover(seconds: dt, zone: zone, kcalPerMinute: rate)
        lap.cover(seconds: dt, zone: zone, kcalPerMinute: rate)
        split.cover(seconds: dt, zone: zone, kcalPerMinute: rate)
        creditedUntil = t
    }

    /// Records a reading and the RR intervals that came with it.
    @discardableResult
    public mutating func add(time: Double, bpm: Int, rr: [UInt16] = []) -> HeartRateOutcome {
        guard time.isFinite else { return .ignoredInvalid }
        guard accepts(bpm: bpm) else { rejected.rr += rr.count; return .ignoredInvalid }
        guard time > lastMarkTime else { return .ignoredOutOfOrder }
        credit(until: time)
        if let l = last, time - l.time > HeartRateTrack.maximumSampleInterval { last = nil }
        samples.append(HeartRateSample(time: time, bpm: bpm))
        for r in rr {
            if HeartRateTrack.plausibleRR.contains(r) { rrIntervals.append(RRInterval(time: time, interval1024: r)) } else { rejected.rr += 1 }
        }
        workout.add(bpm: bpm); lap.add(bpm: bpm); split.add(bpm: bpm)
        last = (time, bpm)
        creditedUntil = time
        lastMarkTime = time
        return .recorded
    }

    /// Whether `bpm` is inside physiology; a reading outside is counted in `rejected` (the one
    /// check every heart rate passes: `add`, and the recorder for fixes that carry one).
    public mutating func accepts(bpm: Int) -> Bool {
        guard HeartRateTrack.plausibleRange.contains(bpm) else { rejected.bpm += 1; return false }
        return true
    }

    /// Ends the current run at `time` (contact lost, strap lost, workout paused). Returns false
    /// (and stores nothing) when there is no run to end or the time is out of order.
    @discardableResult
    public mutating func gap(at time: Double) -> Bool {
        guard last != nil, time.isFinite, time >= lastMarkTime else { return false }
        credit(until: time)
        last = nil
        samples.append(HeartRateSample(time: time, bpm: nil))
        lastMarkTime = time
        return true
    }

    /// Closes the open lap at `time` and returns its figures; the next lap starts empty.
    public mutating func closeLap(at time: Double) -> HeartRateStats {
        credit(until: time)
        defer { lap = HeartRateTrack.emptyStats(zones, profile) }
        return lap
    }

    /// Closes the open split at `time` (see `closeLap`).
    public mutating func closeSplit(at time: Double) -> HeartRateStats {
        credit(until: time)
        defer { split = HeartRateTrack.emptyStats(zones, profile) }
        return split
    }

    /// The figures as they stand at `time` (the open run counted up to then), without changing
    /// the track: `workout`, `lap` and `split` of a copy.
    public func standing(at time: Double) -> HeartRateTrack {
        var c = self
        c.credit(until: time)
        return c
    }

    /// The latest heart rate if the run is still open at `now` (nil in a gap or after silence).
    public func current(at now: Double) -> Int? {
        guard let l = last, now - l.time <= HeartRateTrack.maximumSampleInterval else { return nil }
        return l.bpm
    }

    /// The zone of the current heart rate, when zones are configured.
    public func currentZone(at now: Double) -> Int? {
        guard let z = zones, let bpm = current(at: now) else { return nil }
        return z.zone(of: bpm)
    }

    /// Rebuilds a track from stored samples and RR intervals (each RR interval belongs to the
    /// sample with its time). Lap and split boundaries are applied by the caller in time order.
    public static func replay(samples: [HeartRateSample], rr: [RRInterval], zones: HeartRateZones?, profile: BodyProfile) -> HeartRateTrack {
        var t = HeartRateTrack(zones: zones, profile: profile)
        var j = 0
        for s in samples {
            var mine: [UInt16] = []
            while j < rr.count, rr[j].time < s.time { j += 1 }
            while j < rr.count, rr[j].time == s.time { mine.append(rr[j].interval1024); j += 1 }
            if let bpm = s.bpm { t.add(time: s.time, bpm: bpm, rr: mine) } else { t.gap(at: s.time) }
        }
        return t
    }
}
