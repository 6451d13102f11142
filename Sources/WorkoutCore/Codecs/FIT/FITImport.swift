/// A FIT activity imported straight from its file, without holding its records (issue 27: a
/// 1.5 M-record file peaked at ~800 MB; memory now grows only with the workout being built):
/// two walks over the input, a window at a time (`FITByteSource`).
///
/// 1. `FITActivityFile.read(_:keeping: .summary)`: the file's sessions, laps, timer events,
///    lengths and damage, and each record's time and kind (5 bytes a record, at most
///    `FITActivityFile.Limits.records`: 1,800,000, 20 days at 1 Hz; a larger file is refused).
///    From them each track is planned as `FITActivityFile.tracks()` makes it (which session
///    each record goes to, the leg, the activity, the pool, the device's totals) and its times
///    are judged (`ImportTimeJudge`) as `Importer.imported` judges a track's. A track whose file
///    names no activity has its fixes walked once more for its speeds (`ActivityInference`).
/// 2. Every record decoded again, in file order, straight into its track's recorder
///    (`ImportRecorder`), as `Importer.imported` feeds a track read whole: a record's distance
///    just before its fix, the session's total before the first record stamped at or after it;
///    the `hr` messages' heart rate (read in walk 1) merged into each record as it comes.
///
/// The workouts are what `Importer.readAll` + `Importer.imported` give for files whose records
/// are in time order (`FITImportStreamingTests`); where records are stamped backwards, each
/// record's distance goes in before its own fix here, where a track's readings are merged by
/// time (an interval's windowed maximum speed may differ).
public enum FITImport {
    /// A record's place: its track (`dropped`: none), and whether it was judged an outlier.
    private static let dropped: UInt8 = 0xFF
    private static let outlierRecord: UInt8 = 1, outlierReading: UInt8 = 2

    /// The plan of one track: its session, its recorder's span and what goes with it.
    private struct Plan {
        var session: FITSpan?
        var leg: (number: Int, of: Int)?
        var activity: ActivityType?
        var pool: PoolSwim?
        var poolReadings: [OdometerReading] = []
        var fixes = 0, heartReadings = 0, readings = 0
        /// Heart-rate samples the recorder will keep: records with heart rate, and the gaps.
        var heartSamples = 0
        var first = Double.infinity, last = -Double.infinity
        var fixTimes: (first: Double, last: Double) = (.infinity, -.infinity)
        var heartTimes: (first: Double, last: Double) = (.infinity, -.infinity)
        var readingTimes: (first: Double, last: Double) = (.infinity, -.infinity)
        var outliers: [Double] = []
        /// Fixes whose time was judged an outlier (kept, counting nothing).
        var outlierFixes = 0
        var hasTopUp = false
        /// Records with a power above 0, and with a power of 0: a track with only the second
        /// has a power field and no power meter (`Importer.silentPowerWarning`).
        var powered = false, zeroPower = false
        /// The time of the track's last distance reading in file order (judged or not), and
        /// when the session's total goes in: before the first record stamped at or after it,
        /// as a track's readings go in before such a record (`Importer.imported`).
        var lastReadingTime: Double?
        var topUpTime = Double.infinity
    }

    /// Every workout of the FIT activity in `input`, measured as an import is (docs/formats.md),
    /// each with its warnings and its leg. `suffix` gives each workout's ID suffix,
    /// `machine` (this machine's tag) ends it.
    public static func workouts(_ input: some FITByteSource, fileName: String, activity: ActivityType?, defaultActivity: ActivityType = .other,
                                settings: MetricsSettings, source: String, limits: FITActivityFile.Limits = FITActivityFile.Limits(),
                                windowSize: Int = 1 << 20, machine: MachineTag? = nil, suffix: () -> UInt16) throws(Importer.Failure) -> [ImportedWorkout] {
        // Walk 1.
        var file: FITActivityFile
        do { file = try FITActivityFile.read(input, keeping: .summary, limits: limits, windowSize: windowSize) } catch {
            if case .notActivity(let type) = error { throw .notActivity(file: String(fileName.split(separator: "/").last ?? Substring(fileName)), type: type) }
            throw .file(error.description)
        }
        let n = file.recordTimes.count
        // The plan, and the records' times and kinds let go before the second walk.
        let (track, flags, planned, outside) = plan(&file)
        var plans = planned
        // Records whose times agree with none of the others (no consistent run): refused in words.
        if plans.allSatisfy({ $0.fixes == 0 && $0.heartReadings == 0 }), plans.reduce(0, { $0 + $1.outliers.count }) >= ImportTimeJudge().alone {
            throw .file(ImportTimeJudge.noConsistentRun)
        }

        // A track whose file names no activity: judged from its speeds (`ActivityInference`),
        // its fixes walked once more (only then), as `Importer.imported` judges a track's.
        let fromFile = plans.map { p in p.fixes + p.outlierFixes == 0 ? p.activity.map { $0.indoorCounterpart ?? $0 } : p.activity }
        let asked = plans.indices.map { activity == nil && fromFile[$0] == nil && plans[$0].fixes + plans[$0].outlierFixes > 0 }
        var guesses = [ActivityInference?](repeating: nil, count: plans.count)
        if asked.contains(true) {
            var steps = [ActivityInference.Steps](repeating: ActivityInference.Steps(), count: plans.count)
            var decoder = FITActivityFile.RecordDecoder()
            var index = 0
            do {
                _ = try FITMessageDecoder.walk(input, windowSize: windowSize) { (m) throws(FITError) in
                    guard m.global == 20, let ts = m.timestamp else { return }
                    let i = index
                    index += 1
                    guard i < n, track[i] != dropped, asked[Int(track[i])] else { return }
                    if let f = decoder.decode(m, time: Double(ts) + fitEpochOffset).fix { steps[Int(track[i])].add(f, segment: 0) }
                }
            } catch {
                throw .file(error.description)
            }
            for k in plans.indices where asked[k] { guesses[k] = steps[k].guess }
        }

        // Each track's recorder, as `Importer.imported` makes it from the track.
        var recorders: [ImportRecorder?] = []
        var warnings: [[String]] = []
        let notes = file.damage.map(\.description)
        var saidOutside = false  // on the first workout
        for k in plans.indices {
            var p = plans[k]
            if p.pool != nil, let first = p.poolReadings.first, let last = p.poolReadings.last {
                p.readings = p.poolReadings.count
                p.readingTimes = (first.time, last.time)
            }
            // The session's total closes the device's distance (a reading at its end), as in `tracks()`.
            if let s = p.session, let total = s.distanceMeters, total > 0, p.readings > 0 || p.fixes == 0 {
                p.hasTopUp = true
                p.topUpTime = max(s.endTime, (p.pool != nil ? p.poolReadings.last?.time : p.lastReadingTime) ?? s.startTime)
                p.readingTimes = (min(p.readingTimes.first, s.endTime), max(p.readingTimes.last, s.endTime))
            }
            let spans = p.session.map { $0.endTime > $0.startTime } ?? false
            guard p.fixes > 0 || p.heartReadings > 0 || p.readings > 0 || p.hasTopUp || (p.leg != nil && spans) else {
                recorders.append(nil); warnings.append([]); plans[k] = p; continue
            }
            let first = p.fixes > 0 ? p.fixTimes.first : p.heartReadings > 0 ? p.heartTimes.first
                : p.readings > 0 || p.hasTopUp ? p.readingTimes.first : p.session?.startTime
            let last = p.fixes > 0 ? p.fixTimes.last : p.heartReadings > 0 ? p.heartTimes.last
                : p.readings > 0 || p.hasTopUp ? p.readingTimes.last : p.session?.endTime
            guard let first, let last, first.isFinite, last.isFinite else { recorders.append(nil); warnings.append([]); plans[k] = p; continue }
            let start = min(p.session?.startTime ?? first, first)
            let end = max(p.session?.endTime ?? last, last)
            let kind = activity ?? fromFile[k] ?? guesses[k]?.activity ?? defaultActivity
            var r = ImportRecorder(id: WorkoutID(start: start, suffix: suffix(), machine: machine), activity: kind, start: start, end: end,
                                   settings: TrackOrigin.device.settings(settings), pauses: file.timerPauses,
                                   lapEnds: Array(laps(of: p.session, file).dropLast()))
            r.reserveCapacity(fixes: p.fixes + p.outliers.count, odometerReadings: p.readings + (p.hasTopUp ? 1 : 0),
                              heartRateSamples: p.heartSamples)
            recorders.append(r)
            var w = notes
            if p.fixes == 0 && p.pool == nil && p.readings == 0 && !p.hasTopUp { w.append(Importer.heartRateOnlyNote) }
            if asked[k] { w.append(ActivityInference.warning(guesses[k], kind: kind)) }
            if p.zeroPower && !p.powered { w.append(Importer.silentPowerWarning) }
            if outside.count > 0 && !saidOutside {
                saidOutside = true
                w.append(FITActivityFile.outsideWarning(count: outside.count, first: outside.first))
            }
            warnings.append(w)
            plans[k] = p
        }
        guard recorders.contains(where: { $0 != nil }) else {
            if n > 0 { throw .file(FITError.noPositions(records: n).description) }
            throw .noPoints
        }

        // Walk 2: every record into its track's recorder (walk 1 checked the file's CRCs).
        // The recorders move into the walk (a second reference would copy their arrays on write).
        var feed = RecordFeed(plans: plans, recorders: consume recorders, track: track, flags: flags, records: n,
                              heartRate: file.heartRateMessages)
        do {
            _ = try FITMessageDecoder.walk(input, windowSize: windowSize, checkingCRC: false, into: &feed)
        } catch {
            throw .file(error.description)
        }

        var out: [ImportedWorkout] = []
        for k in plans.indices {
            guard var r = feed.recorders[k] else { continue }
            feed.recorders[k] = nil  // `r` alone holds its arrays: finishing appends to them in place
            let p = plans[k]
            while feed.poolNext[k] < p.poolReadings.count { r.reading(p.poolReadings[feed.poolNext[k]]); feed.poolNext[k] += 1 }
            if !feed.toppedUp[k] { RecordFeed.topUp(p, after: feed.lastRead[k], &r) }
            let device = p.session.map { file.deviceTotals(of: $0, activity: p.activity, pool: p.pool) }
            var recorded = r.finish(source: source, device: device)
            if let a = p.session?.annotation, !a.isEmpty { recorded.summary.annotation = a }
            var w = warnings[k]
            if !p.outliers.isEmpty { w.append(ImportTimeJudge.warning(p.outliers)) }
            if let b = ImportOrder.backwardsWarning(steps: feed.backward[k].steps, first: feed.backward[k].first.map { ($0, 1) }, segmentsStartingEarlier: [],
                                                    outOfOrder: recorded.summary.rejectedByReason[.outOfOrder, default: 0]) { w.append(b) }
            if let fast = r.speedSteps.warning(activity: r.kind, distance: recorded.summary.distanceMeters) { w.append(fast) }
            out.append(ImportedWorkout(recorded: recorded, warnings: w, leg: p.leg))
        }
        return out
    }

    /// Walk 2's visitor: every record, in file order, into its track's recorder, as
    /// `Importer.imported` feeds a track read whole (see `FITImport`). Its state is its own
    /// (a closure's captured variables are checked for exclusive access on every use).
    private struct RecordFeed: FITMessageVisitor {
        let plans: [Plan]
        var recorders: [ImportRecorder?]
        let track: [UInt8], flags: [UInt8]
        let records: Int
        var decoder = FITActivityFile.RecordDecoder()
        var index = 0
        var lastDistance: Double?  // the last distance read, in file order
        var base: [Double?]  // a leg's distance base
        /// Each track's last reading in file order (judged or not), and whether the session's
        /// total went in.
        var lastRead: [OdometerReading?]
        var toppedUp: [Bool]
        var poolNext: [Int]
        /// The `hr` messages' heart rate, merged into every record in file order as `read` merges it.
        var heartMerge: FITHeartRateMessages.Merge
        let merging: Bool
        var backward: [(steps: Int, first: Double?, last: Double)]
        /// What the walk reads of each plan, per record (no plan, with its arrays, copied).
        let powered: [Bool], pooled: [Bool], legs: [Bool], topUpTimes: [Double]
        /// Which tracks have a recorder.
        let live: [Bool]

        init(plans: [Plan], recorders: [ImportRecorder?], track: [UInt8], flags: [UInt8], records: Int, heartRate: FITHeartRateMessages) {
            self.plans = plans
            live = recorders.map { $0 != nil }
            self.recorders = recorders
            self.track = track
            self.flags = flags
            self.records = records
            base = [Double?](repeating: nil, count: plans.count)
            lastRead = [OdometerReading?](repeating: nil, count: plans.count)
            toppedUp = [Bool](repeating: false, count: plans.count)
            poolNext = [Int](repeating: 0, count: plans.count)
            heartMerge = heartRate.merge()
            merging = !heartRate.isEmpty
            backward = [(steps: Int, first: Double?, last: Double)](repeating: (0, nil, -.infinity), count: plans.count)
            powered = plans.map(\.powered)
            pooled = plans.map { $0.pool != nil }
            legs = plans.map { $0.leg != nil }
            topUpTimes = plans.map(\.topUpTime)
        }

        /// The session's total as a last reading, when the readings fall short of it (`tracks()`).
        static func topUp(_ p: Plan, after read: OdometerReading?, _ r: inout ImportRecorder) {
            let last = p.pool != nil ? p.poolReadings.last : read
            guard p.hasTopUp, let s = p.session, let total = s.distanceMeters, total > (last?.meters ?? 0) + 0.005 else { return }
            r.reading(OdometerReading(time: max(s.endTime, last?.time ?? s.startTime), meters: total))
        }

        mutating func visit(_ m: FITMessageDecoder.Message) throws(FITError) {
            guard m.global == 20, let ts = m.timestamp else { return }
            let i = index
            index += 1
            guard i < records else { return }
            let time = Double(ts) + fitEpochOffset
            // The record's fields, its fix built once where it goes (a `Fix?` carried along is
            // copied at each test and change: 11 copies of 170 bytes a record).
            var f = decoder.fields(m)
            defer { if let d = f.distance { lastDistance = d } }
            if merging, let bpm = heartMerge.next(Double(ts)) { f.heartRate = bpm }
            guard track[i] != dropped else { return }
            let k = Int(track[i])
            guard live[k] else { return }
            if !powered[k] { f.power = nil }  // a power field of zeros throughout: no power meter
            let positioned = f.hasPosition
            // A pool's lengths, by time, before the record stamped at or after them.
            if pooled[k] {
                let readings = plans[k].poolReadings
                while poolNext[k] < readings.count, readings[poolNext[k]].time <= time {
                    recorders[k]!.reading(readings[poolNext[k]]); poolNext[k] += 1
                }
            } else if let d = f.distance {
                if legs[k], base[k] == nil { base[k] = lastDistance.map { $0 <= d ? $0 : 0 } ?? 0 }
                let reading = OdometerReading(time: time, meters: d - (base[k] ?? 0))
                lastRead[k] = reading
                if flags[i] & outlierReading == 0, time.isFinite, !positioned || flags[i] & outlierRecord == 0 { recorders[k]!.reading(reading) }
            }
            if !toppedUp[k], time >= topUpTimes[k], flags[i] & outlierRecord == 0 {
                toppedUp[k] = true
                RecordFeed.topUp(plans[k], after: lastRead[k], &recorders[k]!)
            }
            if positioned {
                if flags[i] & outlierRecord != 0 { recorders[k]!.timeOutlier(f.fix(time: time)!); return }
                if time < backward[k].last {
                    backward[k].steps += 1
                    if backward[k].first == nil { backward[k].first = time }
                }
                backward[k].last = max(backward[k].last, time)
                recorders[k]!.fix(f.fix(time: time)!, segment: 0)
            } else if flags[i] & outlierRecord == 0 {
                recorders[k]!.heartRecord(HeartRateSample(time: time, bpm: f.heartRate))
                if let s = f.sensor { recorders[k]!.sensor(SensorSample(time: time, source: .file, reading: s)) }
            }
        }
    }

    /// Walk 1's plan: each record's track (`dropped`: none) and outlier flags, and each track's
    /// plan. The records' times and kinds are let go of (`file` keeps its messages).
    private static func plan(_ file: inout FITActivityFile) -> (track: [UInt8], flags: [UInt8], plans: [Plan], outside: (count: Int, first: Double)) {
        let n = file.recordTimes.count
        let stamps = file.recordTimes, kinds = file.recordKinds
        @inline(__always) func time(_ i: Int) -> Double { Double(stamps[i]) + fitEpochOffset }
        defer { file.recordTimes = []; file.recordKinds = [] }
        let ordered = file.sessions.sorted { $0.startTime < $1.startTime }
        let multisport = ordered.count > 1

        // Which track each record goes to: the session whose span holds it (`session(holding:)`),
        // as `tracks()` does; a record outside every session is left out, except when a single
        // session holds fewer than half the records (its summary does not describe them).
        var track = [UInt8](repeating: 0, count: n)
        var plans: [Plan] = []
        var outside = (count: 0, first: Double.infinity)
        if multisport {
            plans = ordered.enumerated().map { k, s in Plan(session: s, leg: (k + 1, ordered.count), activity: file.activity(of: s)) }
        } else {
            plans = [Plan(session: ordered.first, activity: file.activity(of: ordered.first))]
        }
        if !ordered.isEmpty {
            for i in 0..<n {
                let t = time(i)
                if let k = FITActivityFile.session(holding: t, ordered) { track[i] = UInt8(k) } else {
                    track[i] = dropped
                    outside.count += 1
                    outside.first = min(outside.first, t)
                }
            }
            if !multisport && outside.count * 2 > n {
                for i in 0..<n { track[i] = 0 }
                outside = (0, .infinity)
            }
        }
        for k in plans.indices {
            if let s = plans[k].session, let pool = file.poolSwim(of: s, activity: plans[k].activity) {
                plans[k].pool = pool
                plans[k].poolReadings = FITActivityFile.readings(of: pool)
            }
        }

        // Times judged per track and kind, in file order, as a track's are: the fixes, the
        // records without a position, the distance readings (group 3k, 3k + 1, 3k + 2 of track
        // k), all in two passes over the records (the steps, then the runs).
        var flags = [UInt8](repeating: 0, count: n)
        let judge = ImportTimeJudge()
        let assigned = track  // what `groups` reads (a captured `var` is checked on every read)
        @inline(__always) func groups(_ i: Int) -> (first: Int, distance: Int?) {
            let g = 3 * Int(assigned[i]), kind = kinds[i]
            return (kind & FITActivityFile.kindFix != 0 ? g : g + 1, kind & FITActivityFile.kindDistance != 0 ? g + 2 : nil)
        }
        var steps = [ImportTimeJudge.Steps](repeating: ImportTimeJudge.Steps(), count: 3 * plans.count)
        for i in 0..<n where assigned[i] != dropped {
            let (g, d) = groups(i), t = time(i)
            steps[g].add(t)
            if let d { steps[d].add(t) }
        }
        var scans = steps.map { ImportTimeJudge.OutlierScan(judge, maxStep: $0.maxStep(judge)) }
        for i in 0..<n where assigned[i] != dropped {
            let (g, d) = groups(i), t = time(i)
            scans[g].add(t, at: i)
            if let d { scans[d].add(t, at: i) }
        }
        for g in scans.indices {
            let flag = g % 3 == 2 ? outlierReading : outlierRecord
            for i in scans[g].finish() { flags[i] |= flag }
        }
        // What each track holds, trusted.
        for i in 0..<n where track[i] != dropped {
            let k = Int(track[i]), t = time(i)
            if kinds[i] & FITActivityFile.kindPower != 0 { plans[k].powered = true }
            if kinds[i] & FITActivityFile.kindZeroPower != 0 { plans[k].zeroPower = true }
            if kinds[i] & FITActivityFile.kindDistance != 0 { plans[k].lastReadingTime = t }
            guard t.isFinite else { continue }
            if kinds[i] & FITActivityFile.kindHeartRate != 0 || kinds[i] & FITActivityFile.kindFix == 0 { plans[k].heartSamples += 1 }
            if kinds[i] & FITActivityFile.kindFix != 0 {
                if flags[i] & outlierRecord != 0 { plans[k].outliers.append(t); plans[k].outlierFixes += 1; continue }
                plans[k].fixes += 1
                plans[k].fixTimes = (min(plans[k].fixTimes.first, t), max(plans[k].fixTimes.last, t))
            } else if flags[i] & outlierRecord != 0 {
                plans[k].outliers.append(t)
            } else if kinds[i] & FITActivityFile.kindHeartRate != 0 {
                plans[k].heartReadings += 1
                plans[k].heartTimes = (min(plans[k].heartTimes.first, t), max(plans[k].heartTimes.last, t))
            }
            if kinds[i] & FITActivityFile.kindDistance != 0 && plans[k].pool == nil && flags[i] & outlierReading == 0 {
                plans[k].readings += 1
                plans[k].readingTimes = (min(plans[k].readingTimes.first, t), max(plans[k].readingTimes.last, t))
            }
        }
        return (track, flags, plans, outside)
    }

    /// The end times of the laps inside a session (all laps for none), in order.
    private static func laps(of session: FITSpan?, _ file: FITActivityFile) -> [Double] {
        file.laps.sorted { $0.startTime < $1.startTime }
            .filter { l in session.map { l.startTime >= $0.startTime - 1 && l.endTime <= $0.endTime + 1 } ?? true }.map(\.endTime)
    }
}
