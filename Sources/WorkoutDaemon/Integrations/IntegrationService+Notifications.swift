import WorkoutCore

/// Desktop notifications: events pass the logger's tap; `DesktopNotice` decides
/// what a chosen event shows, `DesktopNotifier` sends it (asynchronously, on the loop).
extension IntegrationService {
    func notifyDesktop(_ event: any LogEvent) {
        let n = config.notifications
        guard n.desktop, let notice = DesktopNotice.forEvent(event, chosen: n.events, units: UnitFormatter(config.units)) else { return }
        let notifier: DesktopNotifier
        if let existing = desktopNotifier {
            notifier = existing
        } else {
            notifier = DesktopNotifier(loop: context.loop, environment: context.environment)
            notifier.onProblem = { [unowned self] text in self.log(NotificationLogEvent(problem: text)) }
            desktopNotifier = notifier
        }
        let urgency: DesktopNotifier.Urgency
        switch notice.urgency {
        case .low: urgency = .low
        case .normal: urgency = .normal
        case .critical: urgency = .critical
        }
        notifier.notify(kind: notice.kind, summary: notice.summary, body: notice.body, urgency: urgency)
    }
}

/// The session bus or the notification server is missing (logged once per outage).
struct NotificationLogEvent: LogEvent {
    let problem: String
    var name: String { "notify.unavailable" }
    var level: LogLevel { .warning }
    var message: String { "Desktop notifications unavailable; carrying on without them" }
    var fields: [(String, LogValue)] { [("reason", .string(problem))] }
}
