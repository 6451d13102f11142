/// A workout's heart rate as saved: every sample in time order (a nil `bpm` starts a gap) and
/// the RR intervals. Built live by `HeartRateTrack`; stored in the native file and journal.
public struct HeartRateSeries: Sendable, Equatable {
    public var samples: [HeartRateSample]
    public var rrIntervals: [RRInterval]

    public init(samples: [HeartRateSample] = [], rrIntervals: [RRInterval] = []) {
        self.samples = samples; self.rrIntervals = rrIntervals
    }

    public var isEmpty: Bool { samples.isEmpty }

    /// The heart rate in effect at `t`: the latest sample at or before `t`, if it is a reading
    /// (not a gap) and at most `HeartRateTrack.maximumSampleInterval` old.
    public func bpm(at t: Double) -> Int? {
        let lo = samples.endOfTimes(atOrBefore: t, time: \.time)
        guard lo > 0 else { return nil }
        let s = samples[lo - 1]
        guard let bpm = s.bpm, t - s.time <= HeartRateTrack.maximumSampleInterval else { return nil }
        return bpm
    }
}

extension Workout {
    /// The points with the heart rate of the series filled in where a fix has none (for
    /// exports: GPX TrackPointExtension `hr`, TCX `HeartRateBpm`).
    public var pointsWithHeartRate: [TrackPoint] {
        guard !heartRate.isEmpty else { return points }
        return points.map { p in
            guard p.fix.heartRate == nil, let bpm = heartRate.bpm(at: p.fix.time) else { return p }
            var q = p
            q.fix.heartRate = bpm
            return q
        }
    }
}
