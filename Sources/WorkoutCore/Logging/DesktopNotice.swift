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
    /// is not chosen. Summaries are short sentences a person understands without the log. An
    /// event that carries its own typed data says what it shows (`DesktopNoticeEvent`); the
    /// others show their message. `units`: how a distance in the body reads (config `units`).
    public static func forEvent(_ event: any LogEvent, chosen: [String], units: UnitFormatter = .metric) -> DesktopNotice? {
        let name = event.name
        guard chosen.contains(name) || chosen.contains("*"), !name.hasPrefix("notify.") else { return nil }
        if let typed = event as? any DesktopNoticeEvent, let notice = typed.desktopNotice(units: units) { return notice }
        let message = event.message
        switch name {
        case "streak.best", "habit.best", "record.personal_best":
            return DesktopNotice(kind: "best", summary: name == "record.personal_best" ? "New personal best" : "New best streak", body: message)
        case "import.folder":
            return nil  // a notice only when a workout was imported (SyncLogEvent.desktopNotice)
        case "gps.signal_lost", "gps.problem", "workout.save_failed", "journal.write_failed":
            let summary = name == "workout.save_failed" ? "Workout not saved yet" : (name == "journal.write_failed" ? "Recording problem" : "GPS problem")
            return DesktopNotice(kind: "recording", summary: summary, body: message, urgency: .critical)
        default:
            return DesktopNotice(kind: name, summary: message.isEmpty ? name : message, body: "")
        }
    }

    /// `workout.saved`: "Running: 5.02 km in 28:14".
    public static func saved(_ s: WorkoutSummary, units: UnitFormatter) -> DesktopNotice {
        let activity = s.activity.displayName
        var body = activity
        if s.distanceMeters > 0 { body += ": " + units.distance(s.distanceMeters) }
        body += (body == activity ? ": " : " in ") + formatDuration(s.elapsedSeconds.rounded())
        return DesktopNotice(kind: "saved", summary: "Workout saved", body: body, urgency: .low)
    }
}

/// A log event whose desktop notice is built from its own typed data, never read back from its
/// rendered fields.
public protocol DesktopNoticeEvent: LogEvent {
    /// The notice this event shows; nil: the generic one (`DesktopNotice.forEvent`).
    func desktopNotice(units: UnitFormatter) -> DesktopNotice?
}

extension HabitLogEvent: DesktopNoticeEvent {
    public func desktopNotice(units: UnitFormatter) -> DesktopNotice? {
        switch self {
        case .atRisk(let r):
            var body = r.leftText + ", " + HabitText.daysToGo(r.daysToGo)
            if r.daysToGo <= 1 { body += " (\(r.minutesLeft / 60) h \(r.minutesLeft % 60) min left)" }
            body += ". Keep your streak of \(HabitText.periods(r.streak.length, r.habit.per))."
            return DesktopNotice(kind: "at-risk", summary: "\(r.habit.name) at risk", body: body, urgency: r.daysToGo <= 1 ? .critical : .normal)
        case .done, .newBest:
            return nil
        }
    }
}

extension StreakLogEvent: DesktopNoticeEvent {
    public func desktopNotice(units: UnitFormatter) -> DesktopNotice? {
        guard case .atRisk(let r) = self else { return nil }
        return DesktopNotice(kind: "at-risk", summary: "Daily streak at risk",
                             body: "No workout yet today: \(r.minutesLeft / 60) h \(r.minutesLeft % 60) min left to keep your \(r.streak.days)-day streak.", urgency: .critical)
    }
}
