/// The summary as JSON: the contract's keys (`id`, `activity`, `startedAt`, `endedAt`,
/// `elapsedSeconds`, `movingSeconds`, `distanceMeters`, `elevationGainMeters`, `pointCount`)
/// and more. Used by `status`, `stop`, `list`, `show` and the saved file.
extension WorkoutSummary {
    public func json() -> JSON {
        JSONTree.build { t in encode(to: &t, recent: nil) { t, list in t.array(list.items) { t, l in l.encode(to: &t) } } }
    }

    /// `json().serialized()` written straight to bytes, the same text (one schema: `encode`).
    /// Splits and laps already encoded in `cache` are copied rather than encoded again; this is
    /// what makes `status` of a 24-hour workout cheap. With `recent`, only the last `recent`
    /// splits and laps are written, followed by `splitCount` and `lapCount` (what `status`
    /// carries: 3,000 laps must not make every status line hundreds of KB; `show` has them all).
    public func writeJSON(to w: inout JSONWriter, cache: inout SummaryJSONCache, recent: Int? = nil) {
        encode(to: &w, recent: recent) { w, list in
            switch list {
            case .splits(let l): cache.splits.write(l, to: &w)
            case .laps(let l): cache.laps.write(l, to: &w)
            }
        }
    }

    /// Which of the summary's lap lists `encode` hands to its `lists` writer.
    enum LapList {
        case splits([LapSummary])
        case laps([LapSummary])

        var items: [LapSummary] {
            switch self {
            case .splits(let l), .laps(let l): l
            }
        }
    }

    /// The summary's one schema: the contract's keys (`id`, `activity`, `startedAt`, `endedAt`,
    /// `elapsedSeconds`, `movingSeconds`, `distanceMeters`, `elevationGainMeters`, `pointCount`)
    /// and more, in this order, for the tree (`json()`) and the bytes (`writeJSON`). Used by
    /// `status`, `stop`, `list`, `show` and the saved file. `lists` writes the splits and laps
    /// (the byte writer from its cache).
    func encode<S: JSONSink>(to s: inout S, recent: Int?, lists: (inout S, LapList) -> Void) {
        s.beginObject()
        s.key("id"); s.string(id.rawValue)
        s.key("activity"); s.string(activity.rawValue)
        s.key("startedAt"); s.time(startedAt, fractionDigits: 3)
        s.key("endedAt")
        if let endedAt { s.time(endedAt, fractionDigits: 3) } else { s.null() }
        s.key("title"); s.string(title)
        s.key("notes"); s.string(notes)
        s.key("gear"); s.string(gear)
        s.key("effort"); s.int(effort)
        s.key("records"); s.string(records.rawValue)
        s.key("elapsedSeconds"); s.number(rounded(elapsedSeconds, 3))
        s.key("timerSeconds"); s.number(rounded(timerSeconds, 3))
        s.key("movingSeconds"); s.number(rounded(movingSeconds, 3))
        s.key("distanceMeters"); s.number(rounded(distanceMeters, 3))
        s.key("distanceSource"); s.string(distanceSource.rawValue)
        s.key("gpsDistanceMeters"); s.number(gpsDistanceMeters.map { rounded($0, 3) })
        s.key("multisport"); s.string(multisport?.event.rawValue)
        if let m = multisport {
            s.key("multisportLeg"); s.int(m.leg)
            s.key("multisportLegs"); s.int(m.legs)
        }
        s.key("swim")
        if let swim { swim.encode(to: &s) } else { s.null() }
        s.key("elevationGainMeters"); s.number(rounded(elevationGainMeters, 2))
        s.key("elevationLossMeters"); s.number(rounded(elevationLossMeters, 2))
        s.key("elevationSource"); s.string("gps")
        if let g = deviceElevationGainMeters { s.key("deviceElevationGainMeters"); s.number(rounded(g, 2)) }
        if let l = deviceElevationLossMeters { s.key("deviceElevationLossMeters"); s.number(rounded(l, 2)) }
        s.key("pointCount"); s.int(pointCount)
        s.key("acceptedCount"); s.int(acceptedCount)
        s.key("rejected")
        s.beginObject()
        for r in RejectionReason.allCases {
            guard let n = rejectedByReason[r], n > 0 else { continue }
            s.key(named: r.rawValue); s.int(n)
        }
        s.endObject()
        s.key("averageSpeed"); s.number(rounded(averageSpeed, 4))
        s.key("movingAverageSpeed"); s.number(rounded(movingAverageSpeed, 4))
        s.key("currentSpeed"); s.number(currentSpeed.map { rounded($0, 4) })
        s.key("maxSpeed"); s.number(rounded(maxSpeed, 4))
        s.key("calories"); s.number(calories.map { rounded($0, 1) })
        s.key("caloriesMethod"); s.string(caloriesMethod?.rawValue)
        s.key("averageHeartRate"); s.number(averageHeartRate.map { rounded($0, 1) })
        s.key("maxHeartRate"); s.int(maxHeartRate)
        s.key("heartRate"); s.int(heartRate)
        s.key("heartRateZone"); s.int(heartRateZone)
        s.key("heartRateZoneBounds"); s.ints(heartRateZoneBounds)
        s.key("heartRateZoneSeconds"); s.numbers(heartRateZoneSeconds, decimals: 3)
        s.key("heartRateRejected")
        s.beginObject()
        s.key("bpm"); s.int(heartRateRejected.bpm)
        s.key("rr"); s.int(heartRateRejected.rr)
        s.endObject()
        s.key("averagePower"); s.number(averagePower.map { rounded($0, 1) })
        s.key("maxPower"); s.int(maxPower)
        s.key("averageCadence"); s.number(averageCadence.map { rounded($0, 1) })
        s.key("normalizedPower"); s.number(normalizedPower.map { rounded($0, 1) })
        s.key("intensityFactor"); s.number(intensityFactor.map { rounded($0, 3) })
        s.key("trainingStress"); s.number(trainingStress.map { rounded($0, 1) })
        s.key("trainingStressMethod"); s.string(trainingStressMethod?.rawValue)
        s.key("workKilojoules"); s.number(workKilojoules.map { rounded($0, 1) })
        s.key("powerZoneBounds"); s.ints(powerZoneBounds)
        s.key("powerZoneSeconds"); s.numbers(powerZoneSeconds, decimals: 3)
        s.key("powerCurve")
        s.array(powerCurve) { s, p in
            s.beginObject()
            s.key("seconds"); s.int(p.seconds)
            s.key("watts"); s.number(rounded(p.watts, 1))
            s.key("startTime"); s.time(p.startTime, fractionDigits: 3)
            s.endObject()
        }
        s.key("power"); s.int(power)
        s.key("cadence"); s.int(cadence)
        s.key("signalLostSeconds"); s.number(rounded(signalLostSeconds, 3))
        if !warnings.isEmpty { s.key("warnings"); s.array(warnings) { s, t in s.string(t) } }
        s.key("implausible"); s.array(implausible) { s, x in x.encode(to: &s) }
        s.key("splitUnit"); s.string(splitUnit.rawValue)
        if let recent {
            s.key("splits"); lists(&s, .splits(Array(splits.suffix(recent))))
            s.key("splitCount"); s.int(splits.count)
            s.key("laps"); lists(&s, .laps(Array(laps.suffix(recent))))
            s.key("lapCount"); s.int(laps.count)
        } else {
            s.key("splits"); lists(&s, .splits(splits))
            s.key("laps"); lists(&s, .laps(laps))
        }
        s.key("bestEfforts")
        s.array(bestEfforts) { s, e in
            s.beginObject()
            s.key("distanceMeters"); s.number(e.distanceMeters)
            s.key("seconds"); s.number(rounded(e.seconds, 3))
            s.key("startTime"); s.time(e.startTime, fractionDigits: 3)
            s.endObject()
        }
        if let plan {
            s.key("plan"); s.value(plan.json())
            s.key("compliance"); s.number(plan.compliance)  // the plan's, where the interface names it too
        }
        s.endObject()
    }

    /// Reads a summary written by `json()`; nil names nothing, so callers say which file failed.
    public init?(json: JSON) {
        guard let o = json.objectValue else { return nil }
        var j = JSONObject.Reader(o)
        self.init(members: &j)
    }

    /// Reads the members `json()` writes, asked for in its order: from a parsed object each
    /// lookup then finds its member at once (`JSONObject.Reader`), and from the text
    /// (`JSONTextMembers`, the index at start-up) every member is read without a tree.
    init?<Members: JSONMemberReader>(members j: inout Members) {
        guard let idText = j["id"]?.stringValue, let id = WorkoutID(rawValue: idText),
              let a = j["activity"]?.stringValue, let activity = ActivityType(rawValue: a),
              let s = j["startedAt"]?.stringValue, let started = ISO8601.parse(s) else { return nil }
        self.init(id: id, activity: activity, startedAt: started)
        endedAt = j["endedAt"]?.stringValue.flatMap { ISO8601.parse($0) }
        title = j["title"]?.stringValue
        notes = j["notes"]?.stringValue
        gear = j["gear"]?.stringValue
        effort = j["effort"]?.intValue.flatMap { WorkoutAnnotation.effortRange.contains($0) ? $0 : nil }
        records = j["records"]?.stringValue.flatMap(RecordsInclusion.init(rawValue:)) ?? .counted
        elapsedSeconds = j["elapsedSeconds"]?.doubleValue ?? 0
        if let timer = j["timerSeconds"]?.doubleValue {
            timerSeconds = timer
        } else {
            // Saved before the timer had its own key: that elapsed time was the timer's, and
            // the wall span is start to end.
            timerSeconds = elapsedSeconds
            if let endedAt { elapsedSeconds = max(elapsedSeconds, endedAt - startedAt) }
        }
        movingSeconds = j["movingSeconds"]?.doubleValue ?? 0
        distanceMeters = j["distanceMeters"]?.doubleValue ?? 0
        distanceSource = j["distanceSource"]?.stringValue.flatMap(DistanceSource.init(rawValue:)) ?? .gps
        gpsDistanceMeters = j["gpsDistanceMeters"]?.doubleValue
        if let e = j["multisport"]?.stringValue.flatMap(WorkoutID.init(rawValue:)), let leg = j["multisportLeg"]?.intValue,
           let legs = j["multisportLegs"]?.intValue, leg >= 1, leg <= legs {
            multisport = MultisportLeg(event: e, leg: leg, legs: legs)
        }
        if let o = j["swim"], o.objectValue != nil { swim = SwimSummary(json: o) }
        elevationGainMeters = j["elevationGainMeters"]?.doubleValue ?? 0
        elevationLossMeters = j["elevationLossMeters"]?.doubleValue ?? 0
        _ = j["elevationSource"]  // always "gps"; asked for so that a reader of the text reads past it
        deviceElevationGainMeters = j["deviceElevationGainMeters"]?.doubleValue
        deviceElevationLossMeters = j["deviceElevationLossMeters"]?.doubleValue
        pointCount = j["pointCount"]?.intValue ?? 0
        acceptedCount = j["acceptedCount"]?.intValue ?? 0
        if let r = j["rejected"]?.objectValue {
            for p in r.pairs { if let reason = RejectionReason(rawValue: p.key), let n = p.value.intValue { rejectedByReason[reason] = n } }
        }
        averageSpeed = j["averageSpeed"]?.doubleValue ?? 0
        movingAverageSpeed = j["movingAverageSpeed"]?.doubleValue ?? 0
        currentSpeed = j["currentSpeed"]?.doubleValue
        maxSpeed = j["maxSpeed"]?.doubleValue ?? 0
        calories = j["calories"]?.doubleValue
        caloriesMethod = j["caloriesMethod"]?.stringValue.flatMap(CalorieMethod.init(rawValue:))
        averageHeartRate = j["averageHeartRate"]?.doubleValue
        maxHeartRate = j["maxHeartRate"]?.intValue
        heartRate = j["heartRate"]?.intValue
        heartRateZone = j["heartRateZone"]?.intValue
        heartRateZoneBounds = (j["heartRateZoneBounds"]?.arrayValue ?? []).compactMap(\.intValue)
        heartRateZoneSeconds = (j["heartRateZoneSeconds"]?.arrayValue ?? []).compactMap(\.doubleValue)
        if let r = j["heartRateRejected"] {
            heartRateRejected = HeartRateRejections(bpm: r["bpm"]?.intValue ?? 0, rr: r["rr"]?.intValue ?? 0)
        }
        averagePower = j["averagePower"]?.doubleValue
        maxPower = j["maxPower"]?.intValue
        averageCadence = j["averageCadence"]?.doubleValue
        normalizedPower = j["normalizedPower"]?.doubleValue
        intensityFactor = j["intensityFactor"]?.doubleValue
        trainingStress = j["trainingStress"]?.doubleValue
        // Files saved before `trainingStressMethod` had power's TSS only.
        trainingStressMethod = j["trainingStressMethod"]?.stringValue.flatMap(TrainingStressMethod.init(rawValue:))
            ?? (trainingStress == nil ? nil : .power)
        workKilojoules = j["workKilojoules"]?.doubleValue
        powerZoneBounds = (j["powerZoneBounds"]?.arrayValue ?? []).compactMap(\.intValue)
        powerZoneSeconds = (j["powerZoneSeconds"]?.arrayValue ?? []).compactMap(\.doubleValue)
        powerCurve = (j["powerCurve"]?.arrayValue ?? []).compactMap { p in
            guard let k = p["seconds"]?.intValue, let w = p["watts"]?.doubleValue,
                  let t = p["startTime"]?.stringValue.flatMap({ ISO8601.parse($0) }) else { return nil }
            return PowerCurvePoint(seconds: k, watts: w, startTime: t)
        }
        power = j["power"]?.intValue
        cadence = j["cadence"]?.intValue
        signalLostSeconds = j["signalLostSeconds"]?.doubleValue ?? 0
        warnings = (j["warnings"]?.arrayValue ?? []).compactMap(\.stringValue)
        implausible = (j["implausible"]?.arrayValue ?? []).compactMap(ImplausibleStretch.init(json:))
        let unit = j["splitUnit"]?.stringValue.flatMap(SplitUnit.init(rawValue:))
        splits = (j["splits"]?.arrayValue ?? []).compactMap(LapSummary.init(json:))
        // Files saved before `splitUnit`: the first full split's length says which.
        splitUnit = unit
            ?? (splits.first.map { abs($0.distanceMeters - SplitUnit.mile.meters) < 1 && $0.trigger == .distance } == true ? .mile : .kilometer)
        laps = (j["laps"]?.arrayValue ?? []).compactMap(LapSummary.init(json:))
        bestEfforts = (j["bestEfforts"]?.arrayValue ?? []).compactMap { e in
            guard let d = e["distanceMeters"]?.doubleValue, let s = e["seconds"]?.doubleValue,
                  let t = e["startTime"]?.stringValue.flatMap({ ISO8601.parse($0) }) else { return nil }
            return BestEffort(distanceMeters: d, seconds: s, startTime: t)
        }
        plan = j["plan"].flatMap(PlanOutcome.init(json:))
    }
}

extension LapSummary {
    public func json() -> JSON { JSONTree.build { encode(to: &$0) } }

    /// `json().serialized()` written straight to bytes, the same text.
    public func writeJSON(to w: inout JSONWriter) { encode(to: &w) }

    /// The lap's one schema, for the tree and the bytes.
    func encode<S: JSONSink>(to s: inout S) {
        s.beginObject()
        s.key("index"); s.int(index)
        s.key("trigger"); s.string(trigger.rawValue)
        s.key("startTime"); s.time(startTime, fractionDigits: 3)
        s.key("endTime"); s.time(endTime, fractionDigits: 3)
        s.key("elapsedSeconds"); s.number(rounded(elapsedSeconds, 3))
        s.key("movingSeconds"); s.number(rounded(movingSeconds, 3))
        s.key("distanceMeters"); s.number(rounded(distanceMeters, 3))
        s.key("elevationGainMeters"); s.number(rounded(elevationGainMeters, 2))
        s.key("maxSpeed"); s.number(rounded(maxSpeed, 4))
        s.key("calories"); s.number(rounded(calories, 1))
        s.key("averageHeartRate"); s.int(averageHeartRate)
        s.key("maxHeartRate"); s.int(maxHeartRate)
        s.key("heartRateZoneSeconds"); s.numbers(heartRateZoneSeconds, decimals: 3)
        s.key("averagePower"); s.int(averagePower)
        s.key("maxPower"); s.int(maxPower)
        s.key("averageCadence"); s.int(averageCadence)
        if implausibleMeters > 0 || implausibleSeconds > 0 {
            // Written only where an implausible stretch lies inside (most laps have none).
            s.key("implausibleMeters"); s.number(rounded(implausibleMeters, 3))
            s.key("implausibleSeconds"); s.number(rounded(implausibleSeconds, 3))
        }
        s.endObject()
    }

    public init?(json: JSON) {
        guard let o = json.objectValue else { return nil }
        var j = JSONObject.Reader(o)  // in the writer's order
        guard let index = j["index"]?.intValue, let trig = j["trigger"]?.stringValue, let trigger = LapTrigger(rawValue: trig),
              let st = j["startTime"]?.stringValue.flatMap({ ISO8601.parse($0) }),
              let et = j["endTime"]?.stringValue.flatMap({ ISO8601.parse($0) }) else { return nil }
        self.init(index: index, trigger: trigger, startTime: st, endTime: et,
                  elapsedSeconds: j["elapsedSeconds"]?.doubleValue ?? 0, movingSeconds: j["movingSeconds"]?.doubleValue ?? 0,
                  distanceMeters: j["distanceMeters"]?.doubleValue ?? 0, elevationGainMeters: j["elevationGainMeters"]?.doubleValue ?? 0,
                  maxSpeed: j["maxSpeed"]?.doubleValue ?? 0, calories: j["calories"]?.doubleValue ?? 0,
                  averageHeartRate: j["averageHeartRate"]?.intValue, maxHeartRate: j["maxHeartRate"]?.intValue)
        heartRateZoneSeconds = (j["heartRateZoneSeconds"]?.arrayValue ?? []).compactMap(\.doubleValue)
        averagePower = j["averagePower"]?.intValue
        maxPower = j["maxPower"]?.intValue
        averageCadence = j["averageCadence"]?.intValue
        implausibleMeters = j["implausibleMeters"]?.doubleValue ?? 0
        implausibleSeconds = j["implausibleSeconds"]?.doubleValue ?? 0
    }
}

/// Rounds to `decimals` places so files and replies do not carry float noise.
func rounded(_ v: Double, _ decimals: Int) -> Double {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    return (v * scale).rounded() / scale
}

extension SwimSummary {
    /// `{"poolLengthMeters","poolUnit","lengths","activeLengths","strokes","averageSwolf",
    /// "pacePer100Seconds","paceUnit","stroke"}` (null where unknown).
    public func json() -> JSON { JSONTree.build { encode(to: &$0) } }

    func encode<S: JSONSink>(to s: inout S) {
        s.beginObject()
        s.key("poolLengthMeters"); s.number(poolLengthMeters.map { rounded($0, 3) })
        s.key("poolUnit"); s.string(poolUnit?.rawValue)
        s.key("lengths"); s.int(lengths)
        s.key("activeLengths"); s.int(activeLengths)
        s.key("strokes"); s.int(strokes)
        s.key("averageSwolf"); s.number(averageSwolf.map { rounded($0, 1) })
        s.key("pacePer100Seconds"); s.number(pacePer100.map { rounded($0, 1) })
        s.key("paceUnit"); s.string(paceUnit.rawValue)
        s.key("stroke"); s.string(mainStroke?.rawValue)
        s.endObject()
    }

    public init(json j: JSON) {
        self.init(poolLengthMeters: j["poolLengthMeters"]?.doubleValue, poolUnit: j["poolUnit"]?.stringValue.flatMap(PoolUnit.init(rawValue:)),
                  lengths: j["lengths"]?.intValue, activeLengths: j["activeLengths"]?.intValue, strokes: j["strokes"]?.intValue,
                  averageSwolf: j["averageSwolf"]?.doubleValue, pacePer100: j["pacePer100Seconds"]?.doubleValue,
                  paceUnit: j["paceUnit"]?.stringValue.flatMap(PoolUnit.init(rawValue:)) ?? .meters,
                  mainStroke: j["stroke"]?.stringValue.flatMap(SwimStroke.init(rawValue:)))
    }
}
