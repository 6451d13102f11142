extension FITActivityFile {
    /// The timer's stopped spans: from a stop to the next start (the last stop without a start
    /// runs to the end).
    public var timerPauses: [Importer.Span] {
        var out: [Importer.Span] = []
        var stoppedAt: Double?
        for e in timerEvents.sorted(by: { $0.time < $1.time }) {
            switch e.change {
            case .started:
                if let s = stoppedAt, e.time > s { out.append(Importer.Span(start: s, end: e.time)) }
                stoppedAt = nil
            case .stopped:
                if stoppedAt == nil { stoppedAt = e.time }
            }
        }
        if let s = stoppedAt { out.append(Importer.Span(start: s, end: .infinity)) }
        return out
    }

    /// How far past a session's end (start + `total_elapsed_time`) a record still belongs to it:
    /// records hold whole seconds where the device counts milliseconds from its start.
    static let sessionEndSlack = 1.0

    /// The session (index in `ordered`, sorted by start) whose span holds a record stamped `t`:
    /// from its start to its end plus `sessionEndSlack`, and never into the next session's start
    /// (a session without `total_elapsed_time` ends at its message's timestamp, which a device
    /// may write minutes later, over the next legs); nil: outside every session.
    static func session(holding t: Double, _ ordered: [FITSpan]) -> Int? {
        for (k, s) in ordered.enumerated() where t >= s.startTime {
            let next = k + 1 < ordered.count ? ordered[k + 1].startTime : Double.infinity
            if t <= s.endTime + sessionEndSlack && t < next { return k }
        }
        return nil
    }

    /// The warning for records left out because no session holds them.
    static func outsideWarning(count: Int, first: Double) -> String {
        "\(count) record\(count == 1 ? "" : "s") outside the file's sessions (first stamped \(ISO8601.format(first))): left out"
    }

    /// The activity of a session, else of the file's first `sport` message.
    func activity(of session: FITSpan?) -> ActivityType? {
        if let s = session, let sport = s.sport { return ActivityType(fitSport: sport, subSport: s.subSport) }
        if let s = sports.first { return ActivityType(fitSport: s.sport, subSport: s.subSport) }
        return nil
    }

    /// The file as tracks to import, one per session. Records without a position give only
    /// their heart rate (`Track.heartRate`; one without heart rate is a gap) and their power,
    /// cadence and speed (`Track.sensors`): a session with heart rate and no position is an
    /// indoor workout. The records' distance is the device's
    /// odometer (`Track.odometer`), topped up to the session's `total_distance`; a pool swim's
    /// distance comes from its lengths. The session's totals go along (`Track.device`).
    ///
    /// Session rule: each record goes to the session whose span holds it (`session(holding:)`:
    /// start_time to its end and a second, short of the next session's start), and every session
    /// is a workout, a leg of the event (`Track.leg`), transitions (sport 3) included as such.
    /// A record outside every session is left out and said, except when a file's single session
    /// holds fewer than half its records; without a session every record is the one workout's.
    public func tracks() -> [Importer.Track] {
        let pauses = timerPauses
        let notes = damage.map(\.description)
        let lapList = laps.sorted { $0.startTime < $1.startTime }
        let ordered = sessions.sorted { $0.startTime < $1.startTime }
        let multisport = ordered.count > 1
        func track(_ fixes: [Fix], _ heartOnly: [HeartRateSample], _ readings: [OdometerReading], _ session: FITSpan?,
                   leg: (number: Int, of: Int)?, sensors: [SensorSample] = []) -> Importer.Track? {
            let activity = activity(of: session)
            let pool = session.flatMap { poolSwim(of: $0, activity: activity) }
            var odometer = pool.map { Self.readings(of: $0) } ?? readings
            if let s = session, let total = s.distanceMeters, total > 0, total > (odometer.last?.meters ?? 0) + 0.005,
               !odometer.isEmpty || fixes.isEmpty {
                // The session's own total closes the device's distance (its last record may
                // come a few metres short).
                odometer.append(OdometerReading(time: max(s.endTime, odometer.last?.time ?? s.startTime), meters: total))
            }
            let spans = session.map { $0.endTime > $0.startTime } ?? false
            guard !fixes.isEmpty || heartOnly.contains(where: { $0.bpm != nil }) || !odometer.isEmpty || !sensors.isEmpty
                    || (leg != nil && spans) else { return nil }
            let inside = lapList.filter { l in session.map { l.startTime >= $0.startTime - 1 && l.endTime <= $0.endTime + 1 } ?? true }
            var label: String?
            if let leg {
                let name = activity?.rawValue ?? "sport \(session?.sport.map { String($0) } ?? "unknown")"
                label = "session \(leg.number) of \(leg.of) (\(name))"
            }
            var t = Importer.Track(fixes: fixes, activity: activity, origin: .device, format: .fit,
                                   startTime: session?.startTime, endTime: session?.endTime, pauses: pauses,
                                   lapEnds: inside.dropLast().map(\.endTime), label: label,
                                   notes: fixes.isEmpty && pool == nil && odometer.isEmpty ? notes + [Importer.heartRateOnlyNote] : notes,
                                   heartRate: heartOnly)
            t.odometer = odometer
            t.sensors = sensors
            t.device = session.map { deviceTotals(of: $0, activity: activity, pool: pool) }
            t.annotation = session?.annotation ?? WorkoutAnnotation()
            t.leg = leg
            return t
        }
        // Records outside every session are left out (`session(holding:)`), except when a single
        // session holds fewer than half the records (its summary does not describe them).
        let outsideFixes = ordered.isEmpty ? [] : fixes.filter { Self.session(holding: $0.time, ordered) == nil }.map(\.time)
        let outsideHeart = ordered.isEmpty ? [] : heartRateOnly.filter { Self.session(holding: $0.time, ordered) == nil }.map(\.time)
        var outside = outsideFixes.count + outsideHeart.count
        if !multisport && outside * 2 > fixes.count + heartRateOnly.count { outside = 0 }
        func said(_ tracks: [Importer.Track]) -> [Importer.Track] {
            guard outside > 0, var first = tracks.first else { return tracks }
            first.notes.append(Self.outsideWarning(count: outside, first: (outsideFixes + outsideHeart).min() ?? 0))
            return [first] + tracks.dropFirst()
        }
        if !multisport {
            guard outside > 0, let s = ordered.first else {
                // The decoded arrays themselves (shared, not copied).
                return track(fixes, heartRateOnly, odometer, ordered.first, leg: nil, sensors: sensorsOnly).map { [$0] } ?? []
            }
            let inside = { (t: Double) in Self.session(holding: t, [s]) != nil }
            return said(track(fixes.filter { inside($0.time) }, heartRateOnly.filter { inside($0.time) }, odometer.filter { inside($0.time) }, s,
                              leg: nil, sensors: sensorsOnly.filter { inside($0.time) }).map { [$0] } ?? [])
        }
        // Each session takes the records whose time falls in it, in time order (a stable sort:
        // records of the same second keep their file order). Which session a record goes to
        // depends on its time alone, so fixes, heart-rate records and distances are split apart, alike.
        var out: [Importer.Track] = []
        let sortedFixes = fixes.sorted { $0.time < $1.time }
        let sortedHeart = heartRateOnly.sorted { $0.time < $1.time }
        let sortedOdometer = odometer.sorted { $0.time < $1.time }
        let sortedSensors = sensorsOnly.sorted { $0.time < $1.time }
        var f = 0, h = 0, o = 0, n = 0
        for (k, s) in ordered.enumerated() {
            while f < sortedFixes.count, sortedFixes[f].time < s.startTime { f += 1 }
            while h < sortedHeart.count, sortedHeart[h].time < s.startTime { h += 1 }
            while o < sortedOdometer.count, sortedOdometer[o].time < s.startTime { o += 1 }
            while n < sortedSensors.count, sortedSensors[n].time < s.startTime { n += 1 }
            let fromFix = f, fromHeart = h, fromOdometer = o, fromSensors = n
            // The session's span (`session(holding:)`): to its end and a second, short of the next start.
            let next = k + 1 < ordered.count ? ordered[k + 1].startTime : Double.infinity
            let holds = { (t: Double) in t <= s.endTime + Self.sessionEndSlack && t < next }
            while f < sortedFixes.count, holds(sortedFixes[f].time) { f += 1 }
            while h < sortedHeart.count, holds(sortedHeart[h].time) { h += 1 }
            while o < sortedOdometer.count, holds(sortedOdometer[o].time) { o += 1 }
            while n < sortedSensors.count, holds(sortedSensors[n].time) { n += 1 }
            // A leg's distance counts from the device's reading before it, when the device did not restart at 0.
            var readings = Array(sortedOdometer[fromOdometer..<o])
            if fromOdometer > 0, let first = readings.first, sortedOdometer[fromOdometer - 1].meters <= first.meters {
                let base = sortedOdometer[fromOdometer - 1].meters
                readings = readings.map { OdometerReading(time: $0.time, meters: $0.meters - base) }
            }
            if let t = track(Array(sortedFixes[fromFix..<f]), Array(sortedHeart[fromHeart..<h]), readings, s,
                             leg: (k + 1, ordered.count), sensors: Array(sortedSensors[fromSensors..<n])) { out.append(t) }
        }
        return said(out)
    }

    /// The session's totals as the device gave them.
    func deviceTotals(of s: FITSpan, activity: ActivityType?, pool: PoolSwim?) -> DeviceTotals {
        var d = DeviceTotals(calories: s.calories, workKilojoules: s.workJoules.map { $0 / 1000 }, timerSeconds: s.timerSeconds,
                             elapsedSeconds: s.elapsedSeconds, distanceMeters: s.distanceMeters,
                             strokes: (activity?.isSwim ?? false) ? s.cycles : nil, pool: pool)
        d.averageHeartRate = s.averageHeartRate
        d.averagePower = s.averagePower
        d.averageCadence = s.averageCadence
        d.ascentMeters = s.ascentMeters
        d.descentMeters = s.descentMeters
        return d
    }

    /// A pool swim's pool and lengths: a session in a pool (`lap_swimming`, or a pool length)
    /// with `length` messages inside it.
    func poolSwim(of s: FITSpan, activity: ActivityType?) -> PoolSwim? {
        guard let poolLength = s.poolLength, poolLength > 0, activity == .poolSwimming || s.subSport == 17 else { return nil }
        let inside = lengths.filter { $0.startTime >= s.startTime - 1 && $0.startTime <= s.endTime }.sorted { $0.startTime < $1.startTime }
        guard !inside.isEmpty else { return nil }
        return PoolSwim(poolLengthMeters: poolLength, unit: s.poolLengthUnit == 1 ? .yards : .meters,
                        lengths: inside.map { SwimLength(start: $0.startTime, seconds: $0.seconds, strokes: $0.strokes,
                                                         stroke: $0.stroke.flatMap(SwimStroke.init(fit:)), active: $0.active) })
    }

    /// A pool swim's distance over time: the pool's length added at the end of each active length.
    static func readings(of pool: PoolSwim) -> [OdometerReading] {
        var meters = 0.0
        var out: [OdometerReading] = []
        for l in pool.lengths where l.active {
            meters += pool.poolLengthMeters
            out.append(OdometerReading(time: l.start + l.seconds, meters: meters))
        }
        return out
    }
}
