/// `recompute ID --set metrics.KEY=VALUE`: a saved workout measured again from its recorded
/// fixes and events with other metrics settings, beside the numbers it was saved with. Pure: the
/// daemon loads the workout and runs this on its bulk worker.
public struct Recomputation: Sendable {
    /// The workout as saved.
    public var before: Workout
    /// The same points and user events recomputed with the new settings (same id, activity,
    /// start, end and source).
    public var after: Workout

    /// Recomputes `workout` with `settings` (the daemon's configuration with the overrides
    /// applied). A device's track (an imported GPX, TCX or FIT file) is measured with the import
    /// rules derived from them, as `edit` does.
    public init(_ workout: Workout, settings: MetricsSettings) {
        before = workout
        after = Importer.edited(workout, activity: workout.activity, settings: settings)
    }

    /// `{"before": summary, "after": summary}`: each the workout summary of `show` plus
    /// `pauseCount` (the manual and automatic pauses on its timeline).
    public func json() -> JSON {
        ["before": RecomputeReply.summaryJSON(before.summary, pauseCount: before.pauseCount),
         "after": RecomputeReply.summaryJSON(after.summary, pauseCount: after.pauseCount)]
    }

    /// Keys of the fix filter a device's track is not measured by: the device already filtered
    /// it (`Importer.importSettings`), so changing them changes nothing there.
    static let deviceFilteredKeys: Set<String> = ["metrics.jumpMeters", "metrics.warmUpFixes", "metrics.signalLostSeconds"]

    /// What a person should know about `overrides` for this workout: a setting that does not
    /// apply to it, in words.
    public static func notes(_ overrides: [MetricsOverride], for workout: Workout) -> [String] {
        switch Importer.origin(ofSource: workout.source) {
        case .receiver: return []
        case .device:
            return overrides.map(\.key).filter { deviceFilteredKeys.contains($0) }.map {
                "\($0) does not apply to this workout: it is a device's recorded track (\(workout.source)), measured as the device filtered it"
            }
        }
    }
}

extension Workout {
    /// Pauses on the timeline: the user's (`pause`) and auto-pauses (`motion_paused`).
    public var pauseCount: Int {
        events.reduce(0) { n, e in
            switch e.kind {
            case .pause, .motionPaused: return n + 1
            case .resume, .lap, .marker, .motionResumed, .segment, .signalLost, .signalRegained, .recovered, .suspended: return n
            }
        }
    }
}
