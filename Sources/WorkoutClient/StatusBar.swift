import WorkoutCore

/// Output formats of `workoutctl watch --format`.
public enum StatusBarFormat: String, Sendable, CaseIterable {
    /// Waybar's custom module with `"return-type": "json"`: `{"text","tooltip","class","alt"}`.
    case waybar
    /// i3bar's protocol (i3, sway): a header line, `[`, then one array of blocks per line.
    case i3bar
}

/// The one-line state for a status bar: the workout in progress, or when idle the habits due
/// today (from the `status` and `streak` replies). Pure: the watcher feeds it replies.
public enum StatusBar {
    /// What the bar shows, before formatting.
    public struct Content: Equatable, Sendable {
        public var text: String
        public var tooltip: String
        /// `active`, `paused`, `saving`, `idle`, `due`, `at-risk`, `done`.
        public var cssClass: String
    }

    public static func content(status json: JSON, streak: JSON?) -> Content {
        let status = StatusReply(json: json)
        let state = status.state
        if let w = status.summary {
            let name = w.activity.displayName
            var text = "\(name) \(Units.duration(w.elapsedSeconds))"
            if w.activity.supportsGPS || w.distanceMeters > 0 { text += " " + UnitFormatter(status.units ?? .metric).distance(w.distanceMeters) }
            if let watts = w.power { text += " \(watts) W" }
            if state == "paused" { text += " (paused)" }
            var tip = "\(name): \(state)"
            if let c = w.cadence { tip += ", cadence \(c)" }
            if let avg = w.averagePower { tip += ", \(Int(avg.rounded())) W avg" }
            tip += ", moving \(Units.duration(w.movingSeconds))"
            if let fix = status.gps.fix { tip += ", GPS \(fix)" }
            return Content(text: text, tooltip: tip, cssClass: state == "paused" ? "paused" : (state == "saving" ? "saving" : "active"))
        }
        if state == "saving" || state == "restoring" { return Content(text: state, tooltip: "workoutd: \(state)", cssClass: "saving") }
        // Idle: the habits due today that are not done yet.
        let s = StreakReply(json: streak?["streak"] ?? streak ?? .null)
        let habits = s.habits
        var due: [String] = []
        var tips: [String] = []
        var risk = false
        for h in habits {
            let left = h.leftText ?? ""
            tips.append("\(h.name): " + (h.done ? "done" : left) + ", streak \(h.current) (best \(h.best))")
            if !h.done && (h.dueToday ?? true) {
                due.append(left.isEmpty ? h.name : "\(h.name) (\(left))")
                if h.atRisk { risk = true }
            }
        }
        let daily = s.daily?.current ?? 0
        if !habits.isEmpty && due.isEmpty {
            return Content(text: "habits done", tooltip: tips.joined(separator: "\n"), cssClass: "done")
        }
        if !due.isEmpty {
            return Content(text: "due: " + due.joined(separator: ", "), tooltip: tips.joined(separator: "\n"), cssClass: risk ? "at-risk" : "due")
        }
        return Content(text: "idle, streak \(daily)", tooltip: "workoutd idle; daily streak \(daily)", cssClass: "idle")
    }

    /// One output line for the format (i3bar: a block array followed by a comma).
    public static func line(_ c: Content, format: StatusBarFormat) -> String {
        switch format {
        case .waybar:
            let o: JSON = ["text": .string(c.text), "tooltip": .string(c.tooltip), "class": .string(c.cssClass), "alt": .string(c.cssClass)]
            return o.serialized()
        case .i3bar:
            var block = JSONObject([("name", "workoutd"), ("full_text", .string(c.text)), ("short_text", .string(String(c.text.prefix(24))))])
            switch c.cssClass {
            case "at-risk": block["color"] = "#FF5555"; block["urgent"] = true
            case "active": block["color"] = "#50FA7B"
            case "due", "paused", "saving": block["color"] = "#F1FA8C"
            default: break
            }
            return JSON.array([.object(block)]).serialized() + ","
        }
    }

    /// What precedes the lines (i3bar's header and the opening of its endless array).
    public static func header(_ format: StatusBarFormat) -> String? {
        switch format {
        case .waybar: return nil
        case .i3bar: return "{\"version\":1}\n["
        }
    }
}
