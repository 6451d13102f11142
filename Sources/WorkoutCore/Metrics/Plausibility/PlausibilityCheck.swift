/// The plausibility model applied to a track as it is recorded: live, replayed after a crash,
/// rebuilt and imported alike (the recorder feeds it every accepted point). Three rules, against
/// the activity's `PlausibilityBounds` (docs/metrics.md, "Plausibility"):
///
/// 1. **speed**: the speed held over the recorder's held span (`SpeedWindow`: twice its 5 s
///    window) above the activity's top speed (its descent speed only where the altitude falls
///    at least 2 %);
/// 2. **acceleration**: the distance from the last plausible point (the anchor; its speed the
///    held speed there, or its step's when faster) farther than
///    the activity can go from the anchor's speed at its acceleration (capped at its top speed,
///    on the flat or, falling since the anchor, downhill), plus `margin` metres of position noise, for `persistence` points in a row. A
///    catch-up after a gap or a stop (the speed before the anchor near 0) is such a stretch
///    however straight, until the track is back within reach;
/// 3. **record** (when the figures are read): a best effort faster than the fastest ever over
///    its distance.
///
/// A stretch outside them is kept in the track; its steps add nothing to the best efforts'
/// distance, and no maximum speed is taken over a window that touches it. Because the rules
/// judge a span after its end, a point's figures wait `horizon` seconds before they count (a
/// read counts the waiting ones on a copy). O(1) amortised per point.
struct PlausibilityCheck: Sendable {
    let bounds: PlausibilityBounds
    /// The default speed window (s): `MetricsSettings.speedWindow`'s.
    static let window = 5.0
    /// Position noise the reach of rule 2 allows (m).
    static let margin = 10.0
    /// Points in a row beyond reach that make a stretch (rule 2).
    static let persistence = 3

    /// A recent point of the current segment: time, the track's cumulative distance, altitude
    /// (NaN for none) and the speed of the step ending there.
    private struct Point: Sendable { var time: Double; var distance: Double; var altitude: Double; var speed: Double }
    private var recent: [Point] = []
    /// The last plausible point: time, track distance, and the speed held there.
    private var anchor: (time: Double, distance: Double, speed: Double, altitude: Double)?
    /// The stretch being extended, and its track distance at the start.
    private var open: (stretch: ImplausibleStretch, startDistance: Double)?
    private var closed: [ImplausibleStretch] = []
    /// Points beyond reach so far (rule 2): since when, how many, the fastest step.
    private var suspect: (from: Double, points: Int, fastest: Double)?
    /// How long a point's figures wait for a later judgement of its step (s): the held span,
    /// and the few points rule 2 waits for.
    var horizon: Double { heldSpan + 5 }

    /// A point's figures waiting `horizon`: its step's share of the workout distance and moving
    /// time (from the point before, `from`), its elapsed clock and wall time, whether it feeds
    /// the best efforts, its held speed (NaN for none), and whether its step or window was
    /// judged implausible.
    private struct Pending: Sendable {
        var time: Double; var from: Double; var increment: Double; var moving: Double; var clock: Double
        var effort: Bool; var held: Double; var flagged: Bool
    }
    private var pending: [Pending] = []
    private var pendingStart = 0
    private var last: (time: Double, distance: Double, moving: Double)?
    /// The implausible steps counted so far, in time order: what laps and splits leave out of
    /// their pace.
    private var excluded: [ExcludedStep] = []
    /// The best efforts' distance: the workout's without the implausible steps.
    private var countedDistance = 0.0
    private var efforts = BestEffortTracker()
    private var maxSpeed = 0.0

    /// The span a held speed is measured over (twice the recorder's speed window).
    let heldSpan: Double

    init(bounds: PlausibilityBounds, heldSpan: Double = 2 * PlausibilityCheck.window) {
        self.bounds = bounds
        self.heldSpan = heldSpan
    }

    /// Whether an implausible stretch ends after `t` (a window from `t` on touches it).
    func touchesStretch(after t: Double) -> Bool {
        guard let last = open?.stretch ?? closed.last else { return false }
        return last.end > t
    }

    mutating func reserveCapacity(_ n: Int) { efforts.reserveCapacity(n) }

    // MARK: - Judging the track

    /// An accepted point of the track (`distance`: the GPS track's cumulative length; `held`:
    /// the speed held over the `heldSpan` ending here, `SpeedWindow`'s, nil until the segment
    /// spans it). Returns whether the step ending here is implausible.
    @discardableResult
    mutating func judge(time t: Double, distance d: Double, altitude: Double?, newSegment: Bool, held: Double?) -> Bool {
        let alt = altitude.flatMap { $0.isFinite ? $0 : nil } ?? .nan
        if newSegment { recent.removeAll(keepingCapacity: true); suspect = nil }
        let step = recent.last.map { p in t > p.time ? (d - p.distance) / (t - p.time) : 0 } ?? 0
        recent.append(Point(time: t, distance: d, altitude: alt, speed: step))
        trimRecent(before: t - 2 * heldSpan)
        var flagged = false
        // Rule 1: the speed held over the span ending here (a median: a glitch's two steps do
        // not hold it), against the top speed on the flat or, falling, downhill.
        if let v = held, let b = recent.lastIndex(where: { $0.time <= t - heldSpan }) {
            let base = recent[b]
            let fall: Double? = base.altitude.isFinite && alt.isFinite ? base.altitude - alt : nil
            let top = bounds.topSpeed(meters: d - base.distance, fall: fall)
            if v > top {
                // From the first step of the span beyond the top (the span's start if none).
                let first = recent[(b + 1)...].firstIndex { $0.speed > top }
                let from = first.map { recent[$0 - 1].time } ?? base.time
                flag(from: from, to: t, reason: .speed, fastest: max(v, recent[(b + 1)...].map(\.speed).max() ?? v))
                flagged = true
            }
        }
        // Rule 2: the reach from the last plausible point, broken for `persistence` points in a
        // row (one or two thrown fixes are noise, not a stretch).
        if newSegment || anchor == nil {
            anchor = (t, d, anchor?.speed ?? 0, alt)
        } else if let a = anchor {
            let fall: Double? = a.altitude.isFinite && alt.isFinite ? a.altitude - alt : nil
            let top = bounds.topSpeed(meters: d - a.distance, fall: fall)
            let reach = PlausibilityCheck.reach(from: a.speed, seconds: t - a.time, acceleration: bounds.acceleration, top: top)
            if d - a.distance > reach + PlausibilityCheck.margin {
                var s = suspect ?? (from: recent.count >= 2 ? recent[recent.count - 2].time : a.time, points: 0, fastest: 0)
                s.points += 1
                s.fastest = max(s.fastest, step)
                suspect = s
                if s.points >= PlausibilityCheck.persistence {
                    flag(from: s.from, to: t, reason: .acceleration, fastest: s.fastest)
                    flagged = true
                }
            } else {
                suspect = nil
                // The speed there: the held speed lags an acceleration by half its span, so the
                // step's own speed when faster (a rider getting going is not a catch-up).
                if !flagged { anchor = (t, d, max(held ?? a.speed, step), alt) }
            }
        }
        if let o = open, t > o.stretch.end + heldSpan {
            closed.append(o.stretch)
            open = nil
        }
        return flagged
    }

    /// The farthest (m) a body goes in `seconds` from `speed`, accelerating at `acceleration` up to `top`.
    static func reach(from speed: Double, seconds: Double, acceleration a: Double, top: Double) -> Double {
        guard seconds > 0 else { return 0 }
        let v0 = min(max(speed, 0), top)
        let toTop = a > 0 ? (top - v0) / a : .infinity
        if seconds <= toTop { return v0 * seconds + 0.5 * a * seconds * seconds }
        return v0 * toTop + 0.5 * a * toTop * toTop + top * (seconds - toTop)
    }

    private mutating func trimRecent(before t: Double) {
        guard recent.count > 64, let k = recent.firstIndex(where: { $0.time >= t }), k > 1 else { return }
        recent.removeFirst(k - 1)
    }

    /// The steps ending in (from, to] are implausible: they join the open stretch (when it ended
    /// at most a window before) or start one; waiting figures in it stop counting.
    private mutating func flag(from: Double, to: Double, reason: ImplausibleReason, fastest: Double) {
        let startDistance = recent.last { $0.time <= from }?.distance ?? recent.first?.distance ?? 0
        let endDistance = recent.last?.distance ?? startDistance
        if var o = open, from <= o.stretch.end + PlausibilityCheck.window {
            if from < o.stretch.start { o.stretch.start = from; o.startDistance = min(o.startDistance, startDistance) }
            o.stretch.seconds = max(o.stretch.end, to) - o.stretch.start
            o.stretch.meters = endDistance - o.startDistance
            o.stretch.speed = max(o.stretch.speed, fastest)
            open = o
        } else {
            if let o = open { closed.append(o.stretch) }
            open = (ImplausibleStretch(start: from, seconds: to - from, meters: endDistance - startDistance, speed: fastest, reason: reason), startDistance)
        }
        for k in pendingStart..<pending.count where pending[k].time > from && pending[k].time <= to {
            pending[k].flagged = true
        }
        // A held speed's window (twice the speed window) must not touch the stretch either.
        for k in pendingStart..<pending.count where pending[k].time > from {
            pending[k].held = .nan
        }
    }

    // MARK: - Counting the figures

    /// The figures of a point: the workout's distance (m), moving time (s, the recorder's
    /// counter, as laps and splits are cut from) and elapsed clock there, its wall time, whether
    /// it feeds the best efforts, and the speed held over the window ending there (nil before
    /// the segment spans it). Counted `horizon` seconds later.
    mutating func count(time t: Double, distance: Double, moving: Double, clock: Double, effort: Bool, held: Double?) {
        let before = last ?? (t, distance, moving)
        last = (t, distance, moving)
        let clean = held.flatMap { touchesStretch(after: t - heldSpan) ? nil : $0 } ?? .nan
        let inStretch = open.map { $0.stretch.start < t && t <= $0.stretch.end } ?? false
        pending.append(Pending(time: t, from: before.time, increment: max(0, distance - before.distance), moving: max(0, moving - before.moving),
                               clock: clock, effort: effort, held: clean, flagged: inStretch))
        commit(before: t - horizon)
    }

    private mutating func commit(before t: Double) {
        while pendingStart < pending.count, pending[pendingStart].time < t {
            let p = pending[pendingStart]
            pendingStart += 1
            if !p.flagged { countedDistance += p.increment }
            if p.flagged && (p.increment > 0 || p.moving > 0) {
                excluded.append(ExcludedStep(from: p.from, to: p.time, meters: p.increment, seconds: p.moving))
            }
            if p.effort { efforts.add(distance: countedDistance, elapsed: p.clock, time: p.time) }
            if p.held.isFinite { maxSpeed = max(maxSpeed, p.held) }
        }
        if pendingStart >= 1024, 2 * pendingStart >= pending.count {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
    }

    // MARK: - Reading

    /// Everything counted (the waiting figures too): best efforts (those faster than the fastest
    /// ever over their distance left out, as stretches of their own), the maximum speed, and
    /// every implausible stretch in time order, and the implausible steps (rules 1 and 2).
    var figures: (efforts: [BestEffort], maxSpeed: Double, stretches: [ImplausibleStretch], excluded: [ExcludedStep]) {
        var c = self
        c.commit(before: .infinity)
        var stretches = c.closed + (c.open.map { [$0.stretch] } ?? [])
        var kept: [BestEffort] = []
        for e in c.efforts.efforts {
            // (An effort of 0 s, a device distance that jumps, has no speed: written as 0.)
            let fastest = bounds.fastestSeconds(meters: e.distanceMeters)
            if e.seconds < fastest * (1 - 1e-9) {
                stretches.append(ImplausibleStretch(start: e.startTime, seconds: e.seconds, meters: e.distanceMeters,
                                                    speed: e.seconds > 0 ? e.distanceMeters / e.seconds : 0, reason: .record))
            } else {
                kept.append(e)
            }
        }
        stretches.sort { $0.start < $1.start }
        return (kept, c.maxSpeed, stretches, c.excluded)
    }
}

/// A step of the track between two accepted points judged implausible (rules 1 and 2): its
/// time span, and the workout distance and moving time it added. Laps and splits leave it out
/// of their pace (`LapSummary.implausibleMeters`, `implausibleSeconds`).
struct ExcludedStep: Sendable, Equatable {
    var from: Double
    var to: Double
    var meters: Double
    var seconds: Double

    /// The steps' distance and moving time inside each of `laps` (a step that straddles a lap's
    /// boundary shared in proportion to its time, as the boundary itself is interpolated), set
    /// on the laps. `steps` and `laps` in time order; O(steps + laps).
    static func leaveOut(_ steps: [ExcludedStep], from laps: inout [LapSummary]) {
        var k = 0
        for i in laps.indices {
            let (a, b) = (laps[i].startTime, laps[i].endTime)
            while k < steps.count && steps[k].to <= a { k += 1 }
            var meters = 0.0, seconds = 0.0
            var j = k
            while j < steps.count && steps[j].from < b {
                let s = steps[j]
                let span = s.to - s.from
                let share = span > 0 ? max(0, min(b, s.to) - max(a, s.from)) / span : (s.to > a && s.to <= b ? 1 : 0)
                meters += s.meters * share
                seconds += s.seconds * share
                j += 1
            }
            laps[i].implausibleMeters = min(meters, laps[i].distanceMeters)
            laps[i].implausibleSeconds = min(seconds, laps[i].movingSeconds)
        }
    }
}
