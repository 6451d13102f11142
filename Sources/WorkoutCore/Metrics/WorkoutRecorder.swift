// TEMPORARY SHIM: replaced by the metrics branch's real recorder at merge.
public struct MetricsSettings: Sendable, Equatable { public init() {} }
public enum RecorderEvent: Sendable, Equatable { case accepted, rejected(RejectionReason) }
public struct WorkoutRecorder: Sendable {
    public let id: WorkoutID
    public let activity: ActivityType
    var startedAt: Double
    var points: [TrackPoint] = []
    var events: [WorkoutEvent] = []
    var pausedTotal: Double = 0
    var pausedSince: Double?
    public init(id: WorkoutID, activity: ActivityType, startedAt: Double, settings: MetricsSettings) {
        self.id = id; self.activity = activity; self.startedAt = startedAt
    }
    public mutating func ingest(_ fix: Fix) -> [RecorderEvent] { points.append(TrackPoint(fix: fix)); return [.accepted] }
    public mutating func pause(at t: Double, cause: PauseCause) { pausedSince = t; events.append(WorkoutEvent(kind: .pause, time: t, cause: cause)) }
    public mutating func resume(at t: Double) { if let s = pausedSince { pausedTotal += t - s }; pausedSince = nil; events.append(WorkoutEvent(kind: .resume, time: t)) }
    public mutating func lap(at t: Double) -> LapSummary { events.append(WorkoutEvent(kind: .lap, time: t)); return LapSummary(index: 0, trigger: .manual, startTime: startedAt, endTime: t, elapsedSeconds: 0, movingSeconds: 0, distanceMeters: 0) }
    public mutating func marker(at t: Double, text: String?) { events.append(WorkoutEvent(kind: .marker, time: t, text: text)) }
    public mutating func recovered(at t: Double, gapFrom: Double) { events.append(WorkoutEvent(kind: .recovered, time: t)) }
    public mutating func tick(now: Double) -> [RecorderEvent] { [] }
    public func summary(now: Double) -> WorkoutSummary {
        let end = pausedSince ?? now
        return WorkoutSummary(id: id, activity: activity, startedAt: startedAt, elapsedSeconds: end - startedAt - pausedTotal, pointCount: points.count)
    }
    public func finish(at t: Double) -> Workout {
        var s = summary(now: t); s.endedAt = t
        return Workout(summary: s, points: points, events: events)
    }
}
