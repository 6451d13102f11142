/// The `device` object of a saved workout file: `{"calories","workKilojoules","timerSeconds",
/// "elapsedSeconds","distanceMeters","strokes","averageHeartRate","averagePower","averageCadence",
/// "ascentMeters","descentMeters",
/// "pool":{"lengthMeters","unit","lengths":[[start, seconds, strokes, stroke, active], ...]}}`
/// (absent keys and nulls are unknown).
extension DeviceTotals {
    public func json() -> JSON {
        var o = JSONObject()
        if let calories { o["calories"] = .number(calories) }
        if let workKilojoules { o["workKilojoules"] = .number(rounded(workKilojoules, 3)) }
        if let timerSeconds { o["timerSeconds"] = .number(rounded(timerSeconds, 3)) }
        if let elapsedSeconds { o["elapsedSeconds"] = .number(rounded(elapsedSeconds, 3)) }
        if let distanceMeters { o["distanceMeters"] = .number(rounded(distanceMeters, 3)) }
        if let strokes { o["strokes"] = .int(strokes) }
        if let averageHeartRate { o["averageHeartRate"] = .number(rounded(averageHeartRate, 3)) }
        if let averagePower { o["averagePower"] = .number(rounded(averagePower, 3)) }
        if let averageCadence { o["averageCadence"] = .number(rounded(averageCadence, 4)) }
        if let ascentMeters { o["ascentMeters"] = .number(rounded(ascentMeters, 2)) }
        if let descentMeters { o["descentMeters"] = .number(rounded(descentMeters, 2)) }
        if let pool {
            o["pool"] = [
                "lengthMeters": .number(rounded(pool.poolLengthMeters, 4)), "unit": .string(pool.unit.rawValue),
                "lengths": .array(pool.lengths.map { l in
                    [.number(rounded(l.start, 3)), .number(rounded(l.seconds, 3)), .int(l.strokes), .string(l.stroke?.rawValue),
                     .bool(l.active)]
                }),
            ]
        }
        return .object(o)
    }

    /// Reads `json()`; damaged lengths are skipped, a damaged pool is none.
    public init(json j: JSON) {
        self.init(calories: j["calories"]?.doubleValue, workKilojoules: j["workKilojoules"]?.doubleValue,
                  timerSeconds: j["timerSeconds"]?.doubleValue, elapsedSeconds: j["elapsedSeconds"]?.doubleValue,
                  distanceMeters: j["distanceMeters"]?.doubleValue, strokes: j["strokes"]?.intValue)
        averageHeartRate = j["averageHeartRate"]?.doubleValue
        averagePower = j["averagePower"]?.doubleValue
        averageCadence = j["averageCadence"]?.doubleValue
        ascentMeters = j["ascentMeters"]?.doubleValue
        descentMeters = j["descentMeters"]?.doubleValue
        if let p = j["pool"], let length = p["lengthMeters"]?.doubleValue, length > 0,
           let unit = p["unit"]?.stringValue.flatMap(PoolUnit.init(rawValue:)) {
            let lengths = (p["lengths"]?.arrayValue ?? []).compactMap { e -> SwimLength? in
                guard let a = e.arrayValue, a.count == 5, let start = a[0].doubleValue, let seconds = a[1].doubleValue,
                      let active = a[4].boolValue else { return nil }
                return SwimLength(start: start, seconds: seconds, strokes: a[2].intValue,
                                  stroke: a[3].stringValue.flatMap(SwimStroke.init(rawValue:)), active: active)
            }
            pool = PoolSwim(poolLengthMeters: length, unit: unit, lengths: lengths)
        }
    }
}
