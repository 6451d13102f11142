import WorkoutCore

/// `import.folder` shows how many workouts an import folder gave; none (only duplicates or
/// errors): no notice (`DesktopNotice.forEvent`).
extension SyncLogEvent: DesktopNoticeEvent {
    func desktopNotice(units: UnitFormatter) -> DesktopNotice? {
        guard case .folderImported(_, let imported, _, _, _) = self, imported > 0 else { return nil }
        return DesktopNotice(kind: "imported", summary: imported == 1 ? "Workout imported" : "\(imported) workouts imported", body: message, urgency: .low)
    }
}
