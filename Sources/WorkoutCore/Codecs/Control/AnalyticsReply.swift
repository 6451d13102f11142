/// The `fitness` reply: one item a day and today's date (docs/protocol.md, "Commands"). The
/// daemon writes `members`; workoutctl and the web pages read it back with `init(json:)`.
public struct FitnessReply: Sendable, Equatable {
    public var days: [FitnessDay]
    /// Today's local day, marked in the table; nil when a reply lacks it.
    public var today: StreakDay?

    public init(days: [FitnessDay], today: StreakDay?) { self.days = days; self.today = today }

    public var members: [(String, JSON)] { [("days", .array(days.map { $0.json() })), ("today", .string(today?.iso))] }

    /// Tolerant: a day that does not read is left out.
    public init(json r: JSON) {
        days = (r["days"]?.arrayValue ?? []).compactMap(FitnessDay.init(json:))
        today = r["today"]?.stringValue.flatMap { StreakDay(iso: $0) }
    }
}

/// The `power-curve` reply: the best mean power over each duration in the range, the
/// critical-power model fitted to it (each figure null when it cannot be fitted), and what the
/// daemon measured to answer.
public struct PowerCurveReply: Sendable, Equatable {
    public var curve: [RangePowerPoint]
    /// As sent, rounded: W, J and W (eFTP rounded on its own, not derived from the other two).
    public var criticalPower: Double?
    public var wPrime: Double?
    public var estimatedFTP: Double?
    public var workouts = 0
    public var measured = 0
    public var unreadable: [WorkoutID] = []

    /// The reply for `curve`, with the model fitted to it.
    public init(curve: [RangePowerPoint]) {
        self.curve = curve
        let model = CriticalPowerModel.fit(curve.map { (seconds: $0.seconds, watts: $0.watts) })
        criticalPower = model.map { rounded($0.criticalPower, 1) }
        wPrime = model.map { rounded($0.wPrime, 0) }
        estimatedFTP = model.map { rounded($0.estimatedFTP, 1) }
    }

    public var members: [(String, JSON)] {
        [("curve", .array(curve.map { $0.json() })), ("criticalPower", .number(criticalPower)), ("wPrime", .number(wPrime)),
         ("eFTP", .number(estimatedFTP)), ("workouts", .int(workouts)), ("measured", .int(measured)),
         ("unreadable", .array(unreadable.map { .string($0.rawValue) }))]
    }

    /// Tolerant: a point that does not read is left out, a missing figure is nil.
    public init(json r: JSON) {
        curve = (r["curve"]?.arrayValue ?? []).compactMap(RangePowerPoint.init(json:))
        criticalPower = r["criticalPower"]?.doubleValue
        wPrime = r["wPrime"]?.doubleValue
        estimatedFTP = r["eFTP"]?.doubleValue
        workouts = r["workouts"]?.intValue ?? 0
        measured = r["measured"]?.intValue ?? 0
        unreadable = (r["unreadable"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(WorkoutID.init(rawValue:)) }
    }
}

/// One record of the `records` reply: an activity's best time over a distance or best mean
/// power over a duration, and the workout that holds it.
public struct TrainingRecord: Sendable, Equatable {
    public enum Best: Sendable, Equatable {
        case distance(meters: Double, seconds: Double)
        case power(seconds: Int, watts: Double)
    }

    public var activity: ActivityType
    public var best: Best
    public var id: WorkoutID
    /// The workout's start (UTC seconds).
    public var startedAt: Double

    public init(activity: ActivityType, best: Best, id: WorkoutID, startedAt: Double) {
        self.activity = activity; self.best = best; self.id = id; self.startedAt = startedAt
    }

    /// `{"activity", "kind", "distanceMeters", "seconds"}` or `{"activity", "kind", "seconds",
    /// "watts"}`, then `"id"` and `"startedAt"`.
    public func json() -> JSON {
        var o = JSONObject([("activity", .string(activity.rawValue))])
        switch best {
        case .distance(let meters, let seconds):
            o["kind"] = "distance"; o["distanceMeters"] = .number(meters); o["seconds"] = .number(rounded(seconds, 3))
        case .power(let seconds, let watts):
            o["kind"] = "power"; o["seconds"] = .int(seconds); o["watts"] = .number(rounded(watts, 1))
        }
        o["id"] = .string(id.rawValue)
        o["startedAt"] = .string(ISO8601.format(startedAt, fractionDigits: 3))
        return .object(o)
    }

    /// Nil when the activity, kind, figures, workout or start do not read.
    public init?(json j: JSON) {
        guard let a = j["activity"]?.stringValue.flatMap(ActivityType.init(rawValue:)),
              let id = j["id"]?.stringValue.flatMap(WorkoutID.init(rawValue:)),
              let t = j["startedAt"]?.stringValue.flatMap({ ISO8601.parse($0) }) else { return nil }
        switch j["kind"]?.stringValue {
        case "distance":
            guard let m = j["distanceMeters"]?.doubleValue, let s = j["seconds"]?.doubleValue else { return nil }
            best = .distance(meters: m, seconds: s)
        case "power":
            guard let s = j["seconds"]?.intValue, let w = j["watts"]?.doubleValue else { return nil }
            best = .power(seconds: s, watts: w)
        default:
            return nil
        }
        activity = a; self.id = id; startedAt = t
    }
}

/// The `records` reply: per activity (most workouts first), its distance records (shortest
/// first), then its power records (shortest first).
public struct RecordsReply: Sendable, Equatable {
    public var records: [TrainingRecord]

    public init(records: [TrainingRecord]) { self.records = records }

    public var members: [(String, JSON)] { [("records", .array(records.map { $0.json() }))] }

    /// Tolerant: a record that does not read is left out.
    public init(json r: JSON) { records = (r["records"]?.arrayValue ?? []).compactMap(TrainingRecord.init(json:)) }
}
