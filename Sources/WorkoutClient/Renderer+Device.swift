import WorkoutCore

/// The lines of a summary that come from the recording device: where the distance comes from,
/// a swim's pool and lengths, the multisport event a leg belongs to; and the order `list`
/// shows multisport legs in.
extension Renderer {
    /// "Distance:" suffix: " (device)" or " (sensor)" when the distance is not the GPS track's.
    func distanceSourceNote(_ w: WorkoutSummary) -> String {
        switch w.distanceSource {
        case .device: return " (device)"
        case .sensor: return " (sensor)"
        case .gps: return ""
        }
    }

    /// Lines under the distance: the GPS track's own length beside a device's distance, the
    /// swim, the multisport leg.
    func deviceLines(_ w: WorkoutSummary, units u: UnitFormatter) -> String {
        var s = ""
        if let g = w.gpsDistanceMeters { s += "GPS track: " + u.distance(g) + "\n" }
        if let swim = w.swim { s += "Swim:      " + swimLine(swim) + "\n" }
        if let m = w.multisport { s += "Multisport: leg \(m.leg) of \(m.legs) (event \(m.event.rawValue))\n" }
        return s
    }

    /// "166 lengths of 25 yd (160 swum), 1:52 /100 yd, SWOLF 38.5, 2,104 strokes, freestyle".
    func swimLine(_ swim: SwimSummary) -> String {
        var parts: [String] = []
        if let n = swim.lengths, let pool = swim.poolLengthMeters {
            let poolUnit = swim.poolUnit ?? .meters
            let shown = pool / poolUnit.meters
            var p = "\(n) length\(n == 1 ? "" : "s") of " + formatFixed(shown, decimals: shown == shown.rounded() ? 0 : 2) + " " + poolUnit.rawValue
            if let active = swim.activeLengths, active != n { p += " (\(active) swum)" }
            parts.append(p)
        }
        if let pace = swim.pacePer100 { parts.append(Units.shortDuration(pace) + " /100 " + swim.paceUnit.rawValue) }
        if let swolf = swim.averageSwolf { parts.append("SWOLF " + formatFixed(swolf, decimals: 1)) }
        if let strokes = swim.strokes { parts.append("\(strokes) strokes") }
        if let stroke = swim.mainStroke { parts.append(stroke.rawValue) }
        return parts.isEmpty ? "-" : parts.joined(separator: ", ")
    }

    /// The ACTIVITY column of `list`: a multisport leg says which ("Cycling (leg 3/5)").
    func listActivity(_ w: WorkoutSummary) -> String {
        guard let m = w.multisport else { return w.activity.displayName }
        return w.activity.displayName + " (leg \(m.leg)/\(m.legs))"
    }

    /// `list`'s rows with the legs of each multisport event together, in leg order, where the
    /// event's first leg would stand; everything else keeps its order.
    func groupingLegs(_ items: [WorkoutSummary]) -> [WorkoutSummary] {
        var legsOf: [WorkoutID: [WorkoutSummary]] = [:]
        for w in items { if let m = w.multisport { legsOf[m.event, default: []].append(w) } }
        guard !legsOf.isEmpty else { return items }
        var out: [WorkoutSummary] = []
        var placed = Set<WorkoutID>()
        for w in items {
            guard let e = w.multisport?.event else { out.append(w); continue }
            guard placed.insert(e).inserted else { continue }
            out += (legsOf[e] ?? []).sorted { ($0.multisport?.leg ?? 0) < ($1.multisport?.leg ?? 0) }
        }
        return out
    }
}
