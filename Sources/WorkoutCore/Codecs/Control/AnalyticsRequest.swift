/// A range of local days, either end open (`--from`, `--to`).
public struct DayRange: Sendable, Equatable {
    public var from: StreakDay?
    public var to: StreakDay?
    public init(from: StreakDay? = nil, to: StreakDay? = nil) { self.from = from; self.to = to }
}

/// The requests about the whole history's training (docs/protocol.md): `fitness`,
/// `power-curve` and `records`. Answered from the saved summaries, never a workout file.
public enum AnalyticsRequest: Sendable, Equatable {
    /// Load, fitness, fatigue and form per local day.
    case fitness(DayRange)
    /// The best mean power per duration over the workouts in range, and its critical-power model.
    case powerCurve(ActivityType?, DayRange)
    /// Best times over the standard distances and best powers, per activity.
    case records(ActivityType?)

    public var commandName: String {
        switch self {
        case .fitness: return "fitness"
        case .powerCurve: return "power-curve"
        case .records: return "records"
        }
    }

    /// The request's members besides `command`.
    func encode(into o: inout JSONObject) {
        switch self {
        case .fitness(let r): r.encode(into: &o)
        case .powerCurve(let a, let r):
            if let a { o["activity"] = .string(a.rawValue) }
            r.encode(into: &o)
        case .records(let a): if let a { o["activity"] = .string(a.rawValue) }
        }
    }

    /// The request named `command`; nil when `command` is none of these.
    static func decode(_ command: String, _ obj: JSONObject,
                       activity: () -> Result<ActivityType?, ProtocolError>) -> Result<AnalyticsRequest, ProtocolError>? {
        switch command {
        case "fitness": return DayRange.decode(obj).map { .fitness($0) }
        case "power-curve": return activity().flatMap { a in DayRange.decode(obj).map { .powerCurve(a, $0) } }
        case "records": return activity().map { .records($0) }
        default: return nil
        }
    }
}

extension DayRange {
    func encode(into o: inout JSONObject) {
        if let from { o["from"] = .string(from.iso) }
        if let to { o["to"] = .string(to.iso) }
    }

    /// `"from"` and `"to"` as `YYYY-MM-DD` (either absent or null), `from` not after `to`.
    static func decode(_ obj: JSONObject) -> Result<DayRange, ProtocolError> {
        var r = DayRange()
        for (k, target) in [("from", \DayRange.from), ("to", \DayRange.to)] as [(String, WritableKeyPath<DayRange, StreakDay?>)] {
            guard let v = obj[k], !v.isNull else { continue }
            guard let s = v.stringValue, let day = StreakDay(iso: s) else {
                return .failure(.badRequest("\"\(k)\" must be a date YYYY-MM-DD, not \(v.serialized())"))
            }
            r[keyPath: target] = day
        }
        if let f = r.from, let t = r.to, f > t { return .failure(.badRequest("\"from\" \(f.iso) is after \"to\" \(t.iso)")) }
        return .success(r)
    }
}
