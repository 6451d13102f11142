/// One configured sensor in the `status` reply's `sensors` (docs/sensors.md): written by the
/// daemon's sensor, read by workoutctl, both through `fields`. Reading is tolerant: a missing or
/// odd member is nil.
public struct SensorReply: JSONFields, Sendable, Equatable {
    public var kind: String?
    public var address: String?
    /// The connection's phase (`connected`, `lost`, ...; `SensorConnection.Phase.name`).
    public var state: String?
    public var name: String?
    /// Percent.
    public var battery: Int?
    public var location: String?
    public var services: [String] = []
    public var wheelCircumferenceMm: Int?
    /// UTC seconds the phase began.
    public var since: Double?
    public var problem: String?
    public var badMeasurements = 0

    public init() {}
    public init(kind: String?, address: String?, state: String?) { self.kind = kind; self.address = address; self.state = state }

    public mutating func fields<V: JSONFieldVisitor>(_ v: inout V) {
        v.field("kind", &kind)
        v.field("address", &address)
        v.field("state", &state)
        v.field("name", &name)
        v.field("battery", &battery)
        v.field("location", &location)
        v.field("services", &services)
        v.field("wheelCircumferenceMm", &wheelCircumferenceMm)
        v.field("since", time: &since)
        v.field("problem", &problem)
        v.field("badMeasurements", &badMeasurements)
    }
}

/// One item of the `activities` reply: an activity and the properties workoutctl and
/// integrations show (docs/protocol.md).
public struct ActivityReply: Sendable, Equatable {
    public var name: String
    public var displayName: String
    public var supportsGPS: Bool
    /// What the activity's effort is shown as (`pace`, `speed`, ...).
    public var effort: String

    public init(name: String, displayName: String, supportsGPS: Bool, effort: String) {
        self.name = name; self.displayName = displayName; self.supportsGPS = supportsGPS; self.effort = effort
    }

    /// Tolerant: what is missing is `?`, empty or false.
    public init(json a: JSON) {
        name = a["name"]?.stringValue ?? "?"
        displayName = a["displayName"]?.stringValue ?? ""
        supportsGPS = a["supportsGPS"]?.boolValue ?? false
        effort = a["effort"]?.stringValue ?? ""
    }

    /// The items of an `activities` reply.
    public static func list(_ reply: JSON) -> [ActivityReply] { (reply["activities"]?.arrayValue ?? []).map(ActivityReply.init(json:)) }
}

extension ActivityType {
    /// The activity's item in the `activities` reply: `ActivityReply`'s members, then the
    /// measuring properties (`autoPauseSpeed`, `maxPlausibleSpeed`, `met`, `tcxSport`, `bestEfforts`).
    public func activityReply() -> JSON {
        [
            "name": .string(rawValue), "displayName": .string(displayName), "supportsGPS": .bool(supportsGPS),
            "effort": .string(effortDisplay.rawValue), "autoPauseSpeed": .number(autoPauseSpeed), "maxPlausibleSpeed": .number(maxPlausibleSpeed),
            "met": .number(met), "tcxSport": .string(tcxSport.rawValue), "bestEfforts": .bool(tracksBestEfforts),
        ]
    }
}
