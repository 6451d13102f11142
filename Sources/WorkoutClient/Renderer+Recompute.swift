import WorkoutCore

extension Renderer {
    /// `recompute`: the workout's numbers before (as saved) and after (recomputed), side by side,
    /// then the splits of both, and whether the result was saved; in the reply's `units`.
    public func recompute(_ r: JSON) -> String {
        guard let before = object(r["before"]), let after = object(r["after"]) else { return "No recomputed workout in the reply.\n" }
        let activity = activityOf(before)
        let u = UnitFormatter(reply: r)
        var s = activityName(before)
        if let start = time(before["startedAt"]) { s += ", " + clock.dateTime(start) }
        if let id = before["id"]?.stringValue { s += " (\(id))" }
        s += "\n"
        let settings = (r["settings"]?.arrayValue ?? []).compactMap(\.stringValue)
        s += "Recomputed with " + (settings.isEmpty ? "the current settings" : settings.joined(separator: ", ")) + ":\n"
        func row(_ label: String, _ f: (JSON) -> String) -> [String] {
            let b = f(before), a = f(after)
            return [label, b, a, a == b ? "" : "changed"]
        }
        var rows: [[String]] = [["", "BEFORE", "AFTER", ""]]
        rows.append(row("Distance") { u.distance(self.num($0["distanceMeters"])) })
        rows.append(row("Elapsed") { Units.duration(self.num($0["elapsedSeconds"])) })
        rows.append(row("Moving") { Units.duration(self.num($0["movingSeconds"])) })
        rows.append(row("Pauses") { String($0["pauseCount"]?.intValue ?? 0) })
        if let label = UnitFormatter.effortLabel(for: activity) {
            rows.append(row(label) { u.effort($0["movingAverageSpeed"]?.doubleValue, for: activity) ?? "-" })
        }
        rows.append(row("Climb") { "+" + u.elevation(self.num($0["elevationGainMeters"])) + " / -" + u.elevation(self.num($0["elevationLossMeters"])) })
        rows.append(row("Points used") { "\($0["acceptedCount"]?.intValue ?? 0) of \($0["pointCount"]?.intValue ?? 0)" })
        rows.append(row("Splits") { String($0["splits"]?.arrayValue?.count ?? 0) })
        rows.append(row("Laps") { String($0["laps"]?.arrayValue?.count ?? 0) })
        s += table(rows, rightAligned: [1, 2])
        let bs = before["splits"]?.arrayValue ?? [], as_ = after["splits"]?.arrayValue ?? []
        if !bs.isEmpty || !as_.isEmpty {
            s += "\nSplits (moving time, before -> after):\n"
            var split: [[String]] = [["#", "BEFORE", "AFTER"]]
            for i in 0..<max(bs.count, as_.count) {
                func cell(_ list: [JSON]) -> String {
                    guard i < list.count else { return "-" }
                    return Units.shortDuration(movingOfSection(list[i])) + "  " + u.distance(num(list[i]["distanceMeters"]))
                }
                split.append([String(i + 1), cell(bs), cell(as_)])
            }
            s += table(split, rightAligned: [0, 1, 2])
        }
        for note in (r["notes"]?.arrayValue ?? []).compactMap(\.stringValue) { s += "\nNote: " + note + "\n" }
        s += r["saved"]?.boolValue == true ? "\nSaved: the workout now has the numbers after.\n"
                                            : "\nNot saved (add --save to keep the numbers after).\n"
        return s
    }
}
