/// The summary as JSON: the contract's keys (`id`, `activity`, `startedAt`, `endedAt`,
/// `elapsedSeconds`, `movingSeconds`, `distanceMeters`, `elevationGainMeters`, `pointCount`)
/// and more. Used by `status`, `stop`, `list`, `show` and the saved file.
extension WorkoutSummary {
    public func json() -> JSON {
        var o = JSONObject()
        o["id"] = .string(id.rawValue)
        o["activity"] = .string(activity.rawValue)
        o["startedAt"] = .string(ISO8601.format(startedAt, fractionDigits: 3))
        o["endedAt"] = .string(endedAt.map { ISO8601.format($0, fractionDigits: 3) })
        o["title"] = .string(title)
        o["notes"] = .string(notes)
        o["gear"] = .string(gear)
        o["effort"] = .int(effort)
        o["records"] = .string(records.rawValue)
        o["elapsedSeconds"] = .number(rounded(elapsedSeconds, 3))
        o["timerSeconds"] = .number(rounded(timerSeconds, 3))
        o["movingSeconds"] = .number(rounded(movingSeconds, 3))
        o["distanceMeters"] = .number(rounded(distanceMeters, 3))
        o["distanceSource"] = .string(distanceSource.rawValue)
        o["gpsDistanceMeters"] = .number(gpsDistanceMeters.map { rounded($0, 3) })
        o["multisport"] = .string(multisport?.event.rawValue)
        if let m = multisport { o["multisportLeg"] = .int(m.leg); o["multisportLegs"] = .int(m.legs) }
        o["swim"] = swim.map { $0.json() } ?? .null
        o["elevationGainMeters"] = .number(rounded(elevationGainMeters, 2))
        o["elevationLossMeters"] = .number(rounded(elevationLossMeters, 2))
        o["elevationSource"] = "gps"
        if let g = deviceElevationGainMeters { o["deviceElevationGainMeters"] = .number(rounded(g, 2)) }
        if let l = deviceElevationLossMeters { o["deviceElevationLossMeters"] = .number(rounded(l, 2)) }
        o["pointCount"] = .int(pointCount)
        o["acceptedCount"] = .int(acceptedCount)
        var rejected = JSONObject()
        for r in RejectionReason.allCases { if let n = rejectedByReason[r], n > 0 { rejected[r.rawValue] = .int(n) } }
        o["rejected"] = .object(rejected)
        o["averageSpeed"] = .number(rounded(averageSpeed, 4))
        o["movingAverageSpeed"] = .number(rounded(movingAverageSpeed, 4))
        o["currentSpeed"] = .number(currentSpeed.map { rounded($0, 4) })
        o["maxSpeed"] = .number(rounded(maxSpeed, 4))
        o["calories"] = .number(calories.map { rounded($0, 1) })
        o["caloriesMethod"] = .string(caloriesMethod?.rawValue)
        o["averageHeartRate"] = .number(averageHeartRate.map { rounded($0, 1) })
        o["maxHeartRate"] = .int(maxHeartRate)
        o["heartRate"] = .int(heartRate)
        o["heartRateZone"] = .int(heartRateZone)
        o["heartRateZoneBounds"] = .array(heartRateZoneBounds.map { .int($0) })
        o["heartRateZoneSeconds"] = .array(heartRateZoneSeconds.map { .number(rounded($0, 3)) })
        o["heartRateRejected"] = ["bpm": .int(heartRateRejected.bpm), "rr": .int(heartRateRejected.rr)]
        o["averagePower"] = .number(averagePower.map { rounded($0, 1) })
        o["maxPower"] = .int(maxPower)
        o["averageCadence"] = .number(averageCadence.map { rounded($0, 1) })
        o["normalizedPower"] = .number(normalizedPower.map { rounded($0, 1) })
        o["intensityFactor"] = .number(intensityFactor.map { rounded($0, 3) })
        o["trainingStress"] = .number(trainingStress.map { rounded($0, 1) })
        o["trainingStressMethod"] = .string(trainingStressMethod?.rawValue)
        o["workKilojoules"] = .number(workKilojoules.map { rounded($0, 1) })
        o["powerZoneBounds"] = .array(powerZoneBounds.map { .int($0) })
        o["powerZoneSeconds"] = .array(powerZoneSeconds.map { .number(rounded($0, 3)) })
        o["powerCurve"] = .array(powerCurve.map {
            ["seconds": .int($0.seconds), "watts": .number(rounded($0.watts, 1)), "startTime": .string(ISO8601.format($0.startTime, fractionDigits: 3))]
        })
        o["power"] = .int(power)
        o["cadence"] = .int(cadence)
        o["signalLostSeconds"] = .number(rounded(signalLostSeconds, 3))
        if !warnings.isEmpty { o["warnings"] = .array(warnings.map { .string($0) }) }
        o["implausible"] = .array(implausible.map { $0.json() })
        o["splitUnit"] = .string(splitUnit.rawValue)
        o["splits"] = .array(splits.map { $0.json() })
        o["laps"] = .array(laps.map { $0.json() })
        o["bestEfforts"] = .array(bestEfforts.map {
            ["distanceMeters": .number($0.distanceMeters), "seconds": .number(rounded($0.seconds, 3)),
             "startTime": .string(ISO8601.format($0.startTime, fractionDigits: 3))]
        })
        if let plan {
            o["plan"] = plan.json()
            o["compliance"] = .number(plan.compliance)  // the plan's, where the interface names it too
        }
        return .object(o)
    }

    /// `json().serialized()` written straight to bytes, the same text (keep the two in step:
    /// the keys are a user contract, docs/protocol.md). Splits and laps already encoded in
    /// `cache` are copied rather than encoded again; this is what makes `status` of a
    /// 24-hour workout cheap. With `recent`, only the last `recent` splits and laps are written,
    /// followed by `splitCount` and `lapCount` (what `status` carries: 3,000 laps must not make
    /// every status line hundreds of KB; `show` has them all).
    public func writeJSON(to w: inout JSONWriter, cache: inout SummaryJSONCache, recent: Int? = nil) {
        w.raw("{\"id\":"); w.string(id.rawValue)
        w.raw(",\"activity\":"); w.string(activity.rawValue)
        w.raw(",\"startedAt\":"); w.time(startedAt, fractionDigits: 3)
        w.raw(",\"endedAt\":")
        if let endedAt { w.time(endedAt, fractionDigits: 3) } else { w.null() }
        w.raw(",\"title\":"); w.string(title)
        w.raw(",\"notes\":"); w.string(notes)
        w.raw(",\"gear\":"); w.string(gear)
        w.raw(",\"effort\":"); w.int(effort)
        w.raw(",\"records\":"); w.string(records.rawValue)
        w.raw(",\"elapsedSeconds\":"); w.number(rounded(elapsedSeconds, 3))
        w.raw(",\"timerSeconds\":"); w.number(rounded(timerSeconds, 3))
        w.raw(",\"movingSeconds\":"); w.number(rounded(movingSeconds, 3))
        w.raw(",\"distanceMeters\":"); w.number(rounded(distanceMeters, 3))
        w.raw(",\"distanceSource\":"); w.string(distanceSource.rawValue)
        w.raw(",\"gpsDistanceMeters\":"); w.number(gpsDistanceMeters.map { rounded($0, 3) })
        w.raw(",\"multisport\":")
        if let m = multisport {
            w.string(m.event.rawValue)
            w.raw(",\"multisportLeg\":"); w.int(m.leg)
            w.raw(",\"multisportLegs\":"); w.int(m.legs)
        } else {
            w.null()
        }
        w.raw(",\"swim\":")
        if let swim { w.raw(Array(swim.json().serialized().utf8)) } else { w.null() }
        w.raw(",\"elevationGainMeters\":"); w.number(rounded(elevationGainMeters, 2))
        w.raw(",\"elevationLossMeters\":"); w.number(rounded(elevationLossMeters, 2))
        w.raw(",\"elevationSource\":\"gps\"")
        if let g = deviceElevationGainMeters { w.raw(",\"deviceElevationGainMeters\":"); w.number(rounded(g, 2)) }
        if let l = deviceElevationLossMeters { w.raw(",\"deviceElevationLossMeters\":"); w.number(rounded(l, 2)) }
        w.raw(",\"pointCount\":"); w.int(pointCount)
        w.raw(",\"acceptedCount\":"); w.int(acceptedCount)
        w.raw(",\"rejected\":{")
        var first = true
        for r in RejectionReason.allCases {
            guard let n = rejectedByReason[r], n > 0 else { continue }
            if !first { w.raw(",") }
            first = false
            w.string(r.rawValue); w.raw(":"); w.int(n)
        }
        w.raw("},\"averageSpeed\":"); w.number(rounded(averageSpeed, 4))
        w.raw(",\"movingAverageSpeed\":"); w.number(rounded(movingAverageSpeed, 4))
        w.raw(",\"currentSpeed\":"); w.number(currentSpeed.map { rounded($0, 4) })
        w.raw(",\"maxSpeed\":"); w.number(rounded(maxSpeed, 4))
        w.raw(",\"calories\":"); w.number(calories.map { rounded($0, 1) })
        w.raw(",\"caloriesMethod\":")
        if let m = caloriesMethod { w.string(m.rawValue) } else { w.null() }
        w.raw(",\"averageHeartRate\":"); w.number(averageHeartRate.map { rounded($0, 1) })
        w.raw(",\"maxHeartRate\":"); w.int(maxHeartRate)
        w.raw(",\"heartRate\":"); w.int(heartRate)
        w.raw(",\"heartRateZone\":"); w.int(heartRateZone)
        w.raw(",\"heartRateZoneBounds\":["); writeList(heartRateZoneBounds, to: &w) { w, v in w.int(v) }
        w.raw("],\"heartRateZoneSeconds\":["); writeList(heartRateZoneSeconds, to: &w) { w, v in w.number(rounded(v, 3)) }
        w.raw("]")
        w.raw(",\"heartRateRejected\":{\"bpm\":"); w.int(heartRateRejected.bpm)
        w.raw(",\"rr\":"); w.int(heartRateRejected.rr)
        w.raw("}")
        w.raw(",\"averagePower\":"); w.number(averagePower.map { rounded($0, 1) })
        w.raw(",\"maxPower\":"); w.int(maxPower)
        w.raw(",\"averageCadence\":"); w.number(averageCadence.map { rounded($0, 1) })
        w.raw(",\"normalizedPower\":"); w.number(normalizedPower.map { rounded($0, 1) })
        w.raw(",\"intensityFactor\":"); w.number(intensityFactor.map { rounded($0, 3) })
        w.raw(",\"trainingStress\":"); w.number(trainingStress.map { rounded($0, 1) })
        w.raw(",\"trainingStressMethod\":")
        if let m = trainingStressMethod { w.string(m.rawValue) } else { w.null() }
        w.raw(",\"workKilojoules\":"); w.number(workKilojoules.map { rounded($0, 1) })
        w.raw(",\"powerZoneBounds\":["); writeList(powerZoneBounds, to: &w) { w, v in w.int(v) }
        w.raw("],\"powerZoneSeconds\":["); writeList(powerZoneSeconds, to: &w) { w, v in w.number(rounded(v, 3)) }
        w.raw("],\"powerCurve\":[")
        for (k, p) in powerCurve.enumerated() {
            w.raw(k == 0 ? "{" : ",{")
            w.raw("\"seconds\":"); w.int(p.seconds)
            w.raw(",\"watts\":"); w.number(rounded(p.watts, 1))
            w.raw(",\"startTime\":"); w.time(p.startTime, fractionDigits: 3)
            w.raw("}")
        }
        w.raw("],\"power\":"); w.int(power)
        w.raw(",\"cadence\":"); w.int(cadence)
        w.raw(",\"signalLostSeconds\":"); w.number(rounded(signalLostSeconds, 3))
        if !warnings.isEmpty {
            w.raw(",\"warnings\":[")
            for (k, t) in warnings.enumerated() { if k > 0 { w.raw(",") }; w.string(t) }
            w.raw("]")
        }
        w.raw(",\"implausible\":[")
        for (k, x) in implausible.enumerated() {
            w.raw(k == 0 ? "{\"start\":" : ",{\"start\":"); w.time(x.start, fractionDigits: 3)
            w.raw(",\"seconds\":"); w.number(rounded(x.seconds, 3))
            w.raw(",\"meters\":"); w.number(rounded(x.meters, 1))
            w.raw(",\"speed\":"); w.number(rounded(x.speed, 3))
            w.raw(",\"reason\":"); w.string(x.reason.rawValue)
            w.raw("}")
        }
        w.raw("]")
        w.raw(",\"splitUnit\":"); w.string(splitUnit.rawValue)
        if let recent {
            w.raw(",\"splits\":"); cache.splits.write(Array(splits.suffix(recent)), to: &w)
            w.raw(",\"splitCount\":"); w.int(splits.count)
            w.raw(",\"laps\":"); cache.laps.write(Array(laps.suffix(recent)), to: &w)
            w.raw(",\"lapCount\":"); w.int(laps.count)
        } else {
            w.raw(",\"splits\":"); cache.splits.write(splits, to: &w)
            w.raw(",\"laps\":"); cache.laps.write(laps, to: &w)
        }
        w.raw(",\"bestEfforts\":[")
        for (k, e) in bestEfforts.enumerated() {
            w.raw(k == 0 ? "{\"distanceMeters\":" : ",{\"distanceMeters\":"); w.number(e.distanceMeters)
            w.raw(",\"seconds\":"); w.number(rounded(e.seconds, 3))
            w.raw(",\"startTime\":"); w.time(e.startTime, fractionDigits: 3)
            w.raw("}")
        }
        w.raw("]")
        if let plan {
            w.raw(",\"plan\":"); w.raw(Array(plan.json().serialized().utf8))
            w.raw(",\"compliance\":"); w.number(plan.compliance)
        }
        w.raw("}")
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
    public func json() -> JSON {
        let base: JSON = [
            "index": .int(index), "trigger": .string(trigger.rawValue),
            "startTime": .string(ISO8601.format(startTime, fractionDigits: 3)), "endTime": .string(ISO8601.format(endTime, fractionDigits: 3)),
            "elapsedSeconds": .number(rounded(elapsedSeconds, 3)), "movingSeconds": .number(rounded(movingSeconds, 3)),
            "distanceMeters": .number(rounded(distanceMeters, 3)), "elevationGainMeters": .number(rounded(elevationGainMeters, 2)),
            "maxSpeed": .number(rounded(maxSpeed, 4)), "calories": .number(rounded(calories, 1)),
            "averageHeartRate": .int(averageHeartRate), "maxHeartRate": .int(maxHeartRate),
            "heartRateZoneSeconds": .array(heartRateZoneSeconds.map { .number(rounded($0, 3)) }),
            "averagePower": .int(averagePower), "maxPower": .int(maxPower), "averageCadence": .int(averageCadence),
        ]
        guard implausibleMeters > 0 || implausibleSeconds > 0, case .object(var o) = base else { return base }
        // Written only where an implausible stretch lies inside (most laps have none).
        o["implausibleMeters"] = .number(rounded(implausibleMeters, 3))
        o["implausibleSeconds"] = .number(rounded(implausibleSeconds, 3))
        return .object(o)
    }

    /// `json().serialized()` written straight to bytes, the same text.
    public func writeJSON(to w: inout JSONWriter) {
        w.raw("{\"index\":"); w.int(index)
        w.raw(",\"trigger\":"); w.string(trigger.rawValue)
        w.raw(",\"startTime\":"); w.time(startTime, fractionDigits: 3)
        w.raw(",\"endTime\":"); w.time(endTime, fractionDigits: 3)
        w.raw(",\"elapsedSeconds\":"); w.number(rounded(elapsedSeconds, 3))
        w.raw(",\"movingSeconds\":"); w.number(rounded(movingSeconds, 3))
        w.raw(",\"distanceMeters\":"); w.number(rounded(distanceMeters, 3))
        w.raw(",\"elevationGainMeters\":"); w.number(rounded(elevationGainMeters, 2))
        w.raw(",\"maxSpeed\":"); w.number(rounded(maxSpeed, 4))
        w.raw(",\"calories\":"); w.number(rounded(calories, 1))
        w.raw(",\"averageHeartRate\":"); w.int(averageHeartRate)
        w.raw(",\"maxHeartRate\":"); w.int(maxHeartRate)
        w.raw(",\"heartRateZoneSeconds\":["); writeList(heartRateZoneSeconds, to: &w) { w, v in w.number(rounded(v, 3)) }
        w.raw("],\"averagePower\":"); w.int(averagePower)
        w.raw(",\"maxPower\":"); w.int(maxPower)
        w.raw(",\"averageCadence\":"); w.int(averageCadence)
        if implausibleMeters > 0 || implausibleSeconds > 0 {
            w.raw(",\"implausibleMeters\":"); w.number(rounded(implausibleMeters, 3))
            w.raw(",\"implausibleSeconds\":"); w.number(rounded(implausibleSeconds, 3))
        }
        w.raw("}")
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

/// Writes `items` separated by commas (no brackets).
func writeList<T>(_ items: [T], to w: inout JSONWriter, _ one: (inout JSONWriter, T) -> Void) {
    for (k, v) in items.enumerated() {
        if k > 0 { w.raw(",") }
        one(&w, v)
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
    public func json() -> JSON {
        var o = JSONObject()
        o["poolLengthMeters"] = .number(poolLengthMeters.map { rounded($0, 3) })
        o["poolUnit"] = .string(poolUnit?.rawValue)
        o["lengths"] = .int(lengths)
        o["activeLengths"] = .int(activeLengths)
        o["strokes"] = .int(strokes)
        o["averageSwolf"] = .number(averageSwolf.map { rounded($0, 1) })
        o["pacePer100Seconds"] = .number(pacePer100.map { rounded($0, 1) })
        o["paceUnit"] = .string(paceUnit.rawValue)
        o["stroke"] = .string(mainStroke?.rawValue)
        return .object(o)
    }

    public init(json j: JSON) {
        self.init(poolLengthMeters: j["poolLengthMeters"]?.doubleValue, poolUnit: j["poolUnit"]?.stringValue.flatMap(PoolUnit.init(rawValue:)),
                  lengths: j["lengths"]?.intValue, activeLengths: j["activeLengths"]?.intValue, strokes: j["strokes"]?.intValue,
                  averageSwolf: j["averageSwolf"]?.doubleValue, pacePer100: j["pacePer100Seconds"]?.doubleValue,
                  paceUnit: j["paceUnit"]?.stringValue.flatMap(PoolUnit.init(rawValue:)) ?? .meters,
                  mainStroke: j["stroke"]?.stringValue.flatMap(SwimStroke.init(rawValue:)))
    }
}
