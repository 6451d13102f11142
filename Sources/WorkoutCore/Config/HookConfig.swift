/// One hook (config `hooks`): a program run when a log event of that name is emitted.
public struct HookConfig: Sendable, Equatable {
    /// A log event name (`workout.saved`) or `*` for every event.
    public var on: String
    /// The program and its arguments (no shell); the event arrives as one JSON object on stdin.
    public var run: [String]
    /// Seconds before a running hook is killed (SIGKILL) and the kill logged.
    public var timeoutSeconds: Double

    public init(on: String, run: [String], timeoutSeconds: Double = 30) {
        self.on = on; self.run = run; self.timeoutSeconds = timeoutSeconds
    }

    /// Whether the hook runs for an event of this name.
    public func matches(_ event: String) -> Bool { on == "*" || on == event }
}

/// Desktop notifications (config `notifications`).
public struct NotificationsConfig: Sendable, Equatable {
    /// Send notifications through org.freedesktop.Notifications on the session bus.
    public var desktop: Bool = false
    /// Log event names that become notifications.
    public var events: [String] = ["habit.at_risk", "streak.at_risk", "streak.best", "habit.best", "record.personal_best", "workout.saved", "gps.signal_lost",
                                   "import.folder"]
    public init() {}
}
