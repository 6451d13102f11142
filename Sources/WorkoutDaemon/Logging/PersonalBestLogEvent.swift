import WorkoutCore

/// A new personal best, announced when the workout that set it is saved.
struct PersonalBestLogEvent: LogEvent {
    let best: PersonalBest
    let id: WorkoutID

    var name: String { "record.personal_best" }
    var level: LogLevel { .notice }
    var message: String {
        "New personal best: \(PersonalBestLogEvent.label(best.effort.distanceMeters)) \(best.activity.displayName.lowercased()) in \(formatDuration(best.effort.seconds))"
    }
    var fields: [(String, LogValue)] {
        var f: [(String, LogValue)] = [("id", .string(id.rawValue)), ("activity", .string(best.activity.rawValue)),
                                       ("distance_m", .double(best.effort.distanceMeters, decimals: 1)),
                                       ("time", .string(formatDuration(best.effort.seconds))), ("seconds", .double(best.effort.seconds, decimals: 1))]
        if let p = best.previous { f.append(("previous", .string(formatDuration(p.seconds)))) }
        return f
    }

    /// "1 km", "1 mile", "half marathon" ... (the names `show` and `stop` use).
    static func label(_ meters: Double) -> String { UnitFormatter.bestEffortName(meters) }
}
