/// The workout exactly as its saved file reads back, without writing or reading the text:
/// `savedForm(w)` equals `WorkoutFile.decode(WorkoutFile.encode(w))`, double for double (bit
/// patterns, the sign of zero included). The daemon keeps the workout it saved last in memory
/// (`HistoryStore`'s recent workout) and answers an export or `show` right after an import
/// from it, so the 24-hour log's file is not decoded again (~300M instructions); what it
/// answers must be what a daemon started afresh would read from the file.
///
/// Points follow `writePoint`'s rules arithmetically: a value written with `d` decimals is
/// `n / 10^d` with `n = round(|v|·10^d)` (ties away from zero), which the reader parses to
/// the nearest double, the correctly rounded `Double(n) / 10^d`; zero is `+0`; a value too
/// large for that is written in full (`String(v)`) and reads back unchanged; a non-finite
/// value is `0` (time, position) or absent (the optional fields); integers and enums are kept.
/// The summary, events and source (small) go through the file's own encoder and decoder.
/// `WorkoutFileSavedFormTests` checks the equality on every shared track and random values.
extension WorkoutFile {
    public static func savedForm(_ w: Workout) -> Workout {
        let head = Workout(summary: w.summary, points: [], events: w.events, source: w.source, device: w.device)
        guard let read = try? decode(encode(head)) else { return (try? decode(encode(w))) ?? w }
        var points = w.points
        points.withUnsafeMutableBufferPointer { buf in
            for i in buf.indices { savedPoint(&buf[i]) }
        }
        var heartRate = HeartRateSeries()
        if !w.heartRate.isEmpty {
            heartRate.samples = w.heartRate.samples.map { HeartRateSample(time: savedValue($0.time, 3), bpm: $0.bpm) }
            heartRate.rrIntervals = w.heartRate.rrIntervals.map { RRInterval(time: savedValue($0.time, 3), interval1024: $0.interval1024) }
        }
        let sensors = w.sensors.filter { $0.time.isFinite }.compactMap { s -> SensorSample? in
            guard let r = s.reading else { return SensorSample(time: savedValue(s.time, 3), source: s.source, reading: nil) }
            let q = SensorReading(power: r.power, cadence: saved(r.cadence, 2), speed: saved(r.speed, 3), distance: saved(r.distance, 3))
            return q.isEmpty ? nil : SensorSample(time: savedValue(s.time, 3), source: s.source, reading: q)
        }
        var odometer = w.odometer
        odometer.readings = odometer.readings.map { OdometerReading(time: savedValue($0.time, 3), meters: savedValue($0.meters, 3)) }
        return Workout(summary: read.summary, points: points, events: read.events, source: read.source, heartRate: heartRate,
                       sensors: sensors, odometer: odometer, device: read.device)
    }

    @inline(__always) static func savedPoint(_ p: inout TrackPoint) {
        p.fix.time = savedValue(p.fix.time, 3)
        p.fix.latitude = savedValue(p.fix.latitude, 9)
        p.fix.longitude = savedValue(p.fix.longitude, 9)
        p.fix.altitude = saved(p.fix.altitude, 3)
        p.fix.speed = saved(p.fix.speed, 3)
        p.fix.course = saved(p.fix.course, 2)
        p.fix.horizontalAccuracy = saved(p.fix.horizontalAccuracy, 2)
        p.fix.hdop = saved(p.fix.hdop, 2)
    }

    /// An optional value as `opt` writes it and the reader reads it (null: absent).
    @inline(__always) static func saved(_ v: Double?, _ decimals: Int) -> Double? {
        guard let v, v.isFinite else { return nil }
        return savedValue(v, decimals)
    }

    /// A value as `appendFixed(v, decimals:)` writes it and the reader reads it.
    @inline(__always) static func savedValue(_ v: Double, _ decimals: Int) -> Double {
        guard v.isFinite else { return 0 }
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(v) * scale).rounded(.toNearestOrAwayFromZero)
        if scaled >= 9.0e18 { return v }
        if scaled == 0 { return 0 }
        let m = scaled / scale
        return v < 0 ? -m : m
    }
}
