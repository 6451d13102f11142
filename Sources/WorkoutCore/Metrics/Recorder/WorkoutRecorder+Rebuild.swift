extension WorkoutRecorder {
    /// Rebuilds a recorder from a saved workout's points and events: the points are ingested
    /// again in their stored order, with the user's events (pause, resume, lap, marker,
    /// recovered) interleaved by time: an event goes before the first point stamped after it.
    /// The live recorder guarantees this order (user events are never stamped before a fix
    /// already recorded, and a late fix is kept as `late`, which `reingest` reproduces), so with
    /// the same settings the result equals the live recorder's. Derived events (auto-pause, signal, segments) are recomputed.
    ///
    /// Heart-rate and sensor samples recorded beside the fixes are replayed the same way, by
    /// time, before the first point and user event stamped after them (heart rate first at the
    /// same time; each series in its own order); odometer readings (a device's distance) before
    /// the first point stamped after them or at their time.
    public static func rebuild(id: WorkoutID, activity: ActivityType, startedAt: Double, settings: MetricsSettings = MetricsSettings(),
                               points: some Sequence<TrackPoint>, events: [WorkoutEvent],
                               heartRate: HeartRateSeries = HeartRateSeries(), sensors: [SensorSample] = [],
                               odometer: OdometerSeries = OdometerSeries()) -> WorkoutRecorder {
        var r = WorkoutRecorder(id: id, activity: activity, startedAt: startedAt, settings: settings)
        let user = events.filter { [.pause, .resume, .lap, .marker, .recovered, .suspended].contains($0.kind) }
            .enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var e = 0
        var lastPause: Double?
        func apply(_ ev: WorkoutEvent, to r: inout WorkoutRecorder) {
            switch ev.kind {
            case .pause: r.pause(at: ev.time, cause: ev.cause ?? .manual); lastPause = ev.time
            case .resume: r.resume(at: ev.time)
            case .lap: r.lap(at: ev.time)
            case .marker: r.marker(at: ev.time, text: ev.text)
            case .recovered: r.recovered(at: ev.time, gapFrom: lastPause ?? ev.time)
            case .suspended: _ = r.markSuspended(at: ev.time, text: ev.text)
            case .motionPaused, .motionResumed, .segment, .signalLost, .signalRegained: break  // derived from the points
            }
        }
        var h = 0
        var rr = 0
        var k = 0
        let samples = heartRate.samples
        /// Sensor samples up to (not including) `t`, each after the user events before it.
        func replaySensors(before t: Double, to r: inout WorkoutRecorder) {
            while k < sensors.count, sensors[k].time < t {
                let s = sensors[k]
                while e < user.count, user[e].time < s.time { apply(user[e], to: &r); e += 1 }
                if let reading = s.reading { r.sensorReading(time: s.time, source: s.source, reading: reading) } else { r.sensorGap(at: s.time, source: s.source) }
                k += 1
            }
        }
        // Heart-rate samples up to (not including) `t`, each after the user events and sensor
        // samples before it.
        func replayHeartRate(before t: Double, to r: inout WorkoutRecorder) {
            while h < samples.count, samples[h].time < t {
                let s = samples[h]
                replaySensors(before: s.time, to: &r)
                while e < user.count, user[e].time < s.time { apply(user[e], to: &r); e += 1 }
                if let bpm = s.bpm {
                    while rr < heartRate.rrIntervals.count, heartRate.rrIntervals[rr].time < s.time { rr += 1 }
                    var mine: [UInt16] = []
                    while rr < heartRate.rrIntervals.count, heartRate.rrIntervals[rr].time == s.time { mine.append(heartRate.rrIntervals[rr].interval1024); rr += 1 }
                    r.heartRate(time: s.time, bpm: bpm, rr: mine)
                } else {
                    r.heartRateGap(at: s.time)
                }
                h += 1
            }
        }
        var o = 0
        let readings = odometer.readings
        if !readings.isEmpty { r.reserveCapacity(odometerReadings: readings.count, source: odometer.source) }
        /// Odometer readings up to `t` (included), each after the heart rate and user events before it.
        func replayOdometer(through t: Double, to r: inout WorkoutRecorder) {
            while o < readings.count, readings[o].time <= t {
                let x = readings[o]
                replayHeartRate(before: x.time, to: &r)
                while e < user.count, user[e].time < x.time { apply(user[e], to: &r); e += 1 }
                r.odometer(time: x.time, meters: x.meters, source: odometer.source)
                o += 1
            }
        }
        for p in points {
            // A time outlier's time is not to be believed: nothing is replayed up to it.
            let t = p.rejection == .timeOutlier ? .nan : p.fix.time
            if t.isFinite { replayOdometer(through: t, to: &r) }
            if t.isFinite { replayHeartRate(before: t, to: &r); replaySensors(before: t, to: &r) }
            while e < user.count, t.isFinite, user[e].time < t {
                apply(user[e], to: &r); e += 1
            }
            r.reingest(p)
        }
        replayOdometer(through: .infinity, to: &r)
        replayHeartRate(before: .infinity, to: &r)
        replaySensors(before: .infinity, to: &r)
        while e < user.count { apply(user[e], to: &r); e += 1 }
        return r
    }

    /// The summary of a saved or imported workout recomputed with `settings`, ended at `endedAt`
    /// (default: the later of the last point and the last event).
    public static func recompute(id: WorkoutID, activity: ActivityType, startedAt: Double, endedAt: Double? = nil,
                                 settings: MetricsSettings = MetricsSettings(), points: [TrackPoint],
                                 events: [WorkoutEvent] = [], heartRate: HeartRateSeries = HeartRateSeries(),
                                 sensors: [SensorSample] = [], odometer: OdometerSeries = OdometerSeries()) -> Workout {
        let r = rebuild(id: id, activity: activity, startedAt: startedAt, settings: settings, points: points, events: events,
                        heartRate: heartRate, sensors: sensors, odometer: odometer)
        let last = max(points.lazy.filter { $0.rejection != .timeOutlier }.map(\.fix.time).filter(\.isFinite).max() ?? startedAt, events.map(\.time).max() ?? startedAt,
                       heartRate.samples.last?.time ?? startedAt, odometer.readings.last?.time ?? startedAt, sensors.last?.time ?? startedAt)
        return r.finish(at: endedAt ?? last)
    }
}
