/// What each channel (power, cadence, speed, distance) held over a workout, from its sensor
/// samples replayed through `SensorTrack` (so the same source wins a channel as live): for the
/// exports, which put the value in effect on each point or record, as heart rate is.
public struct SensorTimeline: Sendable {
    private struct Entry: Sendable {
        var time: Double
        /// nil: the channel's source stopped here (a gap).
        var value: Double?
    }
    private var power: [Entry] = []
    private var cadence: [Entry] = []
    private var speed: [Entry] = []
    /// Metres the distance channel counted up to each reading.
    private var distance: [Entry] = []

    public init(_ samples: [SensorSample]) {
        var track = SensorTrack()
        var holders: [SensorChannel: SensorSource] = [:]
        var total = 0.0
        for s in samples {
            guard let r = s.reading else {
                guard track.gap(at: s.time, source: s.source) else { continue }
                for (c, source) in holders where source == s.source {
                    holders[c] = nil
                    switch c {
                    case .power: power.append(Entry(time: s.time, value: nil))
                    case .cadence: cadence.append(Entry(time: s.time, value: nil))
                    case .speed: speed.append(Entry(time: s.time, value: nil))
                    case .distance: break
                    }
                }
                continue
            }
            guard case .recorded(let taken) = track.add(time: s.time, source: s.source, reading: r) else { continue }
            if let w = taken.power { power.append(Entry(time: s.time, value: Double(w))); holders[.power] = s.source }
            if let c = taken.cadence { cadence.append(Entry(time: s.time, value: c)); holders[.cadence] = s.source }
            if let v = taken.speed { speed.append(Entry(time: s.time, value: v)); holders[.speed] = s.source }
            if let d = taken.distance {
                total += d
                distance.append(Entry(time: s.time, value: total))
            }
        }
    }

    public var isEmpty: Bool { power.isEmpty && cadence.isEmpty && speed.isEmpty && distance.isEmpty }
    public var hasPower: Bool { !power.isEmpty }
    public var hasCadence: Bool { !cadence.isEmpty }
    public var hasDistance: Bool { !distance.isEmpty }

    /// The value `channel` held at `t`: the latest reading at or before `t` unless a gap came
    /// after it or it is older than `SensorTrack.maximumSampleInterval`; for `distance`, the
    /// metres counted up to `t` (nil before the first reading).
    public func value(_ channel: SensorChannel, at t: Double) -> Double? {
        let entries: [Entry]
        switch channel {
        case .power: entries = power
        case .cadence: entries = cadence
        case .speed: entries = speed
        case .distance: entries = distance
        }
        let lo = entries.endOfTimes(atOrBefore: t, time: \.time)
        guard lo > 0 else { return nil }
        let e = entries[lo - 1]
        if channel == .distance { return e.value }
        guard let v = e.value, t - e.time <= SensorTrack.maximumSampleInterval else { return nil }
        return v
    }

    /// Times of the first and last reading (nil without readings).
    public var span: (first: Double, last: Double)? {
        let times = [power, cadence, speed, distance].compactMap { $0.first?.time }
        let ends = [power, cadence, speed, distance].compactMap { $0.last?.time }
        guard let a = times.min(), let b = ends.max() else { return nil }
        return (a, b)
    }
}

/// One record of a workout without a track (an indoor ride or run, yoga): what the exports
/// write as a FIT record or a TCX trackpoint without a position.
public struct IndoorRecord: Sendable, Equatable {
    public var time: Double
    public var heartRate: Int?
    public var power: Int?
    public var cadence: Int?
    /// m/s.
    public var speed: Double?
    /// Metres since the start (the sensor's distance).
    public var distance: Double?

    public init(time: Double, heartRate: Int? = nil, power: Int? = nil, cadence: Int? = nil, speed: Double? = nil, distance: Double? = nil) {
        self.time = time; self.heartRate = heartRate; self.power = power; self.cadence = cadence; self.speed = speed; self.distance = distance
    }
}

extension Workout {
    /// The points with the power and cadence the sensors held at each point's time filled in
    /// where a fix has none (for exports).
    public func pointsWithSensors(_ points: [TrackPoint]) -> [TrackPoint] {
        guard !sensors.isEmpty else { return points }
        let timeline = SensorTimeline(sensors)
        return points.map { p in
            var q = p
            if q.fix.power == nil { q.fix.power = timeline.value(.power, at: p.fix.time).map { Int($0.rounded()) } }
            if q.fix.cadence == nil { q.fix.cadence = timeline.value(.cadence, at: p.fix.time).map { Int($0.rounded()) } }
            return q
        }
    }

    /// The records of a workout without a track: one per heart-rate sample (a nil heart rate
    /// for its gaps) when no sensor was read; with sensors, one per whole second from the first
    /// reading to the second after the last (not after the workout's end), holding what every
    /// channel and the heart rate held then (seconds where nothing held, a pause or a dropout
    /// of everything, have none).
    public var indoorRecords: [IndoorRecord] {
        let timeline = SensorTimeline(sensors)
        guard let span = timeline.span else {
            return heartRate.samples.map { IndoorRecord(time: $0.time, heartRate: $0.bpm) }
        }
        var first = span.first, last = span.last
        if let h = heartRate.samples.first(where: { $0.bpm != nil })?.time { first = min(first, h) }
        if let h = heartRate.samples.last?.time { last = max(last, h) }
        first.round(.up)
        last.round(.up)
        if let end = summary.endedAt, end.isFinite { last = min(last, end.rounded(.down)) }
        var out: [IndoorRecord] = []
        guard last >= first, last - first < 1e7 else { return out }
        out.reserveCapacity(Int(last - first) + 1)
        var t = first
        while t <= last {
            let r = IndoorRecord(time: t, heartRate: heartRate.bpm(at: t), power: timeline.value(.power, at: t).map { Int($0.rounded()) },
                                 cadence: timeline.value(.cadence, at: t).map { Int($0.rounded()) },
                                 speed: timeline.value(.speed, at: t), distance: timeline.value(.distance, at: t))
            // A record with a value, or the distance counted since the last one (the readings'
            // end, after the sensors stopped: the record that carries the whole distance).
            if r.heartRate != nil || r.power != nil || r.cadence != nil || r.speed != nil
                || (r.distance != nil && r.distance != out.last?.distance) { out.append(r) }
            t += 1
        }
        // The readings after the last whole second before the end: a record at the end (or just
        // after the last reading) that carries the whole distance.
        if let end = summary.endedAt, end.isFinite, let previous = out.last {
            let at = min(span.last.rounded(.up), end)
            if at > previous.time, let d = timeline.value(.distance, at: at), d != previous.distance {
                out.append(IndoorRecord(time: at, heartRate: heartRate.bpm(at: at), power: timeline.value(.power, at: at).map { Int($0.rounded()) },
                                        cadence: timeline.value(.cadence, at: at).map { Int($0.rounded()) },
                                        speed: timeline.value(.speed, at: at), distance: d))
            }
        }
        return out
    }
}
