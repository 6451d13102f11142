/// THE accumulator of a workout: used live (fix by fix), to restore after a crash (the journal
/// replayed through the same calls) and to recompute saved or imported workouts
/// (`rebuild`/`recompute`). Pure: every time is an argument; no clock, no I/O.
///
/// It feeds small machines, each in its own file and tested alone: `AutoPause` (the phase, the
/// only place a pause is stored, where each second goes, and when a stop begins and ends),
/// `RecorderTimeline` (events, segments, late fixes), `FixFilter` (which fixes extend the track),
/// `DistanceTally` (track and odometer), `SpeedWindow`, `IntervalTracker` (splits and laps),
/// `ElevationAccumulator`, `PlausibilityCheck`, the sensors (`HeartRateTrack`, `SensorTrack`,
/// `FixSamples`), `EnergyTally`, `TooFastWatch`, and `TrackPointStore` (every fix, kept).
///
/// Ingest is O(1) amortised; the point and event arrays only grow, so the struct can be mutated
/// in place for a day at 10 Hz. Every rule is in docs/metrics.md.
public struct WorkoutRecorder: Sendable {
    public let id: WorkoutID
    public let activity: ActivityType
    public let startedAt: Double
    /// The rules in force; those a workout follows live can change while it records
    /// (`changeSettings`, a reload).
    public private(set) var settings: MetricsSettings
    /// Every ingested fix, accepted or rejected, in arrival order (stored compactly, losslessly).
    public private(set) var points = TrackPointStore()
    /// The timeline: user events and derived ones (auto-pause, signal, segments).
    public var events: [WorkoutEvent] { timeline.events }

    private var motion: AutoPause
    private var timeline = RecorderTimeline()
    private var filter: FixFilter
    private var distances = DistanceTally()
    private var counts = FixCounts()
    private var elevation: ElevationAccumulator
    /// The plausibility model (`PlausibilityCheck`): implausible stretches, and the best efforts
    /// and maximum speed without them.
    private var plausibility: PlausibilityCheck
    /// `activity.tracksBestEfforts`, asked once (the tracker is fed only when the summary shows it).
    private let tracksBestEfforts: Bool
    /// `activity.profile`, built once: every `ActivityType` property builds the whole profile
    /// again, and the per-fix rules ask for `supportsGPS`, `autoPauseSpeed` and `maxPlausibleSpeed`.
    private let profile: ActivityProfile
    private var speeds: SpeedWindow
    private var intervals: IntervalTracker
    /// Heart rate recorded beside the fixes (strap, feed HR lines): samples with gaps, RR
    /// intervals, and the figures of the workout, open lap and open split.
    public private(set) var heartRate: HeartRateTrack
    /// Power, cadence, speed and distance from Bluetooth sensors (or an imported file's records):
    /// samples with gaps and their figures. An indoor activity takes its distance from it.
    public private(set) var sensors: SensorTrack
    /// Heart rate, power and cadence carried by accepted fixes (imports, FIX lines).
    private var fixSamples: FixSamples
    /// Work from power and the energy model's figure for the moving stretches (calories).
    private var energy: EnergyTally
    /// Fixes too fast for the activity (`too_fast`, or accepted while the speed over the speed
    /// window is above the activity's highest plausible speed), and the warning once noticed.
    private var tooFastWatch = TooFastWatch.counting(run: 0)

    public init(id: WorkoutID, activity: ActivityType, startedAt: Double, settings: MetricsSettings = MetricsSettings()) {
        self.id = id
        self.activity = activity
        self.startedAt = startedAt
        self.settings = settings
        filter = FixFilter(activity: activity, settings: settings, startedAt: startedAt)
        energy = EnergyTally(activity: activity)
        tracksBestEfforts = activity.tracksBestEfforts
        profile = activity.profile
        motion = AutoPause(startedAt: startedAt, supportsGPS: profile.supportsGPS, speed: profile.autoPauseSpeed,
                           delay: settings.autoPauseDelay)
        elevation = ElevationAccumulator(window: settings.elevationSmoothingWindow, threshold: settings.elevationHysteresis,
                                         maxVerticalSpeed: activity.plausibility.descentSpeed)
        speeds = SpeedWindow(window: settings.speedWindow)
        plausibility = PlausibilityCheck(bounds: activity.plausibility, heldSpan: 2 * settings.speedWindow)
        let weight = settings.bodyWeightKilograms.flatMap { $0 > 0 ? $0 : nil }
        intervals = IntervalTracker(startedAt: startedAt, splitUnit: settings.splitUnit.meters,
                                    autoLapDistance: settings.autoLapDistance, caloriesPerHour: weight.map { activity.met * $0 })
        intervals.calorieInputs = (activity.met, settings.bodyProfile)
        heartRate = HeartRateTrack(zones: settings.heartRateZones, profile: settings.bodyProfile)
        sensors = SensorTrack(ftp: settings.ftpWatts)
        fixSamples = FixSamples(ftp: settings.ftpWatts)
    }

    // MARK: - Questions

    /// The user's pause (or a restore's), if the workout is paused: since when and why.
    public var userPause: UserPause? { motion.phase.userPause }

    /// The latest time of any fix recorded so far (nil before the first).
    public var latestFixTime: Double? { timeline.lastFixTime.isFinite ? timeline.lastFixTime : nil }

    /// Whether the workout is paused by the user (fixes are not recorded).
    public var isPaused: Bool { userPause != nil }

    /// The workout's distance: the GPS track's, or the odometer's once one reads.
    var distance: Double { distances.total }

    /// Fixes arriving far faster than the activity allows, once noticed (`SpeedWarning`).
    public var speedWarning: SpeedWarning? { tooFastWatch.warning }

    /// Room for `n` more fixes (an import knows how many it will ingest): the point store and the
    /// per-point series grow once instead of doubling their way up.
    public mutating func reserveCapacity(fixes n: Int) {
        points.reserveCapacity(points.count + n)
        if tracksBestEfforts { plausibility.reserveCapacity(n) }
        speeds.reserveCapacity(n)
    }

    /// Room for `n` more heart-rate samples (an import knows how many records carry one).
    public mutating func reserveCapacity(heartRateSamples n: Int) { heartRate.reserveCapacity(n) }

    /// The last distance the fix filter measured and between which positions (reused by the
    /// importer's speed check for the same pair).
    var lastMeasured: MeasuredPair { filter.lastMeasured }

    // MARK: - Time accounting

    /// A stop recognised at `fix`: it began at the last movement.
    private mutating func beginStop(at fix: Fix, into out: inout some RecorderEventSink) {
        let since = motion.beginStop(at: fix, fallback: filter.lastAccepted)
        timeline.emit(WorkoutEvent(kind: .motionPaused, time: since, cause: .auto), into: &out)
    }

    /// Notices a signal loss that began at the last usable fix, if `t` is past the timeout.
    private mutating func detectSignalLoss(at t: Double, into out: inout some RecorderEventSink) {
        guard let since = motion.signalLoss(at: t, timeout: settings.signalLostTimeout) else { return }
        loseSignal(at: since, closing: "closed by signal loss",
                   text: "no usable fix for more than \(Int(settings.signalLostTimeout)) s", into: &out)
    }

    /// Enters `.signalLost` at `t`: time accounted up to `t`, an auto-pause closed (its
    /// motion-resumed event says `closing`), a signal-lost event with `text`, the filter warming up again.
    private mutating func loseSignal(at t: Double, closing: String, text: String, into out: inout some RecorderEventSink) {
        if motion.loseSignal(at: t) {
            timeline.emit(WorkoutEvent(kind: .motionResumed, time: t, cause: .auto, text: closing), into: &out)
        }
        timeline.emit(WorkoutEvent(kind: .signalLost, time: t, cause: .signalLost, text: text), into: &out)
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
        ingest(fix, into: &out)
        return out
    }

    /// `ingest(_:)` appending what happened to `out`: a bulk caller (import, rebuild) reuses one
    /// array for every fix instead of allocating one per fix.
    public mutating func ingest(_ fix: Fix, into out: inout [RecorderEvent]) {
        ingest(fix, reportingTo: &out)
    }

    /// `ingest(_:into:)` reporting to any sink (`DiscardedRecorderEvents` for a bulk caller that
    /// reads only the result). `known`: a geodesic already measured to this fix (`FixFilter.evaluate`).
    mutating func ingest(_ fix: Fix, reportingTo out: inout some RecorderEventSink, known: MeasuredPair = .none) {
        if isPaused { out.append(.ignoredWhilePaused); return }
        if fix.time.isFinite {
            if !timeline.admits(fix.time) { recordLate(fix); out.append(.rejected(.late)); return }
            timeline.fix(at: fix.time)
            detectSignalLoss(at: fix.time, into: &out)
        }
        // While stopped, a receiver's fixes inside the stop are jitter; a track measured without
        // a radius (a device's) keeps every point, and only the departure rule ends the stop.
        let everyPoint = settings.stationaryRadius <= 0
        let stopped = motion.phase.isAutoPaused
        var decision = filter.evaluate(fix, minimumMove: stopped && !everyPoint ? .infinity : 0, known: known)
        var stillStopped = false
        if stopped {
            let radius = max(settings.autoResumeDistance, 2 * filter.radius(for: fix))
            switch decision {
            case .rejected(.stationaryJitter):
                if motion.confirmsDeparture(fix, radius: radius) { decision = filter.acceptMovement(fix) }
            case .accepted(_, newSegment: false) where everyPoint:
                if !motion.confirmsDeparture(fix, radius: radius) {
                    stillStopped = true
                    stationary(fix, into: &out)  // evidence of the stop; the point keeps its distance
                }
            case .rejected, .accepted:
                break
            }
        }
        switch decision {
        case .rejected(let reason):
            points.append(fix, rejection: reason, segment: timeline.pointSegment)
            counts.reject(reason)
            out.append(.rejected(reason))
            if reason == .stationaryJitter { stationary(fix, into: &out) }
            if reason == .tooFast { tooFast(at: fix.time, into: &out) }
        case .accepted(let d, let newSegment):
            accepted(fix, distance: d, newSegment: newSegment, stillStopped: stillStopped, into: &out)
        }
    }

    /// A fix stamped at or before the last pause, resume or lap that arrived after it: kept and
    /// counted, adding nothing (no distance, no evidence of signal or of a stop), so that the
    /// timeline never runs backwards and a saved workout still rebuilds exactly.
    private mutating func recordLate(_ fix: Fix) {
        points.append(TrackPoint(fix: fix, rejection: .late, segment: timeline.pointSegment))
        counts.reject(.late)
    }

    /// An imported fix whose time is an outlier (`ImportTimeJudge`): kept and counted, adding
    /// nothing (not even to the latest fix time: its time is not to be believed).
    public mutating func recordTimeOutlier(_ fix: Fix) {
        points.append(TrackPoint(fix: fix, rejection: .timeOutlier, segment: timeline.pointSegment))
        counts.reject(.timeOutlier)
    }

    /// Records a stored point again (`rebuild`): a point kept as late is late again whatever
    /// the user events around it, every other is ingested.
    mutating func reingest(_ point: TrackPoint) {
        switch point.rejection {
        case .late?: recordLate(point.fix)
        case .timeOutlier?: recordTimeOutlier(point.fix)
        case nil, .noFix?, .lowAccuracy?, .nullIsland?, .warmUp?, .tooFast?, .outOfOrder?, .stationaryJitter?, .invalidPosition?:
            var discarded = DiscardedRecorderEvents()
            ingest(point.fix, reportingTo: &discarded)
        }
    }

    /// One more fix too fast for the activity: a run of them means the fixes come far faster than
    /// the activity allows (said once, when the recent median speed is above it too).
    private mutating func tooFast(at t: Double, into out: inout some RecorderEventSink) {
        guard tooFastWatch.tooFast() else { return }
        let recent = points.suffix(SpeedWarning.window).lazy.filter { $0.isOnTrack || $0.rejection == .tooFast }.map(\.fix)
        guard let v = TrackSpeedCheck(fixes: recent, segments: repeatElement(0, count: SpeedWarning.window)).medianMovingSpeed,
              v > activity.maxPlausibleSpeed else { return }
        let w = SpeedWarning(medianSpeed: v, activity: activity, time: t)
        tooFastWatch.warn(w)
        out.append(.tooFastForActivity(w))
    }

    /// A fix showing no movement: evidence of signal, and perhaps of a stop.
    private mutating func stationary(_ fix: Fix, into out: inout some RecorderEventSink) {
        if motion.stationary(fix, radius: filter.radius(for: fix)) { beginStop(at: fix, into: &out) }
    }

    /// What an accepted fix shows of movement (the energy model counts the stretches).
    private enum Movement {
        /// None (standing, inside a stop, paused).
        case none
        /// The first fix of a moving stretch (after acquiring, a signal loss, a stop, a new segment).
        case starts
        /// Movement continuing a moving stretch.
        case continues
        /// No movement for the stop delay: a stop begins at this fix.
        case stopDue
    }

    /// An accepted fix. `stillStopped`: a point of a track measured without a radius that lies
    /// inside an auto-pause (it adds its distance; the stop goes on).
    private mutating func accepted(_ fix: Fix, distance d: Double, newSegment: Bool, stillStopped: Bool = false,
                                   into out: inout some RecorderEventSink) {
        let t = fix.time
        var movement = Movement.none
        switch motion.phase {
        case .autoPaused where stillStopped:
            break
        case .acquiring, .signalLost, .autoPaused:
            switch motion.start(fix) {
            case .regained(let at)?: timeline.emit(WorkoutEvent(kind: .signalRegained, time: at), into: &out)
            case .resumed(let at)?: timeline.emit(WorkoutEvent(kind: .motionResumed, time: at, cause: .auto), into: &out)
            case .acquired?, nil: break
            }
            movement = .starts
        case .moving:
            if newSegment || motion.showsMovement(fix, measured: filter.lastMeasured) {
                motion.moved(fix)
                movement = newSegment ? .starts : .continues
            } else {
                if motion.stopIsDue(at: t, radius: filter.radius(for: fix)) { movement = .stopDue }
            }
        case .paused:
            break  // `ingest` records nothing while paused
        }
        motion.evidence(at: t)
        if newSegment {
            speeds.startSegment()
            timeline.startSegment(at: t, into: &out)
        }
        points.append(fix, rejection: nil, segment: timeline.segment)
        counts.accept()
        out.append(.accepted)
        distances.addTrack(d)
        let distance = distances.total
        if newSegment && timeline.segment > 0 { elevation.startSegment() }
        if let alt = fix.altitude { elevation.add(alt, at: t) }
        let v = speeds.add(time: t, distance: distance, latitude: fix.latitude, longitude: fix.longitude, receiverSpeed: fix.speed)
        let time = motion.time
        if profile.supportsGPS { plausibility.judge(time: t, distance: distances.track, altitude: fix.altitude, newSegment: newSegment, held: v?.sustained) }
        plausibility.count(time: t, distance: distance, moving: time.moving, clock: t - startedAt - time.userPaused,
                           effort: tracksBestEfforts, held: v?.sustained)
        if let v {
            if !plausibility.touchesStretch(after: t - 2 * settings.speedWindow) { intervals.add(speed: v.sustained) }
            if v.mean > profile.maxPlausibleSpeed { tooFast(at: t, into: &out) } else { tooFastWatch.plausible() }
        }
        if let hr = fix.heartRate, heartRate.accepts(bpm: hr) {
            intervals.add(heartRate: hr)
            fixSamples.add(heartRate: hr)
        }
        // Power and cadence checked once, counted in the workout, the open split and lap.
        let countedPower = SampleStats.counted(power: fix.power), countedCadence = SampleStats.counted(cadence: fix.cadence)
        fixSamples.add(countedPower: countedPower, countedCadence: countedCadence, at: t)
        energy.power(countedPower, at: t)
        switch movement {
        case .none, .stopDue: break
        case .starts: energy.moved(at: t, distance: distance, altitude: fix.altitude, continuing: false)
        case .continues: energy.moved(at: t, distance: distance, altitude: fix.altitude, continuing: true)
        }
        intervals.add(countedPower: countedPower, countedCadence: countedCadence)
        let now = RecorderSnapshot(time: t, elapsed: t - startedAt - time.userPaused, moving: time.moving, distance: distance, gain: elevation.gain)
        intervals.advance(to: now, heartRate: &heartRate, into: &out)
        switch movement {
        case .stopDue: beginStop(at: fix, into: &out)
        case .none, .starts, .continues: break
        }
    }

    // MARK: - Heart rate

    /// Records a heart-rate reading (strap or feed line). Ignored while paused, and when stamped
    /// at or before the last pause, resume or lap (as late fixes are: a saved workout rebuilds
    /// exactly); nil then.
    @discardableResult
    public mutating func heartRate(time t: Double, bpm: Int, rr: [UInt16] = []) -> HeartRateOutcome? {
        guard !isPaused, t.isFinite, timeline.admits(t), t >= startedAt else { return nil }
        return heartRate.add(time: t, bpm: bpm, rr: rr)
    }

    /// The heart rate stopped at `t` (no skin contact, strap lost): a gap, never the last value.
    @discardableResult
    public mutating func heartRateGap(at t: Double) -> Bool {
        guard !isPaused, t.isFinite, timeline.admits(t) else { return false }
        return heartRate.gap(at: t)
    }

    // MARK: - Device and sensor distance

    /// A reading of the distance a device or sensor measured since the start (a FIT record's
    /// `distance`, a pool's lengths, a wheel sensor): from the first reading on, the workout's
    /// distance is the odometer's (`distanceSource`; the GPS track's length is kept beside it,
    /// `gpsDistanceMeters`). A reading at the same time as a fix goes before it. Ignored when
    /// stamped before the start or at or before the last pause, resume or lap (as heart rate
    /// is: a saved workout rebuilds exactly); while paused it moves the base only.
    public mutating func odometer(time t: Double, meters: Double, source: DistanceSource) {
        guard t.isFinite, meters.isFinite, meters >= 0, t >= startedAt, timeline.admits(t) else { return }
        let added = distances.read(OdometerReading(time: t, meters: meters), source: source, counting: !isPaused)
        guard added > 0 else { return }
        // Without positions nothing else moves the intervals, speeds and efforts on.
        if !profile.supportsGPS {
            var discarded = DiscardedRecorderEvents()
            advanceWithoutFix(at: t, into: &discarded)
        }
    }

    /// Room for `n` more odometer readings (an import knows how many it will give).
    public mutating func reserveCapacity(odometerReadings n: Int, source: DistanceSource) {
        distances.reserveOdometer(n, source: source)
    }

    /// What `accepted` does for a fix's time and distance, for a workout without positions.
    private mutating func advanceWithoutFix(at t: Double, into out: inout some RecorderEventSink) {
        motion.movedWithoutPosition(at: t)
        let time = motion.time
        let v = speeds.add(time: t, distance: distance)
        plausibility.count(time: t, distance: distance, moving: time.moving, clock: t - startedAt - time.userPaused,
                           effort: tracksBestEfforts, held: v?.sustained)
        if let v { intervals.add(speed: v.sustained) }
        let now = RecorderSnapshot(time: t, elapsed: t - startedAt - time.userPaused, moving: time.moving, distance: distance, gain: elevation.gain)
        intervals.advance(to: now, heartRate: &heartRate, into: &out)
    }

    // MARK: - Power, cadence, speed and distance sensors

    /// Records a sensor reading, under the same rules as heart rate (nil while paused, or stamped
    /// at or before the last pause, resume or lap). Its power and cadence count in the open lap
    /// and split; an indoor activity (no GPS) adds its distance to the workout's, and its laps
    /// and splits follow that distance.
    @discardableResult
    public mutating func sensorReading(time t: Double, source: SensorSource, reading: SensorReading) -> SensorOutcome? {
        var discarded = DiscardedRecorderEvents()
        return sensorReading(time: t, source: source, reading: reading, reportingTo: &discarded)
    }

    /// `sensorReading` appending what happened (a split or an automatic lap) to `out`.
    @discardableResult
    public mutating func sensorReading(time t: Double, source: SensorSource, reading: SensorReading,
                                       into out: inout [RecorderEvent]) -> SensorOutcome? {
        sensorReading(time: t, source: source, reading: reading, reportingTo: &out)
    }

    mutating func sensorReading(time t: Double, source: SensorSource, reading: SensorReading,
                                reportingTo out: inout some RecorderEventSink) -> SensorOutcome? {
        guard !isPaused, t.isFinite, timeline.admits(t), t >= startedAt else { return nil }
        let outcome = sensors.add(time: t, source: source, reading: reading)
        guard case .recorded(let taken) = outcome else { return outcome }
        intervals.add(countedPower: taken.power, countedCadence: taken.cadence.map { Int($0.rounded()) }.flatMap { $0 > 0 ? $0 : nil })
        if !profile.supportsGPS, distances.addSensor(taken.distance) {
            advanceWithoutFix(at: t, into: &out)
        }
        return outcome
    }

    /// A sensor source stopped at `t` (dropped out, closed): a gap in its readings.
    @discardableResult
    public mutating func sensorGap(at t: Double, source: SensorSource) -> Bool {
        guard !isPaused, t.isFinite, timeline.admits(t) else { return false }
        return sensors.gap(at: t, source: source)
    }

    /// Power, cadence, speed and sensor distance of the summary at `t` (`finished`: the held
    /// readings counted to the end and the last second analysed). Where the fixes carry power
    /// or cadence (a device file's records), theirs stand: the sensor track then holds only the
    /// records without a position (a ride's first seconds before the GPS), and its 0 W from 125
    /// such records had replaced the 102 W of 13,346 (the shared ELEMNT ride).
    private func addSensors(to s: inout WorkoutSummary, at t: Double, finished: Bool) {
        let track = finished ? sensors.finished(at: t) : sensors
        if fixSamples.power.count > 0 {
            // The analysis of the power the averages come from (before: none for such a file).
            let held = finished ? fixSamples.held.finished(at: t) : fixSamples.held.seconds
            Self.addPowerAnalysis(held.analysis, work: held.work, to: &s)
        } else if track.hasPower {
            s.averagePower = track.averagePower(at: t)
            s.maxPower = track.maxPower
            Self.addPowerAnalysis(track.analysis, work: track.work, to: &s)
        }
        if fixSamples.cadence.count == 0, let c = track.averageCadence(at: t) { s.averageCadence = c }
        if !isPaused && !finished {
            s.power = track.current(.power, at: t).map { Int($0.rounded()) }
            s.cadence = track.current(.cadence, at: t).map { Int($0.rounded()) }
        }
        if profile.supportsGPS {
            // Outdoors GPS keeps the distance; a wheel or footpod gives the speed of the moment.
            if !isPaused && !finished, let v = track.current(.speed, at: t) { s.currentSpeed = v }
        } else if track.hasDistance && distances.odometer == nil {
            s.distanceSource = .sensor
            s.maxSpeed = max(s.maxSpeed, track.maxSpeed ?? 0)
            s.currentSpeed = isPaused || finished ? nil : track.current(.speed, at: t)
        }
    }

    /// The analysis the finished summary's power figures come from (`addSensors`); nil without
    /// power. `PowerCurve.of` reads a saved workout's whole power curve from it.
    public func finishedPowerAnalysis(at t: Double) -> PowerAnalysis? {
        if fixSamples.power.count > 0 { return fixSamples.held.finished(at: t).analysis }
        let track = sensors.finished(at: t)
        return track.hasPower ? track.analysis : nil
    }

    /// Normalized power, intensity, training stress, work, zones and the power curve.
    private static func addPowerAnalysis(_ a: PowerAnalysis, work: Double, to s: inout WorkoutSummary) {
        s.normalizedPower = a.normalizedPower
        s.intensityFactor = a.intensityFactor
        s.trainingStress = a.trainingStress
        s.trainingStressMethod = a.trainingStress == nil ? nil : .power
        s.workKilojoules = work / 1000
        if let z = a.zones {
            s.powerZoneBounds = z.lowerBounds
            s.powerZoneSeconds = a.zoneSeconds
        }
        s.powerCurve = a.curve
    }

    // MARK: - User events

    /// The counters as they stand at `t` (open time attributed as it would be at `t`).
    private func snapshot(at t: Double) -> RecorderSnapshot {
        var c = self
        var ignored: [RecorderEvent] = []
        c.detectSignalLoss(at: t, into: &ignored)
        c.motion.account(until: max(t, c.motion.time.accountedUntil))
        let time = c.motion.time
        return RecorderSnapshot(time: t, elapsed: t - startedAt - time.userPaused, moving: time.moving, distance: c.distance, gain: c.elevation.gain)
    }

    /// Clamps a user time so the timeline never runs backwards: not before the accounted time,
    /// and not before the last recorded fix unless that fix is implausibly far ahead.
    private func clamp(_ t: Double) -> Double {
        timeline.clamp(t, floor: max(motion.time.accountedUntil, intervals.last.time))
    }

    /// How many laps are closed so far (a plan's step notes where its laps begin).
    public var lapCount: Int { intervals.laps.count }

    /// Closes the current lap at `t` (manual lap) and returns it.
    @discardableResult
    public mutating func lap(at time: Double) -> LapSummary {
        let t = clamp(time)
        timeline.userEvent(at: t)
        let lap = intervals.lap(at: snapshot(at: t), heartRate: &heartRate)
        timeline.append(WorkoutEvent(kind: .lap, time: t))
        return lap
    }

    /// Adds a marker to the timeline.
    public mutating func marker(at time: Double, text: String?) {
        timeline.append(WorkoutEvent(kind: .marker, time: clamp(time), text: text))
    }

    /// Pauses the workout (user request, or `.recovered` while the daemon was down): the time
    /// until `resume` is excluded from elapsed and moving time, and fixes are ignored.
    @discardableResult
    public mutating func pause(at time: Double, cause: PauseCause) -> [RecorderEvent] {
        guard !isPaused else { return [] }
        let t = clamp(time)
        timeline.userEvent(at: t)
        var out: [RecorderEvent] = []
        detectSignalLoss(at: t, into: &out)
        if motion.pause(at: t, cause: cause).isAutoPaused {
            timeline.emit(WorkoutEvent(kind: .motionResumed, time: t, cause: .auto, text: "closed by pause"), into: &out)
        }
        heartRate.gap(at: t)
        sensors.gapAll(at: t)
        fixSamples.end(at: t)
        timeline.emit(WorkoutEvent(kind: .pause, time: t, cause: cause), into: &out)
        return out
    }

    /// Resumes after `pause`. The next accepted fix starts a new segment (nothing is added for
    /// where the user went while paused), except after a `.device` pause (an imported file's
    /// timer stop): the track goes on, and the next fix adds its distance from the last one.
    @discardableResult
    public mutating func resume(at time: Double) -> [RecorderEvent] {
        guard let pause = userPause else { return [] }
        let t = clamp(time)
        timeline.userEvent(at: t)
        var out: [RecorderEvent] = []
        motion.resume(pause, at: t)
        switch pause.cause {
        case .device where pause.signalLostSince == nil:
            break  // the track goes on from the last accepted fix: the device moved while stopped
        case .manual, .auto, .signalLost, .recovered, .device:
            filter.restart(warmUp: pause.signalLostSince != nil)
        }
        timeline.emit(WorkoutEvent(kind: .resume, time: t), into: &out)
        return out
    }

    /// The machine was suspended from `from` to `to` (docs/time.md): a gap on the timeline that
    /// counts in elapsed time. For a GPS activity the signal is lost at its start (the gap is
    /// `signalLostSeconds`, never moving time, and no distance bridges it: the next fixes warm
    /// up again); a user pause in progress just continues. Fixes stamped before `from` that
    /// arrive later are dropped, as after a user event.
    @discardableResult
    public mutating func suspended(from: Double, to: Double) -> [RecorderEvent] {
        let f = clamp(from)
        return markSuspended(at: f, text: "system suspended for \(ClockOffsetText.amount(max(0, to - f)))")
    }

    mutating func markSuspended(at f: Double, text: String?) -> [RecorderEvent] {
        var out: [RecorderEvent] = []
        timeline.userEvent(at: f)
        if activity.supportsGPS {
            switch motion.phase {
            case .moving, .autoPaused:
                loseSignal(at: f, closing: "closed by suspend", text: "system suspended", into: &out)
            case .acquiring, .signalLost, .paused:
                break
            }
        }
        timeline.emit(WorkoutEvent(kind: .suspended, time: f, text: text), into: &out)
        return out
    }

    /// Notes on the timeline that the daemon restored this workout at `t` after being down since
    /// `gapFrom` (the caller pauses with cause `.recovered` first).
    public mutating func recovered(at time: Double, gapFrom: Double) {
        let t = clamp(time)
        timeline.append(WorkoutEvent(kind: .recovered, time: t, cause: .recovered,
                                   text: "gap of \(Int(max(0, t - gapFrom).rounded())) s while the daemon was down"))
    }

    // MARK: - Results

    /// A copy brought forward to `now` (signal loss noticed, open time accounted).
    private func advanced(to now: Double) -> WorkoutRecorder {
        var c = self
        var ignored: [RecorderEvent] = []
        let t = max(now, c.motion.time.accountedUntil)
        c.detectSignalLoss(at: t, into: &ignored)
        c.motion.account(until: t)
        return c
    }

    /// Every number of the workout as it stands at `now` (live), without changing the recorder.
    public func summary(now: Double) -> WorkoutSummary { summary(now: now, finished: false) }

    private func summary(now: Double, finished: Bool) -> WorkoutSummary {
        let t = max(now, motion.time.accountedUntil)
        let c = advanced(to: now)
        let time = c.motion.time
        // Elapsed is the wall span; the timer leaves manual pauses (and a device's timer
        // stops) out, and the averages are over it.
        let timer = t - startedAt - time.userPaused
        var current: Double?
        switch c.motion.phase {
        case .moving: current = c.speeds.current(distance: c.distance, lastEvidence: c.motion.lastEvidence)
        case .acquiring, .autoPaused, .signalLost, .paused: current = nil
        }
        let plausible = c.plausibility.figures
        var s = WorkoutSummary(
            id: id, activity: activity, startedAt: startedAt, endedAt: nil,
            elapsedSeconds: t - startedAt, movingSeconds: time.moving, distanceMeters: c.distance,
            elevationGainMeters: c.elevation.gain, elevationLossMeters: c.elevation.loss,
            pointCount: c.points.count, acceptedCount: c.counts.accepted, rejectedByReason: c.counts.rejected,
            averageSpeed: timer > 0 ? c.distance / timer : 0,
            movingAverageSpeed: time.moving > 0 ? c.distance / time.moving : 0,
            currentSpeed: current, maxSpeed: plausible.maxSpeed, calories: c.intervals.calories(movingSeconds: time.moving),
            signalLostSeconds: time.signalLost, splits: c.intervals.splits, laps: c.intervals.laps,
            bestEfforts: activity.tracksBestEfforts ? plausible.efforts : [])
        s.timerSeconds = timer
        // Laps and splits keep their stretches' distance and time, but not in their pace.
        ExcludedStep.leaveOut(plausible.excluded, from: &s.splits)
        ExcludedStep.leaveOut(plausible.excluded, from: &s.laps)
        s.splitUnit = settings.splitUnit
        c.addHeartRate(to: &s, at: t)
        if let w = speedWarning { s.warnings = [w.text] }
        s.heartRateRejected = c.heartRate.rejected
        s.implausible = plausible.stretches
        s.warnings += ImplausibleStretch.warnings(plausible.stretches, activity: activity)
        s.averagePower = c.fixSamples.power.average
        s.maxPower = c.fixSamples.power.maximum
        s.averageCadence = c.fixSamples.cadence.average
        if let o = c.distances.odometer {
            s.distanceSource = o.source
            s.gpsDistanceMeters = c.counts.accepted > 0 ? c.distances.track : nil
        }
        c.addSensors(to: &s, at: t, finished: finished)
        Self.inSteps(&s)
        s.measureTrainingStress(settings.trainingThresholds)
        return s
    }

    /// A run's or walk's cadence in steps per minute: files and foot pods record one foot's
    /// strides, the summary shows both feet (`ActivityType.cadenceFactor`), its laps and splits too.
    private static func inSteps(_ s: inout WorkoutSummary) {
        let f = s.activity.cadenceFactor
        guard f != 1 else { return }
        s.averageCadence = s.averageCadence.map { $0 * f }
        s.cadence = s.cadence.map { Int((Double($0) * f).rounded()) }
        for k in s.laps.indices { s.laps[k].averageCadence = s.laps[k].averageCadence.map { Int((Double($0) * f).rounded()) } }
        for k in s.splits.indices { s.splits[k].averageCadence = s.splits[k].averageCadence.map { Int((Double($0) * f).rounded()) } }
    }

    /// Heart-rate figures of the summary: from the track when heart rate was recorded beside the
    /// fixes, else from the fixes' own (average and maximum only); calories and their method.
    private func addHeartRate(to s: inout WorkoutSummary, at t: Double) {
        let hr = heartRate.standing(at: t)
        let w = hr.workout
        if let avg = w.average {
            s.averageHeartRate = avg
            s.maxHeartRate = w.maximum
        } else if let average = fixSamples.heartRate.average {
            s.averageHeartRate = average
            s.maxHeartRate = fixSamples.heartRate.maximum
        }
        if isPaused {
            s.heartRate = nil
        } else {
            s.heartRate = hr.current(at: t)
            s.heartRateZone = hr.currentZone(at: t)
        }
        if let z = settings.heartRateZones {
            s.heartRateZoneBounds = z.lowerBounds
            s.heartRateZoneSeconds = w.zoneSeconds
        }
        if let c = CalorieEstimate.calories(energy, movingSeconds: s.movingSeconds, heartRate: w, profile: settings.bodyProfile) {
            s.calories = c.kcal
            s.caloriesMethod = c.method
        } else {
            s.caloriesMethod = nil
        }
    }

    /// Seconds spent auto-paused (no movement) up to `now`; elapsed = moving + auto-paused +
    /// signal lost.
    public func autoPausedSeconds(now: Double) -> Double {
        advanced(to: now).motion.time.autoPaused
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
        c.intervals.finish(at: c.snapshot(at: t), heartRate: &c.heartRate)
        var s = c.summary(now: t, finished: true)
        s.endedAt = t
        s.heartRate = nil
        s.heartRateZone = nil
        return RecordedWorkout(summary: s, points: c.points, events: c.timeline.events,
                               heartRate: HeartRateSeries(samples: c.heartRate.samples, rrIntervals: c.heartRate.rrIntervals),
                               sensors: c.sensors.samples, odometer: c.distances.odometer?.series ?? OdometerSeries())
    }
}

// MARK: - Settings changed while recording

extension WorkoutRecorder {
    /// A reload changed the metrics settings at `time` (the workout's clock): from now on the
    /// workout follows `new`'s live rules (`MetricsSettings.takingLiveSettings`: fix filter,
    /// jump, warm-up, signal loss, auto-pause, auto-lap); what is measured stays measured. Turning
    /// auto-pause off during an auto-pause ends it at `time`. Returns the timeline events.
    @discardableResult
    public mutating func changeSettings(to new: MetricsSettings, at time: Double) -> [RecorderEvent] {
        let next = settings.takingLiveSettings(from: new)
        guard next != settings else { return [] }
        settings = next
        filter.settings = next
        intervals.autoLapDistance = next.autoLapDistance
        motion.delay = next.autoPauseDelay
        var out: [RecorderEvent] = []
        if let t = motion.endStopIfDisabled(at: time) {
            timeline.emit(WorkoutEvent(kind: .motionResumed, time: t, cause: .auto, text: "auto-pause turned off"), into: &out)
        }
        return out
    }
}
