import WorkoutCore

extension Renderer {
    /// `fitness`, `power-curve` and `records` replies as text.
    public func analytics(_ request: AnalyticsRequest, _ r: JSON) -> String {
        switch request {
        case .fitness: return fitness(r)
        case .powerCurve: return powerCurveReply(r)
        case .records: return records(r)
        }
    }

    /// `fitness`: one row per day (today marked), load, fitness, fatigue and form.
    public func fitness(_ r: JSON) -> String {
        let days = r["days"]?.arrayValue ?? []
        guard !days.isEmpty else { return "No days in that range.\n" }
        let today = r["today"]?.stringValue
        var rows = [["DATE", "LOAD", "FITNESS", "FATIGUE", "FORM"]]
        for d in days {
            let date = d["date"]?.stringValue ?? "?"
            rows.append([date + (date == today ? " (today)" : ""), formatFixed(num(d["load"]), decimals: 0),
                         formatFixed(num(d["fitness"]), decimals: 1), formatFixed(num(d["fatigue"]), decimals: 1),
                         formatFixed(num(d["form"]), decimals: 1)])
        }
        return table(rows, rightAligned: [1, 2, 3, 4])
    }

    /// `power-curve`: duration, watts and the workout of each point, then the model.
    public func powerCurveReply(_ r: JSON) -> String {
        let curve = r["curve"]?.arrayValue ?? []
        guard !curve.isEmpty else { return "No workouts with power in that range.\n" }
        var rows = [["DURATION", "WATTS", "WORKOUT", "DATE"]]
        for p in curve {
            rows.append([WebFormat.durationName(p["seconds"]?.intValue ?? 0), formatFixed(num(p["watts"]), decimals: 0), p["id"]?.stringValue ?? "?",
                         time(p["startedAt"]).map { String(clock.dateTime($0).prefix(10)) } ?? "-"])
        }
        var out = table(rows, rightAligned: [0, 1])
        if let cp = r["criticalPower"]?.doubleValue, let wp = r["wPrime"]?.doubleValue {
            out += "Critical power \(formatFixed(cp, decimals: 0)) W, W' \(formatFixed(wp / 1000, decimals: 1)) kJ"
            if let f = r["eFTP"]?.doubleValue { out += ", eFTP \(formatFixed(f, decimals: 0)) W" }
            out += "\n"
        } else {
            out += "Critical power: not enough efforts of 2 to 20 min to fit the model.\n"
        }
        return out
    }

    /// `records`: per activity, its distance and power records with their workouts.
    public func records(_ r: JSON) -> String {
        let list = r["records"]?.arrayValue ?? []
        guard !list.isEmpty else { return "No records yet.\n" }
        var out = ""
        var activity: String?
        var rows: [[String]] = []
        func flush() {
            guard let a = activity else { return }
            out += (out.isEmpty ? "" : "\n") + (ActivityType(rawValue: a)?.displayName ?? a) + "\n" + table(rows, rightAligned: [1])
            rows = []
        }
        for rec in list {
            let a = rec["activity"]?.stringValue ?? "?"
            if a != activity { flush(); activity = a; rows = [["RECORD", "BEST", "WORKOUT", "DATE"]] }
            let name: String, best: String
            if rec["kind"]?.stringValue == "power" {
                name = "power " + WebFormat.durationName(rec["seconds"]?.intValue ?? 0)
                best = formatFixed(num(rec["watts"]), decimals: 0) + " W"
            } else {
                name = UnitFormatter.bestEffortName(num(rec["distanceMeters"]))
                best = Units.shortDuration(num(rec["seconds"]))
            }
            rows.append([name, best, rec["id"]?.stringValue ?? "?", time(rec["startedAt"]).map { String(clock.dateTime($0).prefix(10)) } ?? "-"])
        }
        flush()
        return out
    }
}
