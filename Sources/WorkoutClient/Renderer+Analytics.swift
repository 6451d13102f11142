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
        let reply = FitnessReply(json: r)
        guard !reply.days.isEmpty else { return "No days in that range.\n" }
        var rows = [["DATE", "LOAD", "FITNESS", "FATIGUE", "FORM"]]
        for d in reply.days {
            rows.append([d.date.iso + (d.date == reply.today ? " (today)" : ""), formatFixed(d.load, decimals: 0),
                         formatFixed(d.fitness, decimals: 1), formatFixed(d.fatigue, decimals: 1), formatFixed(d.form, decimals: 1)])
        }
        return table(rows, rightAligned: [1, 2, 3, 4])
    }

    /// `power-curve`: duration, watts and the workout of each point, then the model.
    public func powerCurveReply(_ r: JSON) -> String {
        let reply = PowerCurveReply(json: r)
        guard !reply.curve.isEmpty else { return "No workouts with power in that range.\n" }
        var rows = [["DURATION", "WATTS", "WORKOUT", "DATE"]]
        for p in reply.curve {
            rows.append([WebFormat.durationName(p.seconds), formatFixed(p.watts, decimals: 0), p.id.rawValue, day(p.startedAt)])
        }
        var out = table(rows, rightAligned: [0, 1])
        if let cp = reply.criticalPower, let wp = reply.wPrime {
            out += "Critical power \(formatFixed(cp, decimals: 0)) W, W' \(formatFixed(wp / 1000, decimals: 1)) kJ"
            if let f = reply.estimatedFTP { out += ", eFTP \(formatFixed(f, decimals: 0)) W" }
            out += "\n"
        } else {
            out += "Critical power: not enough efforts of 2 to 20 min to fit the model.\n"
        }
        return out
    }

    /// `records`: per activity, its distance and power records with their workouts.
    public func records(_ r: JSON) -> String {
        let list = RecordsReply(json: r).records
        guard !list.isEmpty else { return "No records yet.\n" }
        var out = ""
        var activity: ActivityType?
        var rows: [[String]] = []
        func flush() {
            guard let a = activity else { return }
            out += (out.isEmpty ? "" : "\n") + a.displayName + "\n" + table(rows, rightAligned: [1])
            rows = []
        }
        for rec in list {
            if rec.activity != activity { flush(); activity = rec.activity; rows = [["RECORD", "BEST", "WORKOUT", "DATE"]] }
            let name: String, best: String
            switch rec.best {
            case .power(let seconds, let watts):
                name = "power " + WebFormat.durationName(seconds)
                best = formatFixed(watts, decimals: 0) + " W"
            case .distance(let meters, let seconds):
                name = UnitFormatter.bestEffortName(meters)
                best = Units.shortDuration(seconds)
            }
            rows.append([name, best, rec.id.rawValue, day(rec.startedAt)])
        }
        flush()
        return out
    }

    /// The local date of a UTC time, as the tables show it.
    func day(_ t: Double) -> String { String(clock.dateTime(t).prefix(10)) }
}
