import WorkoutCore

/// `workout.saved` shows the saved summary's activity, distance and time.
extension DaemonLogEvent: DesktopNoticeEvent {
    public func desktopNotice(units: UnitFormatter) -> DesktopNotice? {
        guard case .saved(let summary, _, _) = self else { return nil }
        return DesktopNotice.saved(summary, units: units)
    }
}
