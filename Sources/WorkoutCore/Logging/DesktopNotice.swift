/// What a desktop notification shows for a log event: decided here, sent by the shell's
/// `DesktopNotifier`. A notice replaces the previous one of its `kind` on screen.
public struct DesktopNotice: Sendable, Equatable {
    public enum Urgency: Sendable, Equatable { case low, normal, critical }

    /// `at-risk`, `best`, `saved`, `recording` or the event name for others.
    public var kind: String
    public var summary: String
    public var body: String
    public var urgency: Urgency

    public init(kind: String, summary: String, body: String, urgency: Urgency = .normal) {
        self.kind = kind; self.summary = summary; self.body = body; self.urgency = urgency
    }

    /// The notice for an event the user chose (`notifications.events`), or nil when the event
    /// is not chosen. Summaries are short sentences a person understands without the log.
    /// `units`: how a distance in the body reads (config `units`).
    public static func forEvent(name: String, message: String, fields: [(String, LogValue)], chosen: [String],
                                units: UnitFormatter = .metric) -> DesktopNotice? {
        guard chosen.contains(name) || chosen.contains("*"), !name.hasPrefix("notify.") else { return nil }
        func s(_ k: String) -> String? {
            for (key, v) in fields where key == k {
                switch v {
                case .string(let x): return x
                case .int(let i): return String(i)
                case .double(let d, let decimals): return formatFixed(d, decimals: decimals)
                case .bool(let b): return b ? "true" : "false"
                }
            }
            return nil
        }
        func num(_ k: String) -> Double? { s(k).flatMap { Double($0) } }
        switch name {
        case "habit.at_risk":
            let days = Int(s("days_to_go") ?? "") ?? 1
            let mins = Int(s("minutes_left") ?? "") ?? 0
            var body = (s("left_text") ?? "Not done yet") + ", " + HabitText.daysToGo(days)
            if days <= 1 { body += " (\(mins / 60) h \(mins % 60) min left)" }
            if let n = s("length") { body += ". Keep your streak of \(n) \(s("per") ?? "period")\(n == "1" ? "" : "s")." }
            return DesktopNotice(kind: "at-risk", summary: "\(s("habit") ?? "Habit") at risk", body: body, urgency: days <= 1 ? .critical : .normal)
        case "streak.at_risk":
            let mins = Int(s("minutes_left") ?? "") ?? 0
            return DesktopNotice(kind: "at-risk", summary: "Daily streak at risk",
                                 body: "No workout yet today: \(mins / 60) h \(mins % 60) min left to keep your \(s("length") ?? "?")-day streak.", urgency: .critical)
        case "streak.best", "habit.best":
            return DesktopNotice(kind: "best", summary: "New best streak", body: message)
        case "record.personal_best":
            return DesktopNotice(kind: "best", summary: "New personal best", body: message)
        case "workout.saved":
            let activity = s("activity").flatMap { ActivityType(rawValue: $0)?.displayName } ?? "Workout"
            var body = activity
            if let m = num("distance_m"), m > 0 { body += ": " + units.distance(m) }
            if let t = num("elapsed_s") { body += (body == activity ? ": " : " in ") + formatDuration(t) }
            return DesktopNotice(kind: "saved", summary: "Workout saved", body: body, urgency: .low)
        case "import.folder":
            guard let n = Int(s("imported") ?? ""), n > 0 else { return nil }  // only duplicates or errors: nothing new to show
            return DesktopNotice(kind: "imported", summary: n == 1 ? "Workout imported" : "\(n) workouts imported", body: message, urgency: .low)
        case "gps.signal_lost", "gps.problem", "workout.save_failed", "journal.write_failed":
            let summary = name == "workout.save_failed" ? "Workout not saved yet" : (name == "journal.write_failed" ? "Recording problem" : "GPS problem")
            return DesktopNotice(kind: "recording", summary: summary, body: message, urgency: .critical)
        default:
            return DesktopNotice(kind: name, summary: message.isEmpty ? name : message, body: "")
        }
    }
}
