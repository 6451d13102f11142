import WorkoutCore

/// Log lines for what the recorder noticed: auto-pause, signal loss, splits, laps, segments.
/// Accepted and rejected fixes are counted, not logged one by one.
struct RecorderLogEvent: LogEvent {
    let name: String
    let level: LogLevel
    let message: String
    let fields: [(String, LogValue)]

    init?(_ e: RecorderEvent, id: WorkoutID?) {
        let idField: [(String, LogValue)] = [("id", .string(id?.rawValue ?? ""))]
        switch e {
        case .accepted, .rejected, .ignoredWhilePaused, .ignoredLate:
            return nil
        case .segmentStarted(let n):
            name = "workout.segment"; level = .info; message = "New track segment"
            fields = idField + [("segment", .int(n))]
        case .splitCompleted(let s):
            name = "workout.split"; level = .info; message = "Split \(s.index + 1)"
            fields = idField + [("split", .int(s.index + 1)), ("distance_m", .double(s.distanceMeters, decimals: 1)),
                                ("elapsed_s", .double(s.elapsedSeconds, decimals: 0)), ("moving_s", .double(s.movingSeconds, decimals: 0))]
        case .lapCompleted(let l):
            name = "workout.lap"; level = .info; message = "Lap \(l.index + 1) done"
            fields = idField + [("lap", .int(l.index + 1)), ("trigger", .string(l.trigger.rawValue)), ("distance_m", .double(l.distanceMeters, decimals: 1)),
                                ("elapsed_s", .double(l.elapsedSeconds, decimals: 0)), ("moving_s", .double(l.movingSeconds, decimals: 0))]
        case .timeline(let ev):
            switch ev.kind {
            case .motionPaused: name = "workout.paused"; level = .info; message = "Workout paused (auto)"
            case .motionResumed: name = "workout.resumed"; level = .info; message = "Workout resumed (moving again)"
            case .signalLost: name = "gps.signal_lost"; level = .warning; message = "GPS signal lost"
            case .signalRegained: name = "gps.signal_regained"; level = .info; message = "GPS signal back"
            case .pause, .resume, .lap, .marker, .segment, .recovered: return nil  // logged by the lifecycle
            case .suspended: return nil  // logged by the shell as clock.suspended
            }
            var f = idField
            if ev.kind == .motionPaused { f.append(("cause", .string("auto"))) }
            f.append(("at", .string(ISO8601.format(ev.time, fractionDigits: 1))))
            fields = f
        }
    }
}
