/// `edit ID --activity A`: a saved workout measured again as another activity.
extension Importer {
    /// Where a saved workout's points came from, judged by its `source`: an imported NMEA log
    /// (`.nmea`, `.log`, `.txt`, gzipped or not) is a receiver's output like a live recording;
    /// any other imported file (GPX, TCX, FIT) is a device's track, and so is a device's track
    /// recorded live through `simulate` ("recorded:device-track").
    public static func origin(ofSource source: String) -> TrackOrigin {
        if source == TrackOrigin.device.recordedSource { return .device }
        guard source.hasPrefix("imported:") else { return .receiver }
        var name = Substring(source.dropFirst("imported:".count).lowercased())
        if let space = name.firstIndex(of: " ") { name = name[..<space] }  // " (title)"
        if name.hasSuffix(".gz") { name = name.dropLast(3) }
        for ext in [".nmea", ".log", ".txt"] where name.hasSuffix(ext) { return .receiver }
        return .device
    }

    /// The workout with `activity`, every figure recomputed from its recorded points and user
    /// events with the rules it was recorded under (speed limits, auto-pause, calories, best
    /// efforts change with the activity). Id, start, end, points and source stay.
    public static func edited(_ w: Workout, activity: ActivityType, settings: MetricsSettings) -> Workout {
        var new = WorkoutRecorder.recompute(id: w.id, activity: activity, startedAt: w.summary.startedAt, endedAt: w.summary.endedAt,
                                            settings: origin(ofSource: w.source).settings(settings), points: w.points, events: w.events,
                                            heartRate: w.heartRate, sensors: w.sensors, odometer: w.odometer)
        new.source = w.source
        new.summary.multisport = w.summary.multisport
        if let d = w.device {
            new.device = d
            new.summary.apply(d)
        }
        new.summary.annotation = w.summary.annotation
        // The plan's targets are kept; what was done is measured on the new laps.
        new.summary.plan = w.summary.plan.map { var p = $0; p.measure(new.summary.laps); return p }
        // Readings dropped as outside physiology are not stored: their count is kept.
        if new.summary.heartRateRejected.isEmpty { new.summary.heartRateRejected = w.summary.heartRateRejected }
        return new
    }

    /// The workout with `edit` applied: measured again as `edit.activity` when it names one
    /// (`edited(_:activity:settings:)`), its title, notes, gear and effort changed as asked.
    public static func edited(_ w: Workout, applying edit: WorkoutEdit, settings: MetricsSettings) -> Workout {
        var new = edit.activity.map { edited(w, activity: $0, settings: settings) } ?? w
        new.summary.annotation = w.summary.annotation.applying(edit)
        return new
    }
}
