/// The `totals` reply's object read back: the decoders beside `PeriodTotals.json()`,
/// `PeriodSums.json()` and `GearSums.json()` (docs/protocol.md, "Commands"), so workoutctl
/// reads what the daemon wrote with the same types.
extension PeriodTotals {
    /// Nil without a known period and both periods' days.
    public init?(json t: JSON) {
        guard let p = t["per"]?.stringValue, let per = TotalsPeriod(rawValue: p),
              let current = t["current"].flatMap(PeriodSums.init(json:)), let previous = t["previous"].flatMap(PeriodSums.init(json:)) else {
            return nil
        }
        self.per = per
        activity = t["activity"]?.stringValue.flatMap(ActivityType.init(rawValue:))
        self.current = current
        self.previous = previous
        gear = (t["gear"]?.arrayValue ?? []).compactMap(GearSums.init(json:))
    }
}

extension PeriodSums {
    /// Nil without its first and last day.
    public init?(json p: JSON) {
        guard let start = p["start"]?.stringValue.flatMap({ StreakDay(iso: $0) }),
              let end = p["end"]?.stringValue.flatMap({ StreakDay(iso: $0) }) else { return nil }
        self.init(start: start, end: end)
        count = p["count"]?.intValue ?? 0
        distanceMeters = p["distanceMeters"]?.doubleValue ?? 0
        movingSeconds = p["movingSeconds"]?.doubleValue ?? 0
        elevationGainMeters = p["elevationGainMeters"]?.doubleValue ?? 0
    }
}

extension GearSums {
    /// Nil without a name.
    public init?(json g: JSON) {
        guard let name = g["name"]?.stringValue else { return nil }
        self.init(name: name)
        count = g["count"]?.intValue ?? 0
        distanceMeters = g["distanceMeters"]?.doubleValue ?? 0
        movingSeconds = g["movingSeconds"]?.doubleValue ?? 0
        firstUsed = g["firstUsed"]?.stringValue.flatMap { ISO8601.parse($0) } ?? .infinity
        lastUsed = g["lastUsed"]?.stringValue.flatMap { ISO8601.parse($0) } ?? -.infinity
    }
}
