import WorkoutCore

extension Renderer {
    /// `recompute`: the workout's numbers before (as saved) and after (recomputed), side by side,
    /// then the splits of both, and whether the result was saved; in the reply's `units`.
    public func recompute(_ r: JSON) -> String {
        guard let reply = RecomputeReply(json: r) else { return "No recomputed workout in the reply.\n" }
        let before = reply.before, after = reply.after
        let activity = before.activity
        let u = UnitFormatter(reply: r)
        var s = activity.displayName + ", " + clock.dateTime(before.startedAt) + " (\(before.id.rawValue))\n"
        let settings = reply.settings
        s += "Recomputed with " + (settings.isEmpty ? "the current settings" : settings.joined(separator: ", ")) + ":\n"
        func row(_ label: String, _ f: (WorkoutSummary) -> String) -> [String] {
            let b = f(before), a = f(after)
            return [label, b, a, a == b ? "" : "changed"]
        }
        // The pause count is not a summary figure: the reply adds it beside each.
        let pauses = [String(reply.pauseCounts.before), String(reply.pauseCounts.after)]
        var rows: [[String]] = [["", "BEFORE", "AFTER", ""]]
        rows.append(row("Distance") { u.distance($0.distanceMeters) })
        rows.append(row("Elapsed") { Units.duration($0.elapsedSeconds) })
        rows.append(row("Moving") { Units.duration($0.movingSeconds) })
        rows.append(["Pauses", pauses[0], pauses[1], pauses[0] == pauses[1] ? "" : "changed"])
        if let label = UnitFormatter.effortLabel(for: activity) {
            rows.append(row(label) { u.effort($0.movingAverageSpeed, for: activity) ?? "-" })
        }
        rows.append(row("Climb") { "+" + u.elevation($0.elevationGainMeters) + " / -" + u.elevation($0.elevationLossMeters) })
        rows.append(row("Points used") { "\($0.acceptedCount) of \($0.pointCount)" })
        rows.append(row("Splits") { String($0.splits.count) })
        rows.append(row("Laps") { String($0.laps.count) })
        s += table(rows, rightAligned: [1, 2])
        let bs = before.splits, as_ = after.splits
        if !bs.isEmpty || !as_.isEmpty {
            s += "\nSplits (moving time, before -> after):\n"
            var split: [[String]] = [["#", "BEFORE", "AFTER"]]
            for i in 0..<max(bs.count, as_.count) {
                func cell(_ list: [LapSummary]) -> String {
                    guard i < list.count else { return "-" }
                    return Units.shortDuration(movingOfSection(list[i])) + "  " + u.distance(list[i].distanceMeters)
                }
                split.append([String(i + 1), cell(bs), cell(as_)])
            }
            s += table(split, rightAligned: [0, 1, 2])
        }
        for note in reply.notes { s += "\nNote: " + note + "\n" }
        s += reply.saved ? "\nSaved: the workout now has the numbers after.\n"
                                            : "\nNot saved (add --save to keep the numbers after).\n"
        return s
    }
}
