/// The status: what `status` returns, every workout command answers with (`start`, `pause`,
/// `resume`, `lap`, `marker`, `stop`, `toggle`), `watch` subscribes with and its events carry
/// (docs/protocol.md, "Commands"). Typed once: the daemon writes it (`write(to:line:cache:)`),
/// workoutctl reads it (`init(json:)`). Keys in the order the daemon writes them; never renamed.
public struct StatusReply: Sendable {
    /// Which line the status is written as.
    public enum Line: Sendable {
        /// The reply to `status` and to successful transitions: `{"ok":true,"state":...}`.
        case reply
        /// The reply to `watch`: the same with `"subscribed":true` at the end.
        case subscribedReply
        /// What `watch` subscribers receive after a change: `{"event":"status","state":...}`.
        case event
    }

    /// The workout: a summary as the daemon writes it, or the object as a client read it (shown
    /// key by key, so a newer daemon's keys and activities still show).
    public enum Workout: Sendable {
        case summary(WorkoutSummary)
        case object(JSON)
    }

    /// `idle`, `restoring`, `active`, `paused`, `saving`.
    public var state: String
    /// The workout in progress (or the one just stopped), null without.
    public var workout: Workout?
    public var gps: GPSReply
    /// One object per configured sensor (docs/sensors.md).
    public var sensors: [JSON]
    /// The one-button action's title (`toggle`).
    public var action: String?
    public var saveError: String?
    public var sleepInhibitor: SleepInhibitorReply?
    /// What dates the workout in progress, in words (docs/time.md).
    public var dateSource: String?
    /// The display units (`metric`, `imperial`); nil from a daemon that sends none.
    public var units: Units?
    /// Why the workout is paused; nil when it is not.
    public var pause: PauseReply?
    /// The bests a workout just stopped set (the `stop` reply only).
    public var personalBests: [PersonalBestReply]?
    /// Where the workout's plan stands (`start --plan`); nil without one.
    public var plan: PlanReply?
    /// The `watch` reply.
    public var subscribed: Bool

    public init(state: String, workout: Workout?, gps: GPSReply, sensors: [JSON], action: String?, saveError: String?,
                sleepInhibitor: SleepInhibitorReply?, dateSource: String?, units: Units?, pause: PauseReply?,
                personalBests: [PersonalBestReply]? = nil, plan: PlanReply? = nil, subscribed: Bool = false) {
        self.state = state; self.workout = workout; self.gps = gps; self.sensors = sensors; self.action = action
        self.saveError = saveError; self.sleepInhibitor = sleepInhibitor; self.dateSource = dateSource; self.units = units
        self.pause = pause; self.personalBests = personalBests; self.plan = plan; self.subscribed = subscribed
    }

    /// The workout as a summary: the daemon's own, or the object read by `WorkoutSummary`'s
    /// codec (nil when that cannot read it: no id, an unknown activity, no start).
    public var summary: WorkoutSummary? {
        switch workout {
        case .summary(let s)?: return s
        case .object(let o)?: return WorkoutSummary(json: o)
        case nil: return nil
        }
    }

    /// The workout's summary object (from a summary, its codec's `json()`).
    public var workoutObject: JSON? {
        switch workout {
        case .summary(let s)?: return s.json()
        case .object(let o)?: return o
        case nil: return nil
        }
    }

    /// Writes the status as compact JSON text (no newline). A summary's closed splits and laps
    /// are copied from `cache`, not encoded again; at most `recent` of each are written, with
    /// their counts (`splitCount`, `lapCount`).
    public func write(to w: inout JSONWriter, line: Line, cache: inout SummaryJSONCache, recent: Int) {
        switch line {
        case .reply, .subscribedReply: w.raw("{\"ok\":true")
        case .event: w.raw("{\"event\":\"status\"")
        }
        w.raw(",\"state\":"); w.string(state)
        w.raw(",\"workout\":")
        switch workout {
        case .summary(let s)?: s.writeJSON(to: &w, cache: &cache, recent: recent)
        case .object(let o)?: w.value(o)
        case nil: w.null()
        }
        w.raw(",\"gps\":"); w.value(gps.json())
        w.raw(",\"sensors\":"); w.value(.array(sensors))
        w.raw(",\"action\":"); w.string(action)
        w.raw(",\"saveError\":"); w.string(saveError)
        w.raw(",\"sleepInhibitor\":"); w.value(sleepInhibitor?.json() ?? .null)
        w.raw(",\"dateSource\":"); w.string(dateSource)
        w.raw(",\"units\":"); w.string(units?.rawValue)
        w.raw(",\"pause\":"); w.value(pause?.json() ?? .null)
        w.raw(",\"plan\":"); w.value(plan?.json() ?? .null)
        if let personalBests { w.raw(",\"personalBests\":"); w.value(.array(personalBests.map { $0.json() })) }
        if subscribed || line == .subscribedReply { w.raw(",\"subscribed\":true") }
        w.raw("}")
    }

    /// Whether a `watch` line is a status event (a line without `event` is one: older daemons).
    public static func isStatusEvent(_ line: JSON) -> Bool { (line["event"]?.stringValue ?? "status") == "status" }

    /// The sensors as their type reads them.
    public var sensorReplies: [SensorReply] { sensors.map(SensorReply.init(json:)) }

    /// Reads a status reply or event. Tolerant: what is missing or odd is nil (an older or newer
    /// daemon still gives a readable status).
    public init(json r: JSON) {
        state = r["state"]?.stringValue ?? "unknown"
        workout = r["workout"].flatMap { $0.objectValue == nil ? nil : .object($0) }
        gps = r["gps"].map(GPSReply.init(json:)) ?? GPSReply()
        sensors = r["sensors"]?.arrayValue ?? []
        action = r["action"]?.stringValue
        saveError = r["saveError"]?.stringValue
        sleepInhibitor = r["sleepInhibitor"].flatMap(SleepInhibitorReply.init(json:))
        dateSource = r["dateSource"]?.stringValue
        units = r["units"]?.stringValue.flatMap(Units.init(rawValue:))
        pause = r["pause"].flatMap(PauseReply.init(json:))
        personalBests = r["personalBests"]?.arrayValue.map { $0.compactMap(PersonalBestReply.init(json:)) }
        plan = r["plan"].flatMap(PlanReply.init(json:))
        subscribed = r["subscribed"]?.boolValue ?? false
    }

    /// Whether GPS is shown "off while paused": a paused workout's GPS is closed (no source, no fix).
    public var gpsClosedWhilePaused: Bool {
        pause != nil && gps.source == nil && (gps.fix ?? "none") == "none"
    }
}

extension StatusReply.Line: Equatable {}

/// The GPS side of the status (docs/protocol.md, "GPS keys").
public struct GPSReply: Sendable, Equatable {
    public var source: String?
    /// `none`, `2D`, `3D`.
    public var fix: String?
    public var lastFixAgeSeconds: Double?
    public var satellites: Int?
    public var problem: String?
    public var clockOffsetSeconds: Double?
    /// Bad input per reason, summed over connections.
    public var rejectedInput: [String: Int] = [:]
    public var otherSources: Int = 0
    public var otherSourceFixes: Int = 0

    public init(source: String? = nil, fix: String? = nil, lastFixAgeSeconds: Double? = nil, satellites: Int? = nil, problem: String? = nil,
                clockOffsetSeconds: Double? = nil, rejectedInput: [String: Int] = [:], otherSources: Int = 0, otherSourceFixes: Int = 0) {
        self.source = source; self.fix = fix; self.lastFixAgeSeconds = lastFixAgeSeconds; self.satellites = satellites; self.problem = problem
        self.clockOffsetSeconds = clockOffsetSeconds; self.rejectedInput = rejectedInput; self.otherSources = otherSources
        self.otherSourceFixes = otherSourceFixes
    }

    public func json() -> JSON {
        var o = JSONObject()
        o["source"] = .string(source)
        o["fix"] = .string(fix ?? "none")
        o["lastFixAgeSeconds"] = .number(lastFixAgeSeconds)
        o["satellites"] = .int(satellites)
        o["problem"] = .string(problem)
        o["clockOffsetSeconds"] = .number(clockOffsetSeconds)
        var r = JSONObject()
        for (k, v) in rejectedInput.sorted(by: { $0.key < $1.key }) { r[k] = .int(v) }
        o["rejectedInput"] = .object(r)
        o["otherSources"] = .int(otherSources)
        o["otherSourceFixes"] = .int(otherSourceFixes)
        return .object(o)
    }

    public init(json g: JSON) {
        source = g["source"]?.stringValue
        fix = g["fix"]?.stringValue
        lastFixAgeSeconds = g["lastFixAgeSeconds"]?.doubleValue
        satellites = g["satellites"]?.intValue
        problem = g["problem"]?.stringValue
        clockOffsetSeconds = g["clockOffsetSeconds"]?.doubleValue
        for p in g["rejectedInput"]?.objectValue?.pairs ?? [] { if let n = p.value.intValue { rejectedInput[p.key] = n } }
        otherSources = g["otherSources"]?.intValue ?? 0
        otherSourceFixes = g["otherSourceFixes"]?.intValue ?? 0
    }
}

/// Why a workout is paused (docs/protocol.md, "Pause key").
public struct PauseReply: Sendable, Equatable {
    /// `manual`, or `recovered` when it came back paused after the daemon stopped.
    public var reason: String
    public var since: Double?
    /// When a `recovered` workout was restored.
    public var restoredAt: Double?

    public init(reason: String, since: Double?, restoredAt: Double?) {
        self.reason = reason; self.since = since; self.restoredAt = restoredAt
    }

    public func json() -> JSON {
        var o = JSONObject()
        o["reason"] = .string(reason)
        o["since"] = .string(since.map { ISO8601.format($0, fractionDigits: 0) })
        if reason == "recovered" { o["restoredAt"] = .string(restoredAt.map { ISO8601.format($0, fractionDigits: 0) }) }
        return .object(o)
    }

    public init?(json p: JSON) {
        guard let reason = p["reason"]?.stringValue else { return nil }
        self.reason = reason
        since = p["since"]?.stringValue.flatMap { ISO8601.parse($0) }
        restoredAt = p["restoredAt"]?.stringValue.flatMap { ISO8601.parse($0) }
    }
}

/// The logind lock on sleep as status shows it (docs/protocol.md, "Sleep inhibitor keys").
public struct SleepInhibitorReply: Sendable, Equatable {
    /// The configured mode (`block`, `delay`, `off`).
    public var mode: String
    /// The mode of the lock held now, if any.
    public var held: String?
    /// In words.
    public var state: String

    public init(mode: String, held: String?, state: String) { self.mode = mode; self.held = held; self.state = state }

    public func json() -> JSON {
        var o = JSONObject()
        o["mode"] = .string(mode)
        o["held"] = .string(held)
        o["state"] = .string(state)
        return .object(o)
    }

    public init?(json s: JSON) {
        guard let mode = s["mode"]?.stringValue else { return nil }
        self.mode = mode
        held = s["held"]?.stringValue
        state = s["state"]?.stringValue ?? ""
    }
}

/// A personal best as `stop` and `show` carry it: `{"distanceMeters","seconds","startTime",
/// "previousSeconds"}` (`previousSeconds` null for the first effort at that distance).
public struct PersonalBestReply: Sendable, Equatable {
    public var distanceMeters: Double
    public var seconds: Double
    public var startTime: Double?
    public var previousSeconds: Double?

    public init(_ best: PersonalBest) {
        distanceMeters = best.effort.distanceMeters
        seconds = best.effort.seconds
        startTime = best.effort.startTime
        previousSeconds = best.previous?.seconds
    }

    public func json() -> JSON {
        var o = JSONObject()
        o["distanceMeters"] = .number(distanceMeters)
        o["seconds"] = .number(rounded(seconds, 3))
        o["startTime"] = .string(startTime.map { ISO8601.format($0, fractionDigits: 3) })
        o["previousSeconds"] = .number(previousSeconds.map { rounded($0, 3) })
        return .object(o)
    }

    public init?(json b: JSON) {
        guard let d = b["distanceMeters"]?.doubleValue, let s = b["seconds"]?.doubleValue else { return nil }
        distanceMeters = d
        seconds = s
        startTime = b["startTime"]?.stringValue.flatMap { ISO8601.parse($0) }
        previousSeconds = b["previousSeconds"]?.doubleValue
    }
}
