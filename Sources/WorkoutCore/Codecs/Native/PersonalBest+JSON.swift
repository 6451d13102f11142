/// A personal best as the `stop` and `show` replies carry it (SI: metres, seconds):
/// `{"distanceMeters","seconds","startTime","previousSeconds"}`, `previousSeconds` null for
/// the first effort at that distance.
extension PersonalBest {
    public func json() -> JSON {
        var o = JSONObject()
        o["distanceMeters"] = .number(effort.distanceMeters)
        o["seconds"] = .number(rounded(effort.seconds, 3))
        o["startTime"] = .string(ISO8601.format(effort.startTime, fractionDigits: 3))
        o["previousSeconds"] = .number(previous.map { rounded($0.seconds, 3) })
        return .object(o)
    }
}
