import WorkoutCore

/// The lines of a summary that come from the recording device: where the distance comes from,
/// a swim's pool and lengths, the multisport event a leg belongs to; and the order `list`
/// shows multisport legs in.
extension Renderer {
    /// "Distance:" suffix: " (device)" or " (sensor)" when the distance is not the GPS track's.
    func distanceSourceNote(_ w: JSON) -> String {
        switch w["distanceSource"]?.stringValue {
        case "device": return " (device)"
        case "sensor": return " (sensor)"
        default: return ""
        }
    }

    /// Lines under the distance: the GPS track's own length beside a device's distance, the
    /// swim, the multisport leg.
    func deviceLines(_ w: JSON, units u: UnitFormatter) -> String {
        var s = ""
        if let g = w["gpsDistanceMeters"]?.doubleValue { s += "GPS track: " + u.distance(g) + "\n" }
        if let swim = object(w["swim"]) { s += "Swim:      " + swimLine(swim) + "\n" }
        if let event = w["multisport"]?.stringValue, let leg = w["multisportLeg"]?.intValue, let legs = w["multisportLegs"]?.intValue {
            s += "Multisport: leg \(leg) of \(legs) (event \(event))\n"
        }
        return s
    }

    /// "166 lengths of 25 yd (160 swum), 1:52 /100 yd, SWOLF 38.5, 2,104 strokes, freestyle".
    func swimLine(_ swim: JSON) -> String {
        var parts: [String] = []
        let unit = swim["paceUnit"]?.stringValue ?? "m"
        if let n = swim["lengths"]?.intValue, let pool = swim["poolLengthMeters"]?.doubleValue {
            let poolUnit = swim["poolUnit"]?.stringValue ?? "m"
            let shown = poolUnit == "yd" ? pool / 0.9144 : pool
            var p = "\(n) length\(n == 1 ? "" : "s") of " + formatFixed(shown, decimals: shown == shown.rounded() ? 0 : 2) + " " + poolUnit
            if let active = swim["activeLengths"]?.intValue, active != n { p += " (\(active) swum)" }
            parts.append(p)
        }
        if let pace = swim["pacePer100Seconds"]?.doubleValue { parts.append(Units.shortDuration(pace) + " /100 " + unit) }
        if let swolf = swim["averageSwolf"]?.doubleValue { parts.append("SWOLF " + formatFixed(swolf, decimals: 1)) }
        if let strokes = swim["strokes"]?.intValue { parts.append("\(strokes) strokes") }
        if let stroke = swim["stroke"]?.stringValue { parts.append(stroke) }
        return parts.isEmpty ? "-" : parts.joined(separator: ", ")
    }

    /// The ACTIVITY column of `list`: a multisport leg says which ("Cycling (leg 3/5)").
    func listActivity(_ w: JSON) -> String {
        guard w["multisport"]?.stringValue != nil, let leg = w["multisportLeg"]?.intValue, let legs = w["multisportLegs"]?.intValue else {
            return activityName(w)
        }
        return activityName(w) + " (leg \(leg)/\(legs))"
    }

    /// `list`'s rows with the legs of each multisport event together, in leg order, where the
    /// event's first leg would stand; everything else keeps its order.
    func groupingLegs(_ items: [JSON]) -> [JSON] {
        var legsOf: [String: [JSON]] = [:]
        for w in items { if let e = w["multisport"]?.stringValue { legsOf[e, default: []].append(w) } }
        guard !legsOf.isEmpty else { return items }
        var out: [JSON] = []
        var placed = Set<String>()
        for w in items {
            guard let e = w["multisport"]?.stringValue else { out.append(w); continue }
            guard placed.insert(e).inserted else { continue }
            out += (legsOf[e] ?? []).sorted { ($0["multisportLeg"]?.intValue ?? 0) < ($1["multisportLeg"]?.intValue ?? 0) }
        }
        return out
    }
}
