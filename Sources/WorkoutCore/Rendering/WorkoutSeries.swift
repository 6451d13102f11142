import func Glibc.cos
import func Glibc.sqrt

/// The samples a workout's charts and route are drawn from, one per point of the recorded
/// track (`TrackPoint.isOnTrack`) in time order, with what each channel says at it (NaN where
/// it says nothing). Pauses, signal losses, suspends and segment breaks split the samples into
/// `runs`: charts draw a gap between runs, and points recorded while paused are left out.
/// A workout without positions (strength with a strap) gives its heart-rate samples alone.
public struct WorkoutSeries: Sendable {
    /// Seconds since the workout's start.
    public var time: [Double] = []
    /// Metres along the track, scaled so the last sample's is the workout's distance.
    public var distance: [Double] = []
    public var latitude: [Double] = []
    public var longitude: [Double] = []
    /// Metres.
    public var elevation: [Double] = []
    /// m/s, averaged over `smoothingSeconds` around each sample.
    public var speed: [Double] = []
    public var heartRate: [Double] = []
    /// Watts and rpm, averaged like `speed`.
    public var power: [Double] = []
    public var cadence: [Double] = []
    /// Index ranges of the pieces between gaps, ascending.
    public var runs: [Range<Int>] = []
    /// Where the workout was paused (a gap starts): sample index before the pause.
    public var pauseIndices: [Int] = []
    /// Where the person paused by hand (a manual `pause` event; not the automatic stops at every
    /// traffic light, nor a device's own auto-pause): the sample index at or before it.
    public var markedPauses: [Int] = []
    /// Sample index at the end of each lap but the last.
    public var lapIndices: [Int] = []
    /// The averaging window (s) used for speed, power and cadence.
    public var smoothingSeconds: Double = 0

    public var count: Int { time.count }
    public var hasPositions: Bool { latitude.contains { !$0.isNaN } }

    /// Most runs kept: beyond it only the longest gaps stay gaps (a workout auto-paused every few
    /// seconds would otherwise spend a chart's vertex budget on run ends).
    public static let maxRuns = 200

    public init(workout w: Workout) {
        let start = w.summary.startedAt
        // The points drawn (on the track, in time order) by index: read in place, since a copy
        // of 86,400 points cost more than drawing them; copied only when out of order.
        var points = w.points
        var drawn = points.indices.filter { points[$0].isOnTrack }
        if drawn.indices.dropFirst().contains(where: { points[drawn[$0 - 1]].fix.time > points[drawn[$0]].fix.time }) {
            points = drawn.map { points[$0] }.sorted { $0.fix.time < $1.fix.time }
            drawn = Array(points.indices)
        }
        let pauses = WorkoutSeries.pauseIntervals(w.events, end: w.summary.endedAt ?? (drawn.last.map { points[$0].fix.time } ?? start))
        if !drawn.isEmpty {
            if !w.sensors.isEmpty { points = w.pointsWithSensors(points) }
            self.init(points: points, drawn: drawn, heartRate: w.heartRate, start: start, pauses: pauses, totalDistance: w.summary.distanceMeters)
        } else if !w.sensors.isEmpty {
            self.init(indoor: w.indoorRecords, start: start, pauses: pauses, totalDistance: w.summary.distanceMeters)
        } else {
            self.init(heartRateOnly: w.heartRate, start: start, pauses: pauses)
        }
        lapIndices = w.summary.laps.dropLast().compactMap { lap in index(at: lap.endTime - start) }
        markedPauses = w.events.filter(\.isManualPause).compactMap { index(at: $0.time - start) }
    }

    /// `drawn`: the indices of the points drawn, in time order.
    init(points: [TrackPoint], drawn: [Int], heartRate hrSeries: HeartRateSeries, start: Double, pauses: [ClosedRange<Double>], totalDistance: Double) {
        let n = drawn.count
        time.reserveCapacity(n); distance.reserveCapacity(n); latitude.reserveCapacity(n); longitude.reserveCapacity(n)
        elevation.reserveCapacity(n); heartRate.reserveCapacity(n)
        var rawPower = [Double](), rawCadence = [Double](), deviceSpeed = [Double]()
        rawPower.reserveCapacity(n); rawCadence.reserveCapacity(n); deviceSpeed.reserveCapacity(n)
        var breaks: [(index: Int, gap: Double)] = []
        var d = 0.0
        var prev: TrackPoint?
        var pauseCursor = 0
        var pausedBefore = false
        let intervalGap = WorkoutSeries.gapSeconds(points, drawn)
        for i in drawn {
            let p = points[i]
            let t = p.fix.time
            // Points inside a pause are left out; the next one starts a new run.
            while pauseCursor < pauses.count, pauses[pauseCursor].upperBound < t { pauseCursor += 1; pausedBefore = true }
            if pauseCursor < pauses.count, pauses[pauseCursor].contains(t) { pausedBefore = true; continue }
            let valid = p.fix.latitude.isFinite && p.fix.longitude.isFinite && abs(p.fix.latitude) <= 90 && abs(p.fix.longitude) <= 180
            if let q = prev {
                let gap = t - q.fix.time
                if pausedBefore || p.segment != q.segment || gap > intervalGap {
                    breaks.append((time.count, gap))
                } else if p.isAccepted, valid {
                    d += WorkoutSeries.flatDistance(q.fix, p.fix)
                }
            }
            pausedBefore = false
            prev = p
            time.append(t - start)
            distance.append(d)
            latitude.append(valid ? p.fix.latitude : .nan)
            longitude.append(valid ? p.fix.longitude : .nan)
            elevation.append(p.fix.altitude ?? .nan)
            heartRate.append(Double(p.fix.heartRate ?? hrSeries.bpm(at: t) ?? -1))
            rawPower.append(p.fix.power.map(Double.init) ?? .nan)
            rawCadence.append(p.fix.cadence.map(Double.init) ?? .nan)
            deviceSpeed.append(p.fix.speed ?? .nan)
        }
        for k in heartRate.indices where heartRate[k] < 0 { heartRate[k] = .nan }
        if d > 0, totalDistance > 0 {
            let scale = totalDistance / d
            for k in distance.indices { distance[k] *= scale }
        }
        setRuns(breaks: breaks)
        let span = (time.last ?? 0) - (time.first ?? 0)
        smoothingSeconds = max(10, span / 1000)
        speed = hasPositions ? smoothedRate(distance) : smoothed(deviceSpeed)
        power = smoothed(rawPower)
        cadence = smoothed(rawCadence)
    }

    init(heartRateOnly hr: HeartRateSeries, start: Double, pauses: [ClosedRange<Double>]) {
        var breaks: [(index: Int, gap: Double)] = []
        var gapNext = false
        for s in hr.samples {
            guard let bpm = s.bpm else { gapNext = true; continue }
            if pauses.contains(where: { $0.contains(s.time) }) { gapNext = true; continue }
            if gapNext, !time.isEmpty { breaks.append((time.count, s.time - start - time.last!)) }
            gapNext = false
            time.append(s.time - start)
            heartRate.append(Double(bpm))
        }
        let n = time.count
        distance = [Double](repeating: 0, count: n)
        for k in [\WorkoutSeries.latitude, \.longitude, \.elevation, \.speed, \.power, \.cadence] {
            self[keyPath: k] = [Double](repeating: .nan, count: n)
        }
        setRuns(breaks: breaks)
    }

    /// A workout without a track but with sensors (a trainer ride, a treadmill run): one sample
    /// per record (`Workout.indoorRecords`, a second apart), distance from the wheel or footpod
    /// (scaled to the workout's distance like a track's), speed from the sensor, else from that
    /// distance. A second with no record (every source dropped out) or a pause is a gap.
    init(indoor records: [IndoorRecord], start: Double, pauses: [ClosedRange<Double>], totalDistance: Double) {
        let n = records.count
        var rawSpeed = [Double](), rawPower = [Double](), rawCadence = [Double]()
        time.reserveCapacity(n); distance.reserveCapacity(n); heartRate.reserveCapacity(n)
        rawSpeed.reserveCapacity(n); rawPower.reserveCapacity(n); rawCadence.reserveCapacity(n)
        var breaks: [(index: Int, gap: Double)] = []
        var pauseCursor = 0
        var pausedBefore = false
        var d = 0.0
        for r in records {
            let t = r.time
            while pauseCursor < pauses.count, pauses[pauseCursor].upperBound < t { pauseCursor += 1; pausedBefore = true }
            if pauseCursor < pauses.count, pauses[pauseCursor].contains(t) { pausedBefore = true; continue }
            if let last = time.last, pausedBefore || t - start - last > WorkoutSeries.indoorGapSeconds {
                breaks.append((time.count, t - start - last))
            }
            pausedBefore = false
            if let m = r.distance { d = m }
            time.append(t - start)
            distance.append(d)
            heartRate.append(r.heartRate.map(Double.init) ?? .nan)
            rawSpeed.append(r.speed ?? .nan)
            rawPower.append(r.power.map(Double.init) ?? .nan)
            rawCadence.append(r.cadence.map(Double.init) ?? .nan)
        }
        if let first = distance.first, first > 0 { for k in distance.indices { distance[k] -= first } }
        if let last = distance.last, last > 0, totalDistance > 0 {
            let scale = totalDistance / last
            for k in distance.indices { distance[k] *= scale }
        }
        latitude = [Double](repeating: .nan, count: time.count)
        longitude = latitude
        elevation = latitude
        setRuns(breaks: breaks)
        let span = (time.last ?? 0) - (time.first ?? 0)
        smoothingSeconds = max(10, span / 1000)
        speed = rawSpeed.contains { !$0.isNaN } ? smoothed(rawSpeed) : smoothedRate(distance)
        power = smoothed(rawPower)
        cadence = smoothed(rawCadence)
    }

    /// Indoor records come a second apart; a longer step means every source was silent.
    static let indoorGapSeconds = 2.5

    /// Whether the samples have a distance axis (a track's, or a wheel's or footpod's).
    public var hasDistance: Bool { (distance.last ?? 0) > 0 }

    /// The last sample at or before `t` (seconds since the start), by bisection.
    func index(at t: Double) -> Int? {
        let lo = time.endOfTimes(atOrBefore: t) { $0 }
        return lo > 0 ? lo - 1 : nil
    }

    private mutating func setRuns(breaks all: [(index: Int, gap: Double)]) {
        var breaks = all
        if breaks.count > WorkoutSeries.maxRuns - 1 {
            breaks = Array(breaks.sorted { $0.gap > $1.gap }.prefix(WorkoutSeries.maxRuns - 1)).sorted { $0.index < $1.index }
        }
        pauseIndices = breaks.map { $0.index - 1 }
        var lo = 0
        runs = []
        for b in breaks where b.index > lo {
            runs.append(lo..<b.index)
            lo = b.index
        }
        if lo < time.count { runs.append(lo..<time.count) }
    }

    /// A time step longer than this is a gap: 10 times the typical step, at least 30 s.
    static func gapSeconds(_ points: [TrackPoint], _ drawn: [Int]) -> Double {
        guard drawn.count > 2 else { return 30 }
        var steps: [Double] = []
        let stride = max(1, drawn.count / 512)
        var k = stride
        while k < drawn.count {
            steps.append(points[drawn[k]].fix.time - points[drawn[k - 1]].fix.time)
            k += stride
        }
        steps.sort()
        return max(30, 10 * steps[steps.count / 2])
    }

    /// Pause intervals from the events: manual and automatic pauses, signal losses, and the
    /// moment of a suspend or a recovery (a gap with no length).
    static func pauseIntervals(_ events: [WorkoutEvent], end: Double) -> [ClosedRange<Double>] {
        var out: [ClosedRange<Double>] = []
        var since: Double?
        for e in events.sorted(by: { $0.time < $1.time }) {
            switch e.kind {
            case .pause, .motionPaused, .signalLost:
                if since == nil { since = e.time }
            case .resume, .motionResumed, .signalRegained:
                if let s = since { out.append(s...max(s, e.time)); since = nil }
            case .suspended, .recovered, .segment:
                out.append(e.time...e.time)
            case .lap, .marker:
                break
            }
        }
        if let s = since { out.append(s...max(s, end)) }
        out.sort { $0.lowerBound < $1.lowerBound }
        // Merged, so the walk in `init` meets them in order.
        var merged: [ClosedRange<Double>] = []
        for r in out {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    /// Metres between two fixes on a local flat earth: exact to a fraction of a percent over a
    /// step of a few metres, and cheap (the chart's distance axis is scaled to the workout's
    /// geodesic distance anyway).
    static func flatDistance(_ a: Fix, _ b: Fix) -> Double {
        let r = 6_371_008.8 * Double.pi / 180
        let dy = (b.latitude - a.latitude) * r
        let dx = (b.longitude - a.longitude) * r * cos((a.latitude + b.latitude) * Double.pi / 360)
        return sqrt(dx * dx + dy * dy)
    }

    /// The mean of `values` over `smoothingSeconds` centred on each sample, within its run;
    /// NaN where the window holds no value.
    func smoothed(_ values: [Double]) -> [Double] {
        var out = [Double](repeating: .nan, count: values.count)
        let half = smoothingSeconds / 2
        for run in runs {
            var lo = run.lowerBound, hi = run.lowerBound
            var sum = 0.0, n = 0
            for k in run {
                while hi < run.upperBound, time[hi] <= time[k] + half {
                    if !values[hi].isNaN { sum += values[hi]; n += 1 }
                    hi += 1
                }
                while time[lo] < time[k] - half {
                    if !values[lo].isNaN { sum -= values[lo]; n -= 1 }
                    lo += 1
                }
                if n > 0 { out[k] = sum / Double(n) }
            }
        }
        return out
    }

    /// Distance over time across `smoothingSeconds` around each sample, within its run.
    func smoothedRate(_ d: [Double]) -> [Double] {
        var out = [Double](repeating: .nan, count: d.count)
        let half = smoothingSeconds / 2
        for run in runs {
            var lo = run.lowerBound, hi = run.lowerBound
            for k in run {
                while hi + 1 < run.upperBound, time[hi + 1] <= time[k] + half { hi += 1 }
                while time[lo] < time[k] - half { lo += 1 }
                let dt = time[hi] - time[lo]
                if dt > 0 { out[k] = (d[hi] - d[lo]) / dt }
            }
        }
        return out
    }
}

extension WorkoutEvent {
    /// A pause the person made (`workoutctl pause`), as the route marks it.
    var isManualPause: Bool {
        guard kind == .pause else { return false }
        switch cause {
        case .manual?, nil: return true
        case .auto?, .signalLost?, .recovered?, .device?: return false
        }
    }
}
