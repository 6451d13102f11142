/// Log lines for what the recorder noticed: auto-pause, signal loss, splits, laps, segments.
/// Accepted and rejected fixes are counted, not logged one by one (`init?` returns nil).
public struct RecorderLogEvent: LogEvent, Equatable {
    public let event: RecorderEvent
    public let id: WorkoutID
    /// The workout's activity (pace or speed in split and lap lines) and the units its splits
    /// are cut in (the person's `units`).
    public let activity: ActivityType?
    public let units: Units

    public init?(_ e: RecorderEvent, id: WorkoutID, activity: ActivityType? = nil, units: Units = .metric) {
        switch e {
        case .accepted, .rejected, .ignoredWhilePaused:
            return nil
        case .segmentStarted, .splitCompleted, .lapCompleted, .tooFastForActivity:
            break
        case .timeline(let ev):
            switch ev.kind {
            case .motionPaused, .motionResumed, .signalLost, .signalRegained: break
            case .pause, .resume, .lap, .marker, .segment, .recovered: return nil  // logged by the lifecycle
            case .suspended: return nil  // logged by the shell (clock.suspended)
            }
        }
        self.event = e
        self.id = id
        self.activity = activity
        self.units = units
    }

    /// "1.00 km in 5:32, 5:32 /km (elapsed 7:56)" (distance, moving time and the moving pace or
    /// speed of a split or lap: one clock; the elapsed time beside it when a stop of 10 s or more
    /// is inside), in the person's units.
    func stretch(_ l: LapSummary) -> String {
        let u = UnitFormatter(units)
        let moving = l.movingSeconds > 0 ? l.movingSeconds : l.elapsedSeconds
        var s = u.distance(l.distanceMeters) + " in " + formatDuration(moving)
        if l.paceSeconds > 0, let e = u.effort(l.paceSpeed, for: activity) { s += ", " + e }
        if l.elapsedSeconds - moving >= 10 { s += " (elapsed " + formatDuration(l.elapsedSeconds) + ")" }
        return s
    }

    public var name: String {
        switch event {
        case .segmentStarted: return "workout.segment"
        case .splitCompleted: return "workout.split"
        case .lapCompleted: return "workout.lap"
        case .tooFastForActivity: return "gps.too_fast_for_activity"
        case .timeline(let ev):
            switch ev.kind {
            case .motionPaused: return "workout.paused"
            case .motionResumed: return "workout.resumed"
            case .signalLost: return "gps.signal_lost"
            case .signalRegained: return "gps.signal_regained"
            case .pause, .resume, .lap, .marker, .segment, .recovered, .suspended: return "workout.event"
            }
        case .accepted, .rejected, .ignoredWhilePaused: return "workout.fix"
        }
    }

    public var level: LogLevel {
        switch event {
        case .timeline(let ev) where ev.kind == .signalLost: return .warning
        case .tooFastForActivity: return .warning
        case .timeline, .segmentStarted, .splitCompleted, .lapCompleted, .accepted, .rejected, .ignoredWhilePaused: return .info
        }
    }

    public var message: String {
        switch event {
        case .segmentStarted: return "New track segment"
        case .splitCompleted(let s): return "Split \(s.index + 1): " + stretch(s)
        case .lapCompleted(let l): return "Lap \(l.index + 1) done: " + stretch(l)
        case .tooFastForActivity(let w): return "GPS: " + w.text
        case .timeline(let ev):
            switch ev.kind {
            case .motionPaused: return "Workout paused (auto)"
            case .motionResumed: return "Workout resumed (moving again)"
            case .signalLost: return "GPS signal lost"
            case .signalRegained: return "GPS signal back"
            case .pause, .resume, .lap, .marker, .segment, .recovered, .suspended: return ev.kind.rawValue
            }
        case .accepted, .rejected, .ignoredWhilePaused: return ""
        }
    }

    public var fields: [(String, LogValue)] {
        let idField: [(String, LogValue)] = [("id", .string(id.rawValue))]
        switch event {
        case .segmentStarted(let n):
            return idField + [("segment", .int(n))]
        case .splitCompleted(let s):
            return idField + [("split", .int(s.index + 1)), ("distance_m", .double(s.distanceMeters, decimals: 1)),
                              ("elapsed_s", .double(s.elapsedSeconds, decimals: 0)), ("moving_s", .double(s.movingSeconds, decimals: 0))]
        case .lapCompleted(let l):
            return idField + [("lap", .int(l.index + 1)), ("trigger", .string(l.trigger.rawValue)), ("distance_m", .double(l.distanceMeters, decimals: 1)),
                              ("elapsed_s", .double(l.elapsedSeconds, decimals: 0)), ("moving_s", .double(l.movingSeconds, decimals: 0))]
        case .tooFastForActivity(let w):
            return idField + [("median_kmh", .double(w.medianSpeed * 3.6, decimals: 1)), ("activity", .string(w.activity.rawValue)),
                              ("likely", .string(w.likelyActivity?.rawValue ?? "vehicle"))]
        case .timeline(let ev):
            var f = idField
            if ev.kind == .motionPaused { f.append(("cause", .string("auto"))) }
            f.append(("at", .string(ISO8601.format(ev.time, fractionDigits: 1))))
            return f
        case .accepted, .rejected, .ignoredWhilePaused: return idField
        }
    }
}
