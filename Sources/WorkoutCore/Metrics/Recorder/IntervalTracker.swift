/// Cumulative counters of a workout at one instant, for cutting laps and splits.
struct RecorderSnapshot: Sendable, Equatable {
    var time: Double
    var elapsed: Double
    var moving: Double
    var distance: Double
    var gain: Double

    /// The counters where the distance reached `x` between `a` and `b` (linear interpolation).
    static func interpolated(_ a: RecorderSnapshot, _ b: RecorderSnapshot, atDistance x: Double) -> RecorderSnapshot {
        let span = b.distance - a.distance
        let phi = span > 0 ? min(1, max(0, (x - a.distance) / span)) : 1
        func lerp(_ u: Double, _ v: Double) -> Double { u + phi * (v - u) }
        return RecorderSnapshot(time: lerp(a.time, b.time), elapsed: lerp(a.elapsed, b.elapsed), moving: lerp(a.moving, b.moving),
                                distance: x, gain: lerp(a.gain, b.gain))
    }
}

/// Splits (every km or mile) and laps (manual, every `autoLapDistance`, and the last one at the
/// end): where the open ones began, what they have seen, and the closed ones.
struct IntervalTracker: Sendable {
    let splitUnit: Double
    /// Changed by a reload while a workout records: a lap already longer closes at the next fix.
    var autoLapDistance: Double?
    /// kcal per hour of moving time (nil without a body weight).
    let caloriesPerHour: Double?
    /// MET and the person, for heart-rate calories per lap and split (nil: MET only).
    var calorieInputs: (met: Double, profile: BodyProfile)?
    private(set) var splits: [LapSummary] = []
    private(set) var laps: [LapSummary] = []
    private var splitOpen: OpenInterval
    private var lapOpen: OpenInterval
    /// The counters at the last accepted point.
    private(set) var last: RecorderSnapshot

    /// Where a lap or split began, and what it has seen so far.
    struct OpenInterval: Sendable {
        var start: RecorderSnapshot
        var maxSpeed = 0.0
        var heartRateSum = 0
        var heartRateCount = 0
        var heartRateMax: Int?
        var power = SampleStats()
        var cadence = SampleStats()

        mutating func add(heartRate hr: Int) {
            heartRateSum += hr; heartRateCount += 1; heartRateMax = max(heartRateMax ?? hr, hr)
        }
    }

    init(startedAt: Double, splitUnit: Double, autoLapDistance: Double?, caloriesPerHour: Double?) {
        self.splitUnit = splitUnit
        self.autoLapDistance = autoLapDistance
        self.caloriesPerHour = caloriesPerHour
        let s = RecorderSnapshot(time: startedAt, elapsed: 0, moving: 0, distance: 0, gain: 0)
        splitOpen = OpenInterval(start: s)
        lapOpen = OpenInterval(start: s)
        last = s
    }

    func calories(movingSeconds: Double) -> Double? { caloriesPerHour.map { $0 * movingSeconds / 3600 } }

    /// A windowed speed measured inside the open split and lap.
    mutating func add(speed v: Double) {
        splitOpen.maxSpeed = max(splitOpen.maxSpeed, v)
        lapOpen.maxSpeed = max(lapOpen.maxSpeed, v)
    }

    /// A fix's power and cadence inside the open split and lap.
    mutating func add(power: Int?, cadence: Int?) {
        add(countedPower: SampleStats.counted(power: power), countedCadence: SampleStats.counted(cadence: cadence))
    }

    /// The same with values already checked (`SampleStats.counted`).
    @inline(__always)
    mutating func add(countedPower power: Int?, countedCadence cadence: Int?) {
        if let w = power { splitOpen.power.add(w); lapOpen.power.add(w) }
        if let c = cadence { splitOpen.cadence.add(c); lapOpen.cadence.add(c) }
    }

    /// A heart-rate sample inside the open split and lap.
    mutating func add(heartRate hr: Int) {
        splitOpen.add(heartRate: hr)
        lapOpen.add(heartRate: hr)
    }

    private func summary(of iv: OpenInterval, to end: RecorderSnapshot, index: Int, trigger: LapTrigger,
                         heartRate hr: HeartRateStats? = nil, calorieInputs: (met: Double, profile: BodyProfile)? = nil) -> LapSummary {
        let s = iv.start
        let moving = end.moving - s.moving
        var lap = LapSummary(index: index, trigger: trigger, startTime: s.time, endTime: end.time,
                             elapsedSeconds: end.elapsed - s.elapsed, movingSeconds: moving,
                             distanceMeters: end.distance - s.distance, elevationGainMeters: end.gain - s.gain,
                             maxSpeed: iv.maxSpeed, calories: calories(movingSeconds: moving) ?? 0,
                             averageHeartRate: iv.heartRateCount > 0 ? Int((Double(iv.heartRateSum) / Double(iv.heartRateCount)).rounded()) : nil,
                             maxHeartRate: iv.heartRateMax)
        lap.averagePower = iv.power.roundedAverage
        lap.maxPower = iv.power.maximum
        lap.averageCadence = iv.cadence.roundedAverage
        // Heart rate recorded beside the fixes (strap, HR lines) replaces the fixes' own.
        if let hr, let avg = hr.average {
            lap.averageHeartRate = Int(avg.rounded())
            lap.maxHeartRate = hr.maximum
        }
        if let hr { lap.heartRateZoneSeconds = hr.zoneSeconds }
        if let hr, let c = calorieInputs, let kcal = hr.calories(movingSeconds: moving, met: c.met, profile: c.profile) {
            lap.calories = kcal.kcal
        }
        return lap
    }

    /// The heart-rate figures of the lap or split closing at `time`, when heart rate was recorded
    /// beside the fixes in it (nil otherwise: the fixes' own heart rate, if any, is used).
    private static func close(_ kind: KeyPath<HeartRateTrack, HeartRateStats>, _ track: inout HeartRateTrack, at time: Double) -> HeartRateStats? {
        let stats = kind == \HeartRateTrack.lap ? track.closeLap(at: time) : track.closeSplit(at: time)
        return stats.sampleCount > 0 || stats.coveredSeconds > 0 ? stats : nil
    }

    /// The counters moved from `last` to `now` (an accepted point): closes every split and
    /// automatic lap whose distance was reached, cut at the interpolated instant.
    mutating func advance(to now: RecorderSnapshot, heartRate track: inout HeartRateTrack, into out: inout some RecorderEventSink) {
        let a = last
        last = now
        while now.distance >= Double(splits.count + 1) * splitUnit {
            let at = RecorderSnapshot.interpolated(a, now, atDistance: Double(splits.count + 1) * splitUnit)
            let hr = IntervalTracker.close(\.split, &track, at: at.time)
            let split = summary(of: splitOpen, to: at, index: splits.count, trigger: .distance, heartRate: hr, calorieInputs: calorieInputs)
            splits.append(split)
            out.append(.splitCompleted(split))
            splitOpen = OpenInterval(start: at)
        }
        if let lapDistance = autoLapDistance, lapDistance > 0 {
            while now.distance >= lapOpen.start.distance + lapDistance {
                // Not before `a`: a lap already longer than a distance set by a reload closes here, once.
                let at = RecorderSnapshot.interpolated(a, now, atDistance: max(lapOpen.start.distance + lapDistance, a.distance))
                let hr = IntervalTracker.close(\.lap, &track, at: at.time)
                let lap = summary(of: lapOpen, to: at, index: laps.count, trigger: .distance, heartRate: hr, calorieInputs: calorieInputs)
                laps.append(lap)
                out.append(.lapCompleted(lap))
                lapOpen = OpenInterval(start: at)
            }
        }
    }

    /// The same without heart rate beside the fixes (the fixes' own, if any, is used).
    mutating func advance(to now: RecorderSnapshot, into out: inout some RecorderEventSink) {
        var none = HeartRateTrack()
        advance(to: now, heartRate: &none, into: &out)
    }

    mutating func lap(at: RecorderSnapshot) -> LapSummary {
        var none = HeartRateTrack()
        return lap(at: at, heartRate: &none)
    }

    mutating func finish(at end: RecorderSnapshot) {
        var none = HeartRateTrack()
        finish(at: end, heartRate: &none)
    }

    /// Closes the open lap at `at` (a manual lap) and returns it.
    mutating func lap(at: RecorderSnapshot, heartRate track: inout HeartRateTrack) -> LapSummary {
        let hr = IntervalTracker.close(\.lap, &track, at: at.time)
        let lap = summary(of: lapOpen, to: at, index: laps.count, trigger: .manual, heartRate: hr, calorieInputs: calorieInputs)
        laps.append(lap)
        lapOpen = OpenInterval(start: at)
        return lap
    }

    /// Closes the last lap (trigger `.end`: when it has time or distance, or is the only one)
    /// and the last partial split at `end`.
    mutating func finish(at end: RecorderSnapshot, heartRate track: inout HeartRateTrack) {
        let lapHR = IntervalTracker.close(\.lap, &track, at: end.time)
        let splitHR = IntervalTracker.close(\.split, &track, at: end.time)
        if end.elapsed - lapOpen.start.elapsed > 0 || end.distance > lapOpen.start.distance || laps.isEmpty {
            laps.append(summary(of: lapOpen, to: end, index: laps.count, trigger: .end, heartRate: lapHR, calorieInputs: calorieInputs))
        }
        if end.distance > splitOpen.start.distance {
            splits.append(summary(of: splitOpen, to: end, index: splits.count, trigger: .end, heartRate: splitHR, calorieInputs: calorieInputs))
        }
    }
}
