extension WorkoutRecorder {
    /// The same workout with every date moved by `seconds` (its start, points, events, heart
    /// rate and sensor readings): dated by a GPS receiver while the system clock is unsynchronized, or back
    /// (docs/time.md). Built again from the moved record (`rebuild`), so durations, distance and
    /// the phase (a pause in progress included) are those of the unmoved workout. The ID follows
    /// the start (`WorkoutID.startingAt`).
    public func shifted(by seconds: Double) -> WorkoutRecorder {
        guard seconds != 0, seconds.isFinite else { return self }
        let moved = points.map { p in
            var q = p
            q.fix.time += seconds
            return q
        }
        let events = events.map { e in
            var f = e
            f.time += seconds
            return f
        }
        let hr = HeartRateSeries(samples: heartRate.samples.map { s in var m = s; m.time += seconds; return m },
                                 rrIntervals: heartRate.rrIntervals.map { r in var m = r; m.time += seconds; return m })
        let sensors = self.sensors.samples.map { s in var m = s; m.time += seconds; return m }
        return WorkoutRecorder.rebuild(id: id.startingAt(startedAt + seconds), activity: activity, startedAt: startedAt + seconds, settings: settings,
                                       points: moved, events: events, heartRate: hr, sensors: sensors)
    }
}
