/// Writes a workout as a FIT activity file, in the order Garmin's activity file guide gives:
/// `file_id` (type activity), `event` timer start, a `record` per point of the recorded track
/// (`TrackPoint.isOnTrack`: accepted or stationary jitter; fixes rejected for quality are not
/// written, as in GPX/TCX), `event` timer stop_all/start around each pause,
/// `lap` per lap summary (or one lap for the whole workout), `session`, `activity`.
///
/// - Times are whole seconds (FIT timestamps), rounded to the nearest.
/// - `record.distance` is the workout's measured distance up to the point (`MeasuredDistance`:
///   the `distance` function summed between consecutive accepted points of the same segment;
///   flat while standing still, nothing across a pause), so the last record matches the
///   workout's measured total when the daemon's geodesic is passed.
/// - Position in semicircles; altitude (scale 5, offset 500) and speed (mm/s) in the 16-bit
///   fields; heart rate, cadence, power, temperature when the point has them.
/// - A workout without a track (yoga, strength, treadmill: heart rate only) gets a `record`
///   per heart-rate sample instead: timestamp and heart_rate, no position (a gap is a record
///   without heart rate); the session's average and maximum are over those records. With
///   sensor readings (an indoor ride or run) a record per second instead (`indoorRecords`):
///   heart rate, power, cadence, speed and the sensor's distance.
/// - Power and cadence recorded by sensors go on the records (the value each held at the
///   record's time); the session carries the workout's average and maximum power, normalized
///   power, training stress, intensity factor, work and average cadence.
/// - `session.total_elapsed_time` is wall time start to end; `total_timer_time` the workout's
///   elapsed time (pauses excluded); laps the same from their summaries.
/// - A workout that followed a plan (`WorkoutSummary.plan`): each lap carries the plan step it
///   belongs to (`wkt_step_index`, field 71, from 0).
public enum FITWriter {
    public typealias DistanceFunction = (Fix, Fix) -> Double

    // Local message types.
    private static let lFileID: UInt8 = 0, lEvent: UInt8 = 1, lRecord: UInt8 = 2, lLap: UInt8 = 3
    private static let lSession: UInt8 = 4, lActivity: UInt8 = 5, lDeveloper: UInt8 = 6, lFieldDescription: UInt8 = 7

    /// workoutd's application ID in `developer_data_id` (a fixed random UUID).
    static let applicationID: [UInt8] = [0x6b, 0x0e, 0x3f, 0x52, 0x9c, 0x1d, 0x4e, 0x8a, 0xb3, 0x27, 0x5d, 0xe0, 0x71, 0x94, 0xc6, 0x08]
    /// Developer field numbers of the session's title and notes.
    static let titleField: UInt8 = 0, notesField: UInt8 = 1

    static func fitTime(_ t: Double) -> Int64? {
        guard t.isFinite else { return nil }
        return Int64((t - fitEpochOffset).rounded())
    }

    static func scaled(_ v: Double?, _ scale: Double, offset: Double = 0) -> Int64? {
        guard let v, v.isFinite else { return nil }
        let s = ((v + offset) * scale).rounded()
        guard s.magnitude < 9e15 else { return nil }
        return Int64(s)
    }

    public static func write(_ workout: Workout, distance: DistanceFunction = TCXWriter.greatCircleDistance) -> [UInt8] {
        typealias F = FITEncoder.FieldDefinition
        let s = workout.summary
        let points = workout.points
        let start = s.startedAt
        let end = s.endedAt ?? points.last(where: \.isOnTrack)?.fix.time ?? start
        let (sport, subSport) = workout.activity.fitSport
        var e = FITEncoder(capacity: 256 + points.count * 32)

        // file_id: type, manufacturer (255 = development), product, serial number, time_created.
        e.define(local: lFileID, global: 0, [F(0, .enumeration), F(1, .uint16), F(2, .uint16), F(3, .uint32z), F(4, .uint32)])
        let serial = Int64(workout.id.rawValue.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 } | 1)
        e.message(local: lFileID, [4, 255, 1, serial, fitTime(start)])

        // The title and notes, as developer fields of the session.
        let texts = [(titleField, "title", s.title), (notesField, "notes", s.notes)].compactMap { f, name, text in
            text.map { (field: f, name: name, text: $0) }
        }
        if !texts.isEmpty {
            e.developerDataID(local: lDeveloper, index: 0, application: applicationID, version: 1)
            for t in texts { e.describeText(local: lFieldDescription, index: 0, number: t.field, name: t.name, native: 18) }
        }

        // event: timestamp, event (0 timer), event_type (0 start, 4 stop_all), event_group.
        e.define(local: lEvent, global: 21, [F(253, .uint32), F(0, .enumeration), F(1, .enumeration), F(4, .uint8)])
        e.message(local: lEvent, [fitTime(start), 0, 0, 0])

        // record.
        e.define(local: lRecord, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(2, .uint16), F(6, .uint16),
                                               F(5, .uint32), F(3, .uint8), F(4, .uint8), F(7, .uint16), F(13, .sint8)])
        // Pauses from the timeline, written between the records they fall between.
        var pauses: [(time: Double, running: Bool)] = []
        for ev in workout.events {
            switch ev.kind {
            case .pause: pauses.append((ev.time, false))
            case .resume: pauses.append((ev.time, true))
            case .lap, .marker, .motionPaused, .motionResumed, .segment, .signalLost, .signalRegained, .recovered, .suspended: break
            }
        }
        pauses.sort { $0.time < $1.time }
        var pi = 0
        let semicircles = 2_147_483_648.0 / 180
        var measured = MeasuredDistance()
        var hrSum = 0, hrCount = 0, hrMax = 0, powerSum = 0, powerCount = 0, powerMax = 0
        if !points.contains(where: \.isOnTrack) {
            for r in workout.indoorRecords {
                while pi < pauses.count, pauses[pi].time <= r.time {
                    e.message(local: lEvent, [fitTime(pauses[pi].time), 0, pauses[pi].running ? 0 : 4, 0])
                    pi += 1
                }
                let hr = r.heartRate.flatMap { $0 > 0 && $0 < 255 ? $0 : nil }
                let cadence = r.cadence.flatMap { $0 >= 0 && $0 < 255 ? $0 : nil }
                let power = r.power.flatMap { $0 >= 0 && $0 < 65535 ? $0 : nil }
                if let hr { hrSum += hr; hrCount += 1; hrMax = max(hrMax, hr) }
                if let w = power { powerSum += w; powerCount += 1; powerMax = max(powerMax, w) }
                e.message(local: lRecord, [fitTime(r.time), nil, nil, nil, scaled(r.speed, 1000), scaled(r.distance, 100),
                                           hr.map(Int64.init), cadence.map(Int64.init), power.map(Int64.init), nil])
            }
        }
        for p in points {
            let measuredTotal = measured.add(p, distance: distance)
            // A device's or sensor's distance is the workout's: the record carries its reading.
            let total = workout.odometer.isEmpty ? measuredTotal : min(workout.odometer.meters(at: p.fix.time) ?? 0, s.distanceMeters)
            guard p.isOnTrack else { continue }
            let f = p.fix
            while pi < pauses.count, pauses[pi].time <= f.time {
                e.message(local: lEvent, [fitTime(pauses[pi].time), 0, pauses[pi].running ? 0 : 4, 0])
                pi += 1
            }
            if let hr = f.heartRate, hr > 0, hr < 255 { hrSum += hr; hrCount += 1; hrMax = max(hrMax, hr) }
            if let w = f.power, w >= 0, w < 65535 { powerSum += w; powerCount += 1; powerMax = max(powerMax, w) }
            e.message(local: lRecord, [fitTime(f.time), scaled(f.latitude, semicircles), scaled(f.longitude, semicircles),
                                       scaled(f.altitude, 5, offset: 500), scaled(f.speed, 1000), scaled(total, 100),
                                       f.heartRate.map(Int64.init), f.cadence.map(Int64.init), f.power.map(Int64.init),
                                       f.temperature.map(Int64.init)])
        }
        while pi < pauses.count {
            e.message(local: lEvent, [fitTime(pauses[pi].time), 0, pauses[pi].running ? 0 : 4, 0])
            pi += 1
        }
        e.message(local: lEvent, [fitTime(end), 0, 4, 0])

        // lap: timestamp, message_index, event (9 lap), event_type (1 stop), start_time,
        // total_elapsed_time, total_timer_time, total_distance, lap_trigger, sport, avg_heart_rate,
        // max_heart_rate, avg_cadence, avg_power, max_power; with a plan, wkt_step_index (the
        // step of the plan the lap belongs to, from 0).
        var lapFields = [F(253, .uint32), F(254, .uint16), F(0, .enumeration), F(1, .enumeration), F(2, .uint32),
                         F(7, .uint32), F(8, .uint32), F(9, .uint32), F(24, .enumeration), F(25, .enumeration),
                         F(15, .uint8), F(16, .uint8), F(17, .uint8), F(19, .uint16), F(20, .uint16)]
        var stepOfLap: [Int: Int] = [:]  // LapSummary.index -> the plan's step
        if let plan = s.plan {
            lapFields.append(F(71, .uint16))
            for step in plan.steps {
                for p in step.firstLap..<(step.firstLap + step.laps) where p >= 0 && p < s.laps.count { stepOfLap[s.laps[p].index] = step.index }
            }
        }
        e.define(local: lLap, global: 19, lapFields)
        var laps = s.laps.sorted { $0.startTime < $1.startTime }
        if laps.isEmpty {
            laps = [LapSummary(index: 0, trigger: .end, startTime: start, endTime: end, elapsedSeconds: s.timerSeconds,
                               movingSeconds: s.movingSeconds, distanceMeters: s.distanceMeters, maxSpeed: s.maxSpeed)]
        }
        for (k, lap) in laps.enumerated() {
            let trigger: Int64
            switch lap.trigger {
            case .manual: trigger = 0
            case .time: trigger = 1
            case .distance: trigger = 2
            case .end: trigger = 7  // session_end
            }
            var values: [Int64?] = [fitTime(lap.endTime), Int64(k), 9, 1, fitTime(lap.startTime),
                                    scaled(lap.endTime - lap.startTime, 1000), scaled(lap.elapsedSeconds, 1000),
                                    scaled(lap.distanceMeters, 100), trigger, Int64(sport),
                                    lap.averageHeartRate.map(Int64.init), lap.maxHeartRate.map(Int64.init),
                                    lap.averageCadence.map { Int64((Double($0) / workout.activity.cadenceFactor).rounded()) }.flatMap { $0 >= 0 && $0 < 255 ? $0 : nil },
                                    lap.averagePower.flatMap { $0 >= 0 && $0 < 65535 ? Int64($0) : nil },
                                    lap.maxPower.flatMap { $0 >= 0 && $0 < 65535 ? Int64($0) : nil }]
            if s.plan != nil { values.append(stepOfLap[lap.index].map(Int64.init)) }
            e.message(local: lLap, values)
        }

        // session: timestamp, message_index, event (8 session), event_type (1 stop), start_time,
        // sport, sub_sport, total_elapsed_time, total_timer_time, total_distance, total_calories,
        // avg_speed, max_speed, avg_heart_rate, max_heart_rate, avg_power, max_power,
        // total_ascent, total_descent, first_lap_index, num_laps, trigger (0 activity_end),
        // avg_cadence, normalized_power, training_stress_score, intensity_factor, total_work.
        e.define(local: lSession, global: 18, [F(253, .uint32), F(254, .uint16), F(0, .enumeration), F(1, .enumeration), F(2, .uint32),
                                               F(5, .enumeration), F(6, .enumeration), F(7, .uint32), F(8, .uint32), F(9, .uint32),
                                               F(11, .uint16), F(14, .uint16), F(15, .uint16), F(16, .uint8), F(17, .uint8),
                                               F(20, .uint16), F(21, .uint16), F(22, .uint16), F(23, .uint16), F(25, .uint16),
                                               F(26, .uint16), F(28, .enumeration), F(18, .uint8), F(34, .uint16), F(35, .uint16),
                                               F(36, .uint16), F(48, .uint32)],
                 developer: texts.map { FITEncoder.DeveloperText(number: $0.field, size: FITEncoder.textSize($0.text), index: 0) })
        let avgHR: Int64? = hrCount > 0 ? Int64((Double(hrSum) / Double(hrCount)).rounded()) : nil
        // Power recorded by sensors: the workout's own figures (time-weighted); else the records'.
        let sensed = !workout.sensors.isEmpty && s.maxPower != nil
        let avgPower: Int64? = sensed ? s.averagePower.flatMap { scaled($0, 1) }
            : (powerCount > 0 ? Int64((Double(powerSum) / Double(powerCount)).rounded()) : nil)
        let maxPower: Int64? = sensed ? s.maxPower.map(Int64.init) : (powerCount > 0 ? Int64(powerMax) : nil)
        e.message(local: lSession, [fitTime(end), 0, 8, 1, fitTime(start), Int64(sport), Int64(subSport),
                                    scaled(end - start, 1000), scaled(s.timerSeconds, 1000), scaled(s.distanceMeters, 100),
                                    s.calories.flatMap { scaled($0, 1) }, scaled(s.averageSpeed, 1000), scaled(s.maxSpeed, 1000),
                                    avgHR, hrCount > 0 ? Int64(hrMax) : nil, avgPower, maxPower,
                                    scaled(s.elevationGainMeters, 1), scaled(s.elevationLossMeters, 1), 0, Int64(laps.count), 0,
                                    (s.averageCadence.map { $0 / workout.activity.cadenceFactor }).flatMap { $0 < 255 ? scaled($0, 1) : nil },
                                    s.normalizedPower.flatMap { scaled($0, 1) },
                                    s.powerTrainingStress.flatMap { scaled($0, 10) }, s.intensityFactor.flatMap { scaled($0, 1000) },
                                    s.workKilojoules.flatMap { scaled($0, 1000) }], texts: texts.map(\.text))

        // activity: timestamp, total_timer_time, num_sessions, type (0 manual), event (26
        // activity), event_type (1 stop), local_timestamp (UTC: workoutd stores no zone).
        e.define(local: lActivity, global: 34, [F(253, .uint32), F(0, .uint32), F(1, .uint16), F(2, .enumeration), F(3, .enumeration),
                                                F(4, .enumeration), F(5, .uint32)])
        e.message(local: lActivity, [fitTime(end), scaled(s.timerSeconds, 1000), 1, 0, 26, 1, fitTime(end)])
        return e.file()
    }
}
