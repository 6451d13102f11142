/// What happened when the recorder was told something.
public enum RecorderEvent: Sendable, Equatable {
    /// The fix was accepted into the track (see `summary` for the distance).
    case accepted
    /// The fix was kept with this reason and adds nothing.
    case rejected(RejectionReason)
    /// The fix arrived while the workout was paused by the user: not recorded.
    case ignoredWhilePaused
    /// The fix is stamped at or before the last pause, resume or lap although it arrived after
    /// it: not recorded, so that a saved workout rebuilds exactly (see docs/metrics.md).
    case ignoredLate
    /// A new track segment began (its index).
    case segmentStarted(Int)
    /// An entry of the workout's timeline (motion paused/resumed, signal lost/regained, pause,
    /// resume, lap, marker, segment, recovered), exactly as appended to `events`.
    case timeline(WorkoutEvent)
    /// A split (every km or mile) closed.
    case splitCompleted(LapSummary)
    /// A lap (manual, automatic by distance, or the last one at the end) closed.
    case lapCompleted(LapSummary)
}

/// THE accumulator of a workout: used live (fix by fix), to restore after a crash (the journal
/// replayed through the same calls) and to recompute saved or imported workouts
/// (`rebuild`/`recompute`). Pure: every time is an argument; no clock, no I/O.
///
/// Ingest is O(1) amortised; the point and event arrays only grow, so the struct can be mutated
/// in place for a day at 10 Hz. Every rule is in docs/metrics.md.
public struct WorkoutRecorder: Sendable {
    public let id: WorkoutID
    public let activity: ActivityType
    public let startedAt: Double
    public let settings: MetricsSettings
    /// Every ingested fix, accepted or rejected, in arrival order (stored compactly, losslessly).
    public private(set) var points = TrackPointStore()
    /// The timeline: user events and derived ones (auto-pause, signal, segments).
    public private(set) var events: [WorkoutEvent] = []

    private var filter: FixFilter
    // Time accounting: every second since the start belongs to exactly one bucket.
    private enum Signal: Sendable { case acquiring, lost, ok }
    private var signal: Signal
    private var manualPausedSince: Double?
    /// Whether the runner is moving or auto-paused (stopped without the user pausing).
    private var motion = Motion.moving
    private var accountedUntil: Double
    private var movingSeconds = 0.0
    private var autoPausedSeconds = 0.0
    private var signalLostSeconds = 0.0
    private var manualPausedSeconds = 0.0
    /// Last fix showing a usable position (accepted or stationary jitter).
    private var lastEvidence: Double
    /// Last accepted fix that moved (start of a potential stop).
    private var lastMove: Double
    /// While auto-paused: mean position of the stop (sums of latitude, longitude and count) and
    /// the first fix seen beyond the resume radius.
    private var stopSum = (lat: 0.0, lon: 0.0, n: 0.0)
    private var resumeCandidate: (fix: Fix, distance: Double, before: Double)?
    /// Latest time of any recorded fix, and of the last pause, resume or lap.
    private var lastFixTime = -Double.infinity
    private var userEventFloor = -Double.infinity
    /// User events are moved forward to the last fix's time when they are at most this much
    /// earlier (receiver clock ahead of the daemon's), never further.
    static let maximumClockSkew = 10.0
    private var segment = -1
    private var distance = 0.0
    private var acceptedCount = 0
    private var rejectedByReason: [RejectionReason: Int] = [:]
    private var elevation: ElevationAccumulator
    private var efforts = BestEffortTracker()
    // Accepted points for speeds: wall time and cumulative distance.
    private var accTime: [Double] = []
    private var accDist: [Double] = []
    private var speedPointer = 0
    private var segmentStartIndex = 0
    private var lastWindowSpeed: Double?
    private var maxSpeed = 0.0
    // Splits and laps.
    private var splits: [LapSummary] = []
    private var laps: [LapSummary] = []
    private var splitOpen: IntervalStart
    private var lapOpen: IntervalStart
    private var lastSnapshot: Snapshot

    /// Cumulative counters at one instant, for interpolating lap and split boundaries.
    private struct Snapshot: Sendable {
        var time: Double
        var elapsed: Double
        var moving: Double
        var distance: Double
        var gain: Double
    }

    /// Where a lap or split began, and what it has seen so far.
    private struct IntervalStart: Sendable {
        var snapshot: Snapshot
        var maxSpeed = 0.0
        var heartRateSum = 0
        var heartRateCount = 0
        var heartRateMax: Int?
    }

    public init(id: WorkoutID, activity: ActivityType, startedAt: Double, settings: MetricsSettings = MetricsSettings()) {
        self.id = id
        self.activity = activity
        self.startedAt = startedAt
        self.settings = settings
        filter = FixFilter(activity: activity, settings: settings, startedAt: startedAt)
        signal = activity.supportsGPS ? .acquiring : .ok
        accountedUntil = startedAt
        lastEvidence = startedAt
        lastMove = startedAt
        elevation = ElevationAccumulator(window: settings.elevationSmoothingWindow, threshold: settings.elevationHysteresis)
        let s = Snapshot(time: startedAt, elapsed: 0, moving: 0, distance: 0, gain: 0)
        splitOpen = IntervalStart(snapshot: s)
        lapOpen = IntervalStart(snapshot: s)
        lastSnapshot = s
    }

    // MARK: - Time accounting

    private var autoPauseEnabled: Bool {
        activity.supportsGPS && settings.autoPauseDelay != nil && activity.autoPauseSpeed != nil
    }

    /// Seconds without movement that make a stop, for a given stationary radius.
    private func stopDelay(radius: Double) -> Double {
        guard let d = settings.autoPauseDelay, let v = activity.autoPauseSpeed, v > 0 else { return .infinity }
        return max(d, radius / v)
    }

    /// Puts [accountedUntil, t] in the bucket of the current state.
    private mutating func account(until t: Double) {
        let dt = t - accountedUntil
        guard dt > 0 else { return }
        if manualPausedSince != nil { manualPausedSeconds += dt }
        else if signal != .ok { signalLostSeconds += dt }
        else if motion.isStopped { autoPausedSeconds += dt }
        else { movingSeconds += dt }
        accountedUntil = t
    }

    private mutating func emit(_ e: WorkoutEvent, into out: inout [RecorderEvent]) {
        events.append(e)
        out.append(.timeline(e))
    }

    /// Notices a signal loss that began at the last usable fix, if `t` is past the timeout.
    private mutating func detectSignalLoss(at t: Double, into out: inout [RecorderEvent]) {
        guard activity.supportsGPS, manualPausedSince == nil, signal == .ok,
              t - lastEvidence > settings.signalLostTimeout else { return }
        let l = max(lastEvidence, accountedUntil)
        account(until: l)
        if motion.isStopped {
            motion = .moving
            emit(WorkoutEvent(kind: .motionResumed, time: l, cause: .auto, text: "closed by signal loss"), into: &out)
        }
        signal = .lost
        emit(WorkoutEvent(kind: .signalLost, time: l, cause: .signalLost, text: "no usable fix for more than \(Int(settings.signalLostTimeout)) s"), into: &out)
        filter.restart(warmUp: true)
    }

    /// Brings the state forward to `now` without a fix: notices signal loss. Call it about once
    /// a second; a fix is not needed for the loss to be reported.
    @discardableResult
    public mutating func tick(now: Double) -> [RecorderEvent] {
        var out: [RecorderEvent] = []
        detectSignalLoss(at: now, into: &out)
        return out
    }

    // MARK: - Fixes

    /// Records one fix (accepted or rejected with its reason) and updates every number.
    @discardableResult
    public mutating func ingest(_ fix: Fix) -> [RecorderEvent] {
        var out: [RecorderEvent] = []
        if manualPausedSince != nil { return [.ignoredWhilePaused] }
        if fix.time.isFinite {
            if fix.time <= userEventFloor { return [.ignoredLate] }
            lastFixTime = max(lastFixTime, fix.time)
        }
        if fix.time.isFinite { detectSignalLoss(at: fix.time, into: &out) }
        var decision = filter.evaluate(fix, minimumMove: motion.isStopped ? .infinity : 0)
        if motion.isStopped, decision == .rejected(.stationaryJitter), confirmsDeparture(fix) {
            decision = filter.acceptMovement(fix)
        }
        switch decision {
        case .rejected(let reason):
            points.append(TrackPoint(fix: fix, rejection: reason, segment: max(segment, 0)))
            rejectedByReason[reason, default: 0] += 1
            out.append(.rejected(reason))
            if reason == .stationaryJitter { stationary(fix, into: &out) }
        case .accepted(let d, let newSegment):
            accepted(fix, distance: d, newSegment: newSegment, into: &out)
        }
        return out
    }

    /// Resume rule while auto-paused: a fix at least `max(autoResumeDistance, 2 x radius)` from
    /// the mean position of the stop is a candidate; the departure is confirmed by a fix at least
    /// 1 s later, still beyond, and farther from the stop by `autoPauseSpeed` x the time between
    /// them. Any fix back inside the radius cancels the candidate. This stops pause/resume loops
    /// on receiver noise.
    private mutating func confirmsDeparture(_ fix: Fix) -> Bool {
        guard stopSum.n > 0 else { return true }
        let d = Geodesic.wgs84.distance(latitude1: stopSum.lat / stopSum.n, longitude1: stopSum.lon / stopSum.n,
                                        latitude2: fix.latitude, longitude2: fix.longitude)
        let r = max(settings.autoResumeDistance, 2 * filter.radius(for: fix))
        guard d >= r else { resumeCandidate = nil; return false }
        guard let c = resumeCandidate else { resumeCandidate = (fix, d, lastEvidence); return false }
        let dt = fix.time - c.fix.time
        if dt >= 1 && d >= c.distance + (activity.autoPauseSpeed ?? 0) * dt { return true }
        if d < c.distance { resumeCandidate = (fix, d, c.before) }
        return false
    }

    /// A fix showing no movement: evidence of signal, and perhaps of a stop.
    private mutating func stationary(_ fix: Fix, into out: inout [RecorderEvent]) {
        guard signal == .ok else { return }
        lastEvidence = max(lastEvidence, fix.time)
        if motion.isStopped {
            stopSum.lat += fix.latitude; stopSum.lon += fix.longitude; stopSum.n += 1
        } else if autoPauseEnabled && fix.time - lastMove >= stopDelay(radius: filter.radius(for: fix)) {
            account(until: lastMove)
            motion = .stopped
            stopSum = (fix.latitude, fix.longitude, 1)
            if let a = filter.lastAccepted { stopSum.lat += a.latitude; stopSum.lon += a.longitude; stopSum.n += 1 }
            resumeCandidate = nil
            emit(WorkoutEvent(kind: .motionPaused, time: lastMove, cause: .auto), into: &out)
        }
    }

    private mutating func accepted(_ fix: Fix, distance d: Double, newSegment: Bool, into out: inout [RecorderEvent]) {
        let t = fix.time
        if signal != .ok {
            account(until: t)
            if signal == .lost { emit(WorkoutEvent(kind: .signalRegained, time: t), into: &out) }
            signal = .ok
            lastMove = t
        } else if motion.isStopped {
            let resumeAt = min(t, max(accountedUntil, resumeCandidate?.before ?? lastEvidence))
            account(until: resumeAt)
            motion = .moving
            resumeCandidate = nil
            emit(WorkoutEvent(kind: .motionResumed, time: resumeAt, cause: .auto), into: &out)
        }
        account(until: t)
        lastEvidence = max(lastEvidence, t)
        lastMove = t
        if newSegment {
            segment += 1
            segmentStartIndex = accTime.count
            if segment > 0 {
                emit(WorkoutEvent(kind: .segment, time: t, text: "segment \(segment)"), into: &out)
            }
            out.append(.segmentStarted(segment))
        }
        points.append(TrackPoint(fix: fix, rejection: nil, segment: segment))
        acceptedCount += 1
        out.append(.accepted)
        let before = lastSnapshot
        distance += d
        if let alt = fix.altitude { elevation.add(alt) }
        accTime.append(t)
        accDist.append(distance)
        efforts.add(distance: distance, elapsed: t - startedAt - manualPausedSeconds, time: t)
        // Windowed speed: over at least `speedWindow` seconds inside the segment.
        let j = accTime.count - 1
        if speedPointer < segmentStartIndex { speedPointer = segmentStartIndex }
        while speedPointer + 1 < j && accTime[speedPointer + 1] <= t - settings.speedWindow { speedPointer += 1 }
        lastWindowSpeed = nil
        if speedPointer < j && accTime[speedPointer] <= t - settings.speedWindow {
            let v = (distance - accDist[speedPointer]) / (t - accTime[speedPointer])
            lastWindowSpeed = v
            maxSpeed = max(maxSpeed, v)
            splitOpen.maxSpeed = max(splitOpen.maxSpeed, v)
            lapOpen.maxSpeed = max(lapOpen.maxSpeed, v)
        }
        if let hr = fix.heartRate {
            for k in 0..<2 {
                var iv = k == 0 ? splitOpen : lapOpen
                iv.heartRateSum += hr; iv.heartRateCount += 1; iv.heartRateMax = max(iv.heartRateMax ?? hr, hr)
                if k == 0 { splitOpen = iv } else { lapOpen = iv }
            }
        }
        let now = Snapshot(time: t, elapsed: t - startedAt - manualPausedSeconds, moving: movingSeconds, distance: distance, gain: elevation.gain)
        lastSnapshot = now
        closeDistanceIntervals(from: before, to: now, into: &out)
    }

    // MARK: - Splits and laps

    private func interpolated(_ a: Snapshot, _ b: Snapshot, atDistance x: Double) -> Snapshot {
        let span = b.distance - a.distance
        let phi = span > 0 ? min(1, max(0, (x - a.distance) / span)) : 1
        func lerp(_ u: Double, _ v: Double) -> Double { u + phi * (v - u) }
        return Snapshot(time: lerp(a.time, b.time), elapsed: lerp(a.elapsed, b.elapsed), moving: lerp(a.moving, b.moving),
                        distance: x, gain: lerp(a.gain, b.gain))
    }

    private func summary(of iv: IntervalStart, to end: Snapshot, index: Int, trigger: LapTrigger) -> LapSummary {
        let s = iv.snapshot
        let moving = end.moving - s.moving
        return LapSummary(index: index, trigger: trigger, startTime: s.time, endTime: end.time,
                          elapsedSeconds: end.elapsed - s.elapsed, movingSeconds: moving,
                          distanceMeters: end.distance - s.distance, elevationGainMeters: end.gain - s.gain,
                          maxSpeed: iv.maxSpeed, calories: calories(movingSeconds: moving) ?? 0,
                          averageHeartRate: iv.heartRateCount > 0 ? Int((Double(iv.heartRateSum) / Double(iv.heartRateCount)).rounded()) : nil,
                          maxHeartRate: iv.heartRateMax)
    }

    private mutating func closeDistanceIntervals(from a: Snapshot, to b: Snapshot, into out: inout [RecorderEvent]) {
        let unit = settings.splitUnit.meters
        while b.distance >= Double(splits.count + 1) * unit {
            let at = interpolated(a, b, atDistance: Double(splits.count + 1) * unit)
            let split = summary(of: splitOpen, to: at, index: splits.count, trigger: .distance)
            splits.append(split)
            out.append(.splitCompleted(split))
            splitOpen = IntervalStart(snapshot: at)
        }
        if let lapDistance = settings.autoLapDistance, lapDistance > 0 {
            while b.distance >= lapOpen.snapshot.distance + lapDistance {
                let at = interpolated(a, b, atDistance: lapOpen.snapshot.distance + lapDistance)
                let lap = summary(of: lapOpen, to: at, index: laps.count, trigger: .distance)
                laps.append(lap)
                out.append(.lapCompleted(lap))
                lapOpen = IntervalStart(snapshot: at)
            }
        }
    }

    /// The counters as they stand at `t` (open time attributed as it would be at `t`).
    private func snapshot(at t: Double) -> Snapshot {
        var c = self
        var ignored: [RecorderEvent] = []
        c.detectSignalLoss(at: t, into: &ignored)
        c.account(until: max(t, c.accountedUntil))
        return Snapshot(time: t, elapsed: t - startedAt - c.manualPausedSeconds, moving: c.movingSeconds, distance: c.distance, gain: c.elevation.gain)
    }

    /// Clamps a user time so the timeline never runs backwards: not before the accounted time,
    /// and not before the last recorded fix unless that fix is implausibly far ahead.
    private func clamp(_ t: Double) -> Double {
        var e = t.isFinite ? max(t, accountedUntil, lastSnapshot.time) : max(accountedUntil, lastSnapshot.time)
        if lastFixTime > e && lastFixTime - e <= WorkoutRecorder.maximumClockSkew { e = lastFixTime }
        return e
    }

    /// Closes the current lap at `t` (manual lap) and returns it.
    @discardableResult
    public mutating func lap(at time: Double) -> LapSummary {
        let t = clamp(time)
        userEventFloor = max(userEventFloor, t)
        let lap = summary(of: lapOpen, to: snapshot(at: t), index: laps.count, trigger: .manual)
        laps.append(lap)
        lapOpen = IntervalStart(snapshot: snapshot(at: t))
        events.append(WorkoutEvent(kind: .lap, time: t))
        return lap
    }

    /// Adds a marker to the timeline.
    public mutating func marker(at time: Double, text: String?) {
        events.append(WorkoutEvent(kind: .marker, time: clamp(time), text: text))
    }

    // MARK: - Pause and resume

    /// Pauses the workout (user request, or `.recovered` while the daemon was down): the time
    /// until `resume` is excluded from elapsed and moving time, and fixes are ignored.
    @discardableResult
    public mutating func pause(at time: Double, cause: PauseCause) -> [RecorderEvent] {
        guard manualPausedSince == nil else { return [] }
        let t = clamp(time)
        userEventFloor = max(userEventFloor, t)
        var out: [RecorderEvent] = []
        detectSignalLoss(at: t, into: &out)
        account(until: t)
        if motion.isStopped {
            motion = .moving
            emit(WorkoutEvent(kind: .motionResumed, time: t, cause: .auto, text: "closed by pause"), into: &out)
        }
        manualPausedSince = t
        emit(WorkoutEvent(kind: .pause, time: t, cause: cause), into: &out)
        return out
    }

    /// Resumes after `pause`. The next accepted fix starts a new segment (nothing is added for
    /// where the user went while paused).
    @discardableResult
    public mutating func resume(at time: Double) -> [RecorderEvent] {
        guard manualPausedSince != nil else { return [] }
        let t = clamp(time)
        userEventFloor = max(userEventFloor, t)
        var out: [RecorderEvent] = []
        account(until: t)
        manualPausedSince = nil
        if activity.supportsGPS && signal == .ok { signal = .acquiring }
        lastMove = t
        lastEvidence = max(lastEvidence, t)
        filter.restart(warmUp: signal == .lost)
        emit(WorkoutEvent(kind: .resume, time: t), into: &out)
        return out
    }

    /// The machine was suspended from `from` to `to` (docs/time.md): a gap on the timeline that
    /// counts in elapsed time. For a GPS activity the signal is lost at its start (the gap is
    /// `signalLostSeconds`, never moving time, and no distance bridges it: the next fixes warm up
    /// again); a manual pause in progress just continues. Fixes stamped before `from` that
    /// arrive later are dropped, as after a user event.
    @discardableResult
    public mutating func suspended(from: Double, to: Double) -> [RecorderEvent] {
        let f = clamp(from)
        return markSuspended(at: f, text: "system suspended for \(ClockOffsetText.amount(max(0, to - f)))")
    }

    private mutating func markSuspended(at f: Double, text: String?) -> [RecorderEvent] {
        var out: [RecorderEvent] = []
        userEventFloor = max(userEventFloor, f)
        if activity.supportsGPS, manualPausedSince == nil, signal == .ok {
            account(until: f)
            if motion.isStopped {
                motion = .moving
                emit(WorkoutEvent(kind: .motionResumed, time: f, cause: .auto, text: "closed by suspend"), into: &out)
            }
            signal = .lost
            emit(WorkoutEvent(kind: .signalLost, time: f, cause: .signalLost, text: "system suspended"), into: &out)
            filter.restart(warmUp: true)
        }
        emit(WorkoutEvent(kind: .suspended, time: f, text: text), into: &out)
        return out
    }

    /// Notes on the timeline that the daemon restored this workout at `t` after being down since
    /// `gapFrom` (the caller pauses with cause `.recovered` first).
    public mutating func recovered(at time: Double, gapFrom: Double) {
        let t = clamp(time)
        events.append(WorkoutEvent(kind: .recovered, time: t, cause: .recovered,
                                   text: "gap of \(Int(max(0, t - gapFrom).rounded())) s while the daemon was down"))
    }

    // MARK: - Results

    private func calories(movingSeconds: Double) -> Double? {
        guard let w = settings.bodyWeightKilograms, w > 0 else { return nil }
        return activity.met * w * movingSeconds / 3600
    }

    /// Every number of the workout as it stands at `now` (live), without changing the recorder.
    public func summary(now: Double) -> WorkoutSummary {
        var c = self
        var ignored: [RecorderEvent] = []
        let t = max(now, c.accountedUntil)
        c.detectSignalLoss(at: t, into: &ignored)
        c.account(until: t)
        let elapsed = t - startedAt - c.manualPausedSeconds
        var current: Double?
        if c.manualPausedSince == nil && c.signal == .ok && !c.motion.isStopped, let j = c.accTime.indices.last,
           c.speedPointer < j, c.speedPointer >= c.segmentStartIndex {
            let span = c.lastEvidence - c.accTime[c.speedPointer]
            if span >= settings.speedWindow { current = (c.distance - c.accDist[c.speedPointer]) / span }
        }
        return WorkoutSummary(
            id: id, activity: activity, startedAt: startedAt, endedAt: nil,
            elapsedSeconds: elapsed, movingSeconds: c.movingSeconds, distanceMeters: c.distance,
            elevationGainMeters: c.elevation.gain, elevationLossMeters: c.elevation.loss,
            pointCount: c.points.count, acceptedCount: c.acceptedCount, rejectedByReason: c.rejectedByReason,
            averageSpeed: elapsed > 0 ? c.distance / elapsed : 0,
            movingAverageSpeed: c.movingSeconds > 0 ? c.distance / c.movingSeconds : 0,
            currentSpeed: current, maxSpeed: c.maxSpeed, calories: c.calories(movingSeconds: c.movingSeconds),
            signalLostSeconds: c.signalLostSeconds, splits: c.splits, laps: c.laps,
            bestEfforts: activity.tracksBestEfforts ? c.efforts.efforts : [])
    }

    /// Seconds spent auto-paused (no movement) up to `now`; elapsed = moving + auto-paused +
    /// signal lost.
    public func autoPausedSeconds(now: Double) -> Double {
        var c = self
        var ignored: [RecorderEvent] = []
        let t = max(now, c.accountedUntil)
        c.detectSignalLoss(at: t, into: &ignored)
        c.account(until: t)
        return c.autoPausedSeconds
    }

    /// Ends the workout at `t`: closes the open motion pause, the last lap (trigger `.end`) and
    /// the last partial split, and returns the whole workout.
    public func finish(at time: Double) -> Workout { finishRecording(at: time).workout }

    /// `finish(at:)` without copying the points out of the recorder's store (cheap for a long
    /// workout; what the daemon hands to its saver).
    public func finishRecording(at time: Double) -> RecordedWorkout {
        var c = self
        let t = c.clamp(time)
        var out: [RecorderEvent] = []
        c.detectSignalLoss(at: t, into: &out)
        let end = c.snapshot(at: t)
        if end.elapsed - c.lapOpen.snapshot.elapsed > 0 || end.distance > c.lapOpen.snapshot.distance || c.laps.isEmpty {
            c.laps.append(c.summary(of: c.lapOpen, to: end, index: c.laps.count, trigger: .end))
        }
        if end.distance > c.splitOpen.snapshot.distance {
            c.splits.append(c.summary(of: c.splitOpen, to: end, index: c.splits.count, trigger: .end))
        }
        var s = c.summary(now: t)
        s.endedAt = t
        return RecordedWorkout(summary: s, points: c.points, events: c.events)
    }

    // MARK: - Rebuilding saved and imported workouts

    /// Rebuilds a recorder from a saved workout's points and events: the points are ingested
    /// again in their stored order, with the user's events (pause, resume, lap, marker,
    /// recovered) interleaved by time: an event goes before the first point stamped after it.
    /// The live recorder guarantees this order (user events are never stamped before a fix
    /// already recorded, and late fixes are dropped), so with the same settings the result equals
    /// the live recorder's. Derived events (auto-pause, signal, segments) are recomputed.
    public static func rebuild(id: WorkoutID, activity: ActivityType, startedAt: Double, settings: MetricsSettings = MetricsSettings(),
                               points: some Sequence<TrackPoint>, events: [WorkoutEvent]) -> WorkoutRecorder {
        var r = WorkoutRecorder(id: id, activity: activity, startedAt: startedAt, settings: settings)
        let user = events.filter { [.pause, .resume, .lap, .marker, .recovered, .suspended].contains($0.kind) }
            .enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var e = 0
        var lastPause: Double?
        func apply(_ ev: WorkoutEvent, to r: inout WorkoutRecorder) {
            switch ev.kind {
            case .pause: r.pause(at: ev.time, cause: ev.cause ?? .manual); lastPause = ev.time
            case .resume: r.resume(at: ev.time)
            case .lap: r.lap(at: ev.time)
            case .marker: r.marker(at: ev.time, text: ev.text)
            case .recovered: r.recovered(at: ev.time, gapFrom: lastPause ?? ev.time)
            case .suspended: _ = r.markSuspended(at: ev.time, text: ev.text)
            case .motionPaused, .motionResumed, .segment, .signalLost, .signalRegained: break  // derived from the points
            }
        }
        for p in points {
            let t = p.fix.time
            while e < user.count, t.isFinite, user[e].time < t {
                apply(user[e], to: &r); e += 1
            }
            r.ingest(p.fix)
        }
        while e < user.count { apply(user[e], to: &r); e += 1 }
        return r
    }

    /// The summary of a saved or imported workout recomputed with `settings`, ended at `endedAt`
    /// (default: the later of the last point and the last event).
    public static func recompute(id: WorkoutID, activity: ActivityType, startedAt: Double, endedAt: Double? = nil,
                                 settings: MetricsSettings = MetricsSettings(), points: [TrackPoint],
                                 events: [WorkoutEvent] = []) -> Workout {
        let r = rebuild(id: id, activity: activity, startedAt: startedAt, settings: settings, points: points, events: events)
        let last = max(points.map(\.fix.time).filter(\.isFinite).max() ?? startedAt, events.map(\.time).max() ?? startedAt)
        return r.finish(at: endedAt ?? last)
    }
}

/// Movement as the recorder sees it: auto-pause is the `stopped` case.
enum Motion: Sendable {
    case moving
    case stopped

    var isStopped: Bool {
        switch self {
        case .moving: return false
        case .stopped: return true
        }
    }
}
