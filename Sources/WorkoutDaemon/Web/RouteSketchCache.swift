import Synchronization
import WorkoutCore

/// Each saved workout's thinned route (`RouteSketch`) for `/heatmap`, read from its file the
/// first time the page is asked for and kept for the next (at most `RouteSketch.maximumPoints`
/// points of 8 bytes a workout): nothing is held before, and a later request reads only the
/// workouts saved or changed since. An entry is used while its summary is unchanged.
final class RouteSketchCache: Sendable {
    struct Key: Equatable {
        var endedAt: Double?
        var pointCount: Int
        var acceptedCount: Int
        var activity: ActivityType
        init(_ s: WorkoutSummary) { endedAt = s.endedAt; pointCount = s.pointCount; acceptedCount = s.acceptedCount; activity = s.activity }
    }

    private let entries = Mutex<[WorkoutID: (key: Key, sketch: RouteSketch?)]>([:])

    /// Whether a workout may have a route to draw: an activity with GPS and accepted fixes.
    static func mayHaveRoute(_ s: WorkoutSummary) -> Bool { s.activity.supportsGPS && s.acceptedCount >= 2 }

    /// The sketches of `summaries` (those with a route), from the cache, else `load`ed, and the
    /// number read from files now. A workout that cannot be read is left out (and asked again).
    func sketches(of summaries: [WorkoutSummary], load: (WorkoutID) throws -> Workout) -> (sketches: [RouteSketch], read: Int) {
        var out: [RouteSketch] = []
        var read = 0
        for s in summaries where Self.mayHaveRoute(s) {
            let key = Key(s)
            if let hit = entries.withLock({ $0[s.id] }), hit.key == key {
                if let sk = hit.sketch { out.append(sk) }
                continue
            }
            guard let w = try? load(s.id) else { continue }
            read += 1
            let sketch = RouteSketch(w)
            entries.withLock { $0[s.id] = (key, sketch) }
            if let sketch { out.append(sketch) }
        }
        return (out, read)
    }
}
