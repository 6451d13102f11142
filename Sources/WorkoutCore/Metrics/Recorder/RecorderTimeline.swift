/// The recorder's timeline: user and derived events in order, the track's segment, and the
/// dates that keep it from running backwards (the latest fix, the last pause, resume, lap or
/// suspend). Fixes and samples stamped at or before that last user event are late: kept, but
/// adding nothing, so a saved workout rebuilds exactly.
struct RecorderTimeline: Sendable {
    /// User events and derived ones (auto-pause, signal, segments), in order.
    private(set) var events: [WorkoutEvent] = []
    /// Latest time of any recorded fix (-infinity before the first).
    private(set) var lastFixTime = -Double.infinity
    /// The last pause, resume, lap or suspend (-infinity before any).
    private(set) var userEventFloor = -Double.infinity
    /// The track's segment: -1 before the first accepted fix.
    private(set) var segment = -1

    /// User events are moved forward to the last fix's time when they are at most this much
    /// earlier (receiver clock ahead of the daemon's), never further.
    static let maximumClockSkew = 10.0

    /// The segment a rejected or late point is stored in.
    var pointSegment: Int { max(segment, 0) }

    /// Whether something stamped at `t` comes after the last user event (nothing is recorded at
    /// or before it).
    func admits(_ t: Double) -> Bool { t > userEventFloor }

    /// A recorded fix at `t`.
    mutating func fix(at t: Double) { lastFixTime = max(lastFixTime, t) }

    /// A pause, resume, lap or suspend at `t`: nothing stamped at or before it is recorded after.
    mutating func userEvent(at t: Double) { userEventFloor = max(userEventFloor, t) }

    /// Clamps a user time so the timeline never runs backwards: not before `floor` (the accounted
    /// time, the last lap), and not before the last recorded fix unless that fix is implausibly
    /// far ahead.
    func clamp(_ t: Double, floor: Double) -> Double {
        var e = t.isFinite ? max(t, floor) : floor
        if lastFixTime > e && lastFixTime - e <= RecorderTimeline.maximumClockSkew { e = lastFixTime }
        return e
    }

    /// Adds `e` without reporting it (a user event the caller answers for itself).
    mutating func append(_ e: WorkoutEvent) { events.append(e) }

    /// Adds `e` and reports it to `out`.
    mutating func emit(_ e: WorkoutEvent, into out: inout some RecorderEventSink) {
        events.append(e)
        out.append(.timeline(e))
    }

    /// An accepted fix at `t` starts a new segment: the first is the track's start, each later
    /// one is on the timeline. Returns its number.
    @discardableResult
    mutating func startSegment(at t: Double, into out: inout some RecorderEventSink) -> Int {
        segment += 1
        if segment > 0 { emit(WorkoutEvent(kind: .segment, time: t, text: "segment \(segment)"), into: &out) }
        out.append(.segmentStarted(segment))
        return segment
    }
}
