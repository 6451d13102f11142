extension FITActivityFile {
    /// The timer's stopped spans: from a stop to the next start (the last stop without a start
    /// runs to the end).
    public var timerPauses: [Importer.Span] {
        var out: [Importer.Span] = []
        var stoppedAt: Double?
        for e in timerEvents.sorted(by: { $0.time < $1.time }) {
            switch e.change {
            case .started:
                if let s = stoppedAt, e.time > s { out.append(Importer.Span(start: s, end: e.time)) }
                stoppedAt = nil
            case .stopped:
                if stoppedAt == nil { stoppedAt = e.time }
            }
        }
        if let s = stoppedAt { out.append(Importer.Span(start: s, end: .infinity)) }
        return out
    }

    /// The activity of a session, else of the file's first `sport` message.
    func activity(of session: FITSpan?) -> ActivityType? {
        if let s = session, let sport = s.sport { return ActivityType(fitSport: sport, subSport: s.subSport) }
        if let s = sports.first { return ActivityType(fitSport: s.sport, subSport: s.subSport) }
        return nil
    }

    /// The file as tracks to import, one per session. Records without a position give only
    /// their heart rate (`Track.heartRate`; one without heart rate is a gap): a session with
    /// heart rate and no position is an indoor workout.
    ///
    /// Multisport rule: with several sessions, each record goes to the session whose
    /// [start_time, end] holds it (the earlier one at a shared boundary); sessions whose sport is
    /// `transition` (3) are dropped with their records (the walk from the water to the bike is
    /// not a workout), as are sessions with neither a positioned record nor heart rate. With one session or none,
    /// every record belongs to the one workout.
    public func tracks() -> [Importer.Track] {
        let pauses = timerPauses
        var notes: [String] = []
        if let t = truncatedAt { notes.append("cut short at byte \(t): kept the whole messages before it (no CRC to check)") }
        let lapList = laps.sorted { $0.startTime < $1.startTime }
        func track(_ fixes: [Fix], _ heartOnly: [HeartRateSample], _ session: FITSpan?, label: String?) -> Importer.Track? {
            guard !fixes.isEmpty || heartOnly.contains(where: { $0.bpm != nil }) else { return nil }
            let inside = lapList.filter { l in session.map { l.startTime >= $0.startTime - 1 && l.endTime <= $0.endTime + 1 } ?? true }
            return Importer.Track(fixes: fixes, activity: activity(of: session), origin: .device, format: .fit,
                                  startTime: session?.startTime, endTime: session?.endTime, pauses: pauses,
                                  lapEnds: inside.dropLast().map(\.endTime), label: label,
                                  notes: fixes.isEmpty ? notes + [Importer.heartRateOnlyNote] : notes, heartRate: heartOnly)
        }
        let ordered = sessions.sorted { $0.startTime < $1.startTime }
        if ordered.count <= 1 {
            // The decoded arrays themselves (shared, not copied).
            return track(fixes, heartRateOnly, ordered.first, label: nil).map { [$0] } ?? []
        }
        // Each session takes the records whose time falls in it, in time order (a stable sort:
        // records of the same second keep their file order). Which session a record goes to
        // depends on its time alone, so fixes and heart-rate records are split apart, alike.
        var out: [Importer.Track] = []
        let sortedFixes = fixes.sorted { $0.time < $1.time }
        let sortedHeart = heartRateOnly.sorted { $0.time < $1.time }
        var f = 0, h = 0
        for (k, s) in ordered.enumerated() {
            while f < sortedFixes.count, sortedFixes[f].time < s.startTime { f += 1 }
            while h < sortedHeart.count, sortedHeart[h].time < s.startTime { h += 1 }
            let fromFix = f, fromHeart = h
            while f < sortedFixes.count, sortedFixes[f].time <= s.endTime { f += 1 }
            while h < sortedHeart.count, sortedHeart[h].time <= s.endTime { h += 1 }
            if s.sport == 3 { continue }
            let name = activity(of: s)?.rawValue ?? "sport \(s.sport.map { String($0) } ?? "unknown")"
            if let t = track(Array(sortedFixes[fromFix..<f]), Array(sortedHeart[fromHeart..<h]), s,
                             label: "session \(k + 1) of \(ordered.count) (\(name))") { out.append(t) }
        }
        return out
    }
}
