/// Seconds between the Unix epoch and the FIT epoch (1989-12-31T00:00:00Z).
public let fitEpochOffset: Double = 631_065_600

/// One FIT `record` message with what workoutd keeps of it.
public struct FITRecord: Sendable, Equatable {
    /// UTC seconds since 1970.
    public var time: Double
    /// Degrees (from semicircles); nil when the record has no position.
    public var latitude: Double?
    public var longitude: Double?
    /// Metres: `enhanced_altitude`, else `altitude`.
    public var altitude: Double?
    /// m/s: `enhanced_speed`, else `speed`.
    public var speed: Double?
    /// Metres from the start, as the device measured it.
    public var distance: Double?
    public var heartRate: Int?
    public var cadence: Int?
    /// Watts.
    public var power: Int?
    /// Degrees Celsius.
    public var temperature: Int?

    public init(time: Double, latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil, speed: Double? = nil,
                distance: Double? = nil, heartRate: Int? = nil, cadence: Int? = nil, power: Int? = nil, temperature: Int? = nil) {
        self.time = time; self.latitude = latitude; self.longitude = longitude; self.altitude = altitude; self.speed = speed
        self.distance = distance; self.heartRate = heartRate; self.cadence = cadence; self.power = power; self.temperature = temperature
    }

    /// The record as a fix (3D with an altitude, else 2D), nil without a position.
    public var fix: Fix? {
        guard let latitude, let longitude else { return nil }
        return Fix(time: time, latitude: latitude, longitude: longitude, altitude: altitude, speed: speed,
                   mode: altitude == nil ? .twoD : .threeD, heartRate: heartRate, cadence: cadence,
                   power: power, temperature: temperature)
    }
}

/// A `lap` or `session` message: a span of the activity with the device's totals.
public struct FITSpan: Sendable, Equatable {
    public var startTime: Double
    /// start + total elapsed time, else the message's timestamp.
    public var endTime: Double
    /// Seconds, wall time including pauses (`total_elapsed_time`).
    public var elapsedSeconds: Double?
    /// Seconds the timer ran (`total_timer_time`).
    public var timerSeconds: Double?
    public var distanceMeters: Double?
    /// Sessions (and some laps): the FIT sport and sub-sport.
    public var sport: UInt8?
    public var subSport: UInt8?
    /// Laps: `lap_trigger` (0 manual, 1 time, 2 distance, ...).
    public var trigger: UInt8?
    /// The device's own figures: `total_calories` (kcal), `total_work` (J), `total_cycles`
    /// (strokes of a swim, pedal or stride cycles otherwise).
    public var calories: Double?
    public var workJoules: Double?
    public var cycles: Int?
    /// Sessions: the device's averages, `avg_heart_rate` (bpm), `avg_power` (W, its zeros
    /// counted) and `avg_cadence` plus `avg_fractional_cadence` (rpm, or one foot's strides).
    public var averageHeartRate: Double?
    public var averagePower: Double?
    public var averageCadence: Double?
    /// Sessions: the device's climb and descent (`total_ascent` 22, `total_descent` 23, uint16 m).
    public var ascentMeters: Double?
    public var descentMeters: Double?
    /// A pool swim's `pool_length` (m) and its unit as shown (`pool_length_unit`: 0 metric,
    /// 1 statute: yards), `num_lengths` and `num_active_lengths`.
    public var poolLength: Double?
    public var poolLengthUnit: UInt8?
    public var lengths: Int?
    public var activeLengths: Int?
    /// Sessions: the title and notes in developer fields of text named `title` and `notes`
    /// (what `FITWriter` writes; the profile has no field for them).
    public var title: String?
    public var notes: String?

    /// The title and notes as a workout keeps them (trimmed, at most the lengths `edit` allows).
    public var annotation: WorkoutAnnotation {
        WorkoutAnnotation(title: WorkoutAnnotation.cleaned(title).map { String($0.prefix(WorkoutAnnotation.maxTitleLength)) },
                          notes: WorkoutAnnotation.cleaned(notes).map { String($0.prefix(WorkoutAnnotation.maxNotesLength)) })
    }

    public init(startTime: Double, endTime: Double, elapsedSeconds: Double? = nil, timerSeconds: Double? = nil,
                distanceMeters: Double? = nil, sport: UInt8? = nil, subSport: UInt8? = nil, trigger: UInt8? = nil) {
        self.startTime = startTime; self.endTime = endTime; self.elapsedSeconds = elapsedSeconds; self.timerSeconds = timerSeconds
        self.distanceMeters = distanceMeters; self.sport = sport; self.subSport = subSport; self.trigger = trigger
    }
}

/// A `length` message: one length of a pool swim (active, or idle: a rest at the wall).
public struct FITLength: Sendable, Equatable {
    public var startTime: Double
    /// Seconds (`total_elapsed_time`, else `total_timer_time`).
    public var seconds: Double
    public var strokes: Int?
    /// `swim_stroke`: 0 freestyle, 1 backstroke, 2 breaststroke, 3 butterfly, 4 drill, 5 mixed, 6 IM.
    public var stroke: UInt8?
    /// `length_type`: 0 idle (a rest), 1 active.
    public var active: Bool
}

/// A timer event: the device's timer started or stopped (a pause).
public struct FITTimerEvent: Sendable, Equatable {
    public enum Change: Sendable, Equatable { case started, stopped }
    public var time: Double
    public var change: Change
}

/// What `FITActivityFile.read` takes from a FIT activity file (or several chained ones).
public struct FITActivityFile: Sendable, Equatable {
    /// `file_id.type` (4 = activity).
    public var fileType: UInt8?
    public var manufacturer: Int?
    public var product: Int?
    /// Every record with a timestamp, in file order (kept by `read(_:)`; the import's
    /// `read(_:keeping: .fixesOnly)` leaves it empty and keeps only `fixes` and `heartRateOnly`).
    public var records: [FITRecord] = []
    /// The records with a position as fixes (`FITRecord.fix`), in file order: what tracks are made of.
    public var fixes: [Fix] = []
    /// The records without a position: their time and heart rate (nil: none), in file order.
    public var heartRateOnly: [HeartRateSample] = []
    /// The records without a position that carry power, cadence or speed (an indoor ride or
    /// run), as readings of the file's sensors (`SensorSource.file`), in file order.
    public var sensorsOnly: [SensorSample] = []
    /// How many records have a timestamp.
    public var recordCount: Int { max(fixes.count + heartRateOnly.count, recordTimes.count, countedRecords) }
    /// `.summary`: each record's time (FIT seconds, exact in 4 bytes) and kind (`kindFix`,
    /// `kindHeartRate`, `kindDistance`), in file order.
    public var recordTimes: [UInt32] = []
    public var recordKinds: [UInt8] = []
    /// Records counted when none is kept (`.none`).
    var countedRecords = 0
    public var laps: [FITSpan] = []
    public var sessions: [FITSpan] = []
    /// `length` messages (pool swims), in file order.
    public var lengths: [FITLength] = []
    /// The records' own distance (`distance`, or the accumulated `compressed_speed_distance`),
    /// whether or not they have a position: the device's odometer.
    public var odometer: [OdometerReading] = []
    public var timerEvents: [FITTimerEvent] = []
    /// Heart rate a strap stored during a swim (`hr` messages), already merged into the
    /// records, fixes and heart-rate records by `read` (not by `.summary`, whose records the
    /// import merges as it walks them again: `FITHeartRateMessages.Merge`).
    public var heartRateMessages = FITHeartRateMessages()
    /// `sport` messages (sport, sub_sport): the activity when sessions do not say.
    public var sports: [(sport: UInt8, subSport: UInt8?)] = []
    /// How many FIT files were chained in the input.
    public var files = 0
    /// Where the input ended inside a message or before the CRC (what was whole is kept).
    public var truncatedAt: Int?
    /// What could not be read or checked (a CRC mismatch, a message without a definition, a
    /// truncation, ...): every message that decodes is kept; the import warns with these.
    public var damage: [FITDamage] = []

    public init() {}

    public static func == (a: FITActivityFile, b: FITActivityFile) -> Bool {
        a.fileType == b.fileType && a.records == b.records && a.laps == b.laps && a.sessions == b.sessions && a.lengths == b.lengths
            && a.odometer == b.odometer && a.heartRateMessages == b.heartRateMessages
            && a.timerEvents == b.timerEvents && a.files == b.files && a.truncatedAt == b.truncatedAt && a.damage == b.damage
    }

    /// The FIT profile's name of a `file` type ("monitoring" for its three kinds).
    public static func fileTypeName(_ t: UInt8) -> String {
        switch t {
        case 1: return "device"
        case 2: return "settings"
        case 3: return "sport"
        case 4: return "activity"
        case 5: return "workout"
        case 6: return "course"
        case 7: return "schedules"
        case 9: return "weight"
        case 10: return "totals"
        case 11: return "goals"
        case 14: return "blood pressure"
        case 15, 28, 32: return "monitoring"
        case 20: return "activity summary"
        case 34: return "segment"
        case 35: return "segment list"
        case 40: return "exd configuration"
        default: return "type \(t)"
        }
    }

    /// Reads a FIT activity file. Refuses (in words) a file that is not FIT, a damaged first
    /// header, a file without `file_id`, and a valid FIT file that is not an activity (by its
    /// `file_id` type). A damaged file keeps every message that decodes (`damage` says what was
    /// lost or could not be checked: a CRC mismatch, a message without a definition, a
    /// truncation; `truncatedAt` where the input ended).
    public static func read(_ bytes: [UInt8]) throws(FITError) -> FITActivityFile {
        try read(bytes, keeping: .records)
    }

    /// What `read` keeps of the record messages.
    public enum Keeping: Sendable {
        /// `fixes`, `heartRateOnly`, `odometer`, and every record as a `FITRecord` too (`records`).
        case records
        /// `fixes`, `heartRateOnly` and `odometer` (no second copy of every record).
        case fixesOnly
        /// Only each record's time and what it carries (`recordTimes`, `recordKinds`): the first
        /// of the import's two walks (`FITImport`), which keeps no record.
        case summary
        /// Nothing of the records but their count.
        case none
    }

    /// `recordKinds` bits: the record has a position (a fix), a heart-rate reading, a distance,
    /// a power above 0, a power of 0.
    public static let kindFix: UInt8 = 1, kindHeartRate: UInt8 = 2, kindDistance: UInt8 = 4, kindPower: UInt8 = 8, kindZeroPower: UInt8 = 16

    /// How many of each message one read keeps at most: beyond, the file is refused
    /// (`FITError.tooMany`), so that memory is bounded whatever the file.
    public struct Limits: Sendable {
        /// 1,800,000 records (20 days at one a second) keep an import under 200 MB.
        public var records = 1_800_000
        public var laps = 100_000
        public var lengths = 100_000
        public var sessions = 1_000
        public var timerEvents = 1_000_000
        /// Beats of `hr` messages: 3,600,000 (16 days at 150 bpm), 9 bytes each (32 MB).
        public var heartRateSamples = 3_600_000
        public init() {}
    }

    /// `read(_:)`, keeping the records or not.
    public static func read(_ bytes: [UInt8], keeping: Keeping, limits: Limits = Limits()) throws(FITError) -> FITActivityFile {
        var reader = Reader(keeping: keeping, inputBytes: bytes.count, limits: limits)
        let result: Result<FITMessageDecoder.Outcome, FITError> = bytes.withUnsafeBufferPointer { buf in
            do throws(FITError) {
                let o = try FITMessageDecoder.walk(buf) { (m) throws(FITError) in try reader.visit(m) }
                return .success(o)
            } catch {
                return .failure(error)
            }
        }
        return try finish(reader, result)
    }

    /// `read(_:keeping:)` from a source read a window at a time.
    public static func read(_ source: some FITByteSource, keeping: Keeping, limits: Limits = Limits(),
                            windowSize: Int = 1 << 20) throws(FITError) -> FITActivityFile {
        var reader = Reader(keeping: keeping, inputBytes: source.count, limits: limits)
        let result: Result<FITMessageDecoder.Outcome, FITError>
        do throws(FITError) {
            result = .success(try FITMessageDecoder.walk(source, windowSize: windowSize, into: &reader))
        } catch {
            result = .failure(error)
        }
        return try finish(reader, result)
    }

    private static func finish(_ reader: Reader, _ result: Result<FITMessageDecoder.Outcome, FITError>) throws(FITError) -> FITActivityFile {
        var out = reader.out
        switch result {
        case .success(let o):
            out.files = o.files
            out.truncatedAt = o.truncatedAt
            out.damage = o.damage
        case .failure(let e):
            // A truncated file before any message is still reported as cut short.
            throw e
        }
        guard reader.sawFileID else {
            if let t = out.truncatedAt { throw .truncated(offset: t) }
            if let d = out.damage.first(where: \.losesMessages) { throw .damaged(d) }
            throw .noFileID
        }
        out.mergeHeartRateMessages(reader.keeping)
        return out
    }

    /// Merges the `hr` messages into the records as Garmin's FIT SDK does
    /// (`FITHeartRateMessages.Merge`, over every record in file order): `.records` and
    /// `.fixesOnly` set the fixes', heart-rate records' and `records`' heart rate; `.summary`
    /// marks the records that gain one (`kindHeartRate`), for the import's plan.
    private mutating func mergeHeartRateMessages(_ keeping: Keeping) {
        defer {
            switch keeping {
            case .records, .fixesOnly: recordKinds = []
            case .summary, .none: break
            }
        }
        guard !heartRateMessages.isEmpty else { return }
        var merge = heartRateMessages.merge()
        switch keeping {
        case .summary:
            for i in recordTimes.indices where merge.next(Double(recordTimes[i])) != nil { recordKinds[i] |= Self.kindHeartRate }
        case .records, .fixesOnly:
            var f = 0, h = 0
            for i in recordKinds.indices {
                let isFix = recordKinds[i] & Self.kindFix != 0
                let time = isFix ? fixes[f].time : heartRateOnly[h].time
                if let bpm = merge.next(time - fitEpochOffset) {
                    if isFix { fixes[f].heartRate = bpm } else { heartRateOnly[h].bpm = bpm }
                    if i < records.count { records[i].heartRate = bpm }
                }
                if isFix { f += 1 } else { h += 1 }
            }
        case .none: break
        }
    }

    /// The walk's visitor: what it has read so far, and the record layout of each definition.
    private struct Reader: FITMessageVisitor {
        var out = FITActivityFile()
        var sawFileID = false
        let keeping: Keeping
        let limits: Limits
        /// Records read so far.
        var records = 0
        var recordDecoder = RecordDecoder()
        /// Developer fields of text named `title` or `notes` (`field_description`), by
        /// developer data index and field number: read from sessions.
        var texts: [(index: UInt8, number: UInt8, name: String)] = []

        init(keeping: Keeping, inputBytes: Int, limits: Limits) {
            self.keeping = keeping
            self.limits = limits
            // A record message takes ~25-60 bytes: room for most files' records without
            // regrowing (capped: a file of other messages reserves no more than a long ride needs).
            let expected = min(inputBytes / 24, 1 << 17)
            switch keeping {
            case .records: out.fixes.reserveCapacity(expected); out.records.reserveCapacity(expected)
            case .fixesOnly: out.fixes.reserveCapacity(expected)
            case .summary:
                // Room for the smallest records a file of this size can hold (9 bytes: header,
                // timestamp, position), up to the most an import takes: no regrowth.
                let most = min(inputBytes / 9 + 1, limits.records + 1)
                out.recordTimes.reserveCapacity(most); out.recordKinds.reserveCapacity(most)
            case .none: break
            }
        }

        mutating func visit(_ m: FITMessageDecoder.Message) throws(FITError) {
            switch m.global {
            case 0:  // file_id
                if !sawFileID {
                    sawFileID = true
                    let t = m.uint(0).map { UInt8(truncatingIfNeeded: $0) }
                    out.fileType = t
                    if let t, t != 4 { throw .notActivity(type: fileTypeName(t)) }
                    out.manufacturer = m.int(1).map { Int($0) }
                    out.product = m.int(2).map { Int($0) }
                }
            case 20:
                guard let ts = m.timestamp else { break }
                if records >= limits.records { throw .tooMany("records", limit: limits.records) }
                records += 1
                record(m, time: Double(ts) + fitEpochOffset, stamp: ts)
            case 19:
                if out.laps.count >= limits.laps { throw .tooMany("laps", limit: limits.laps) }
                if let l = span(m) { out.laps.append(l) }
            case 18:
                if out.sessions.count >= limits.sessions { throw .tooMany("sessions", limit: limits.sessions) }
                if var s = span(m) {
                    for t in texts {
                        guard let b = m.developerBytes(number: t.number, index: t.index), let text = FITMessageDecoder.Message.text(b) else { continue }
                        if t.name == "title" { s.title = text } else { s.notes = text }
                    }
                    out.sessions.append(s)
                }
            case 206:  // field_description: developer data index, field number, base type, name
                if let index = m.uint(0), let number = m.uint(1), m.uint(2).map({ $0 & 0x1F == 7 }) == true,
                   let name = m.text(3), name == "title" || name == "notes", texts.count < 16 {
                    texts.append((UInt8(truncatingIfNeeded: index), UInt8(truncatingIfNeeded: number), name))
                }
            case 101:
                if out.lengths.count >= limits.lengths { throw .tooMany("lengths", limit: limits.lengths) }
                if let l = length(m) { out.lengths.append(l) }
            case 21:  // event: timer (0) start (0) / stop (1, 4 stop_all, 8, 9 disable)
                if m.uint(0) == 0, out.timerEvents.count >= limits.timerEvents { throw .tooMany("timer events", limit: limits.timerEvents) }
                if m.uint(0) == 0, let ts = m.timestamp, let type = m.uint(1) {
                    let t = Double(ts) + fitEpochOffset
                    switch type {
                    case 0: out.timerEvents.append(FITTimerEvent(time: t, change: .started))
                    case 1, 4, 8, 9: out.timerEvents.append(FITTimerEvent(time: t, change: .stopped))
                    default: break
                    }
                }
            case 132:  // hr
                if !out.heartRateMessages.add(m, limit: limits.heartRateSamples) {
                    throw .tooMany("hr beats", limit: limits.heartRateSamples)
                }
            case 12:  // sport
                if out.sports.count >= limits.sessions { throw .tooMany("sport messages", limit: limits.sessions) }
                if let s = m.uint(0) { out.sports.append((UInt8(truncatingIfNeeded: s), m.uint(1).map { UInt8(truncatingIfNeeded: $0) })) }
            default: break
            }
        }

        /// A record message: its fix (with a position) or heart rate (without), its distance
        /// (`odometer`), and its `FITRecord` when keeping `.records`; or only its time and kind
        /// (`RecordDecoder.kind`: the record is not decoded).
        @inline(__always)
        private mutating func record(_ m: FITMessageDecoder.Message, time: Double, stamp: UInt32) {
            switch keeping {
            case .summary:
                out.recordTimes.append(stamp)
                out.recordKinds.append(recordDecoder.kind(m))
                return
            case .none:
                out.countedRecords += 1
                return
            case .records, .fixesOnly:
                let r: DecodedRecord
                if keeping.keepsRecords {
                    let (decoded, record) = recordDecoder.decodeKeeping(m, time: time)
                    r = decoded
                    out.records.append(record)
                } else {
                    r = recordDecoder.decode(m, time: time)
                }
                // Which records are fixes, in file order: for merging `hr` messages (`finish`).
                out.recordKinds.append(r.kind & FITActivityFile.kindFix)
                if let d = r.distance { out.odometer.append(OdometerReading(time: time, meters: d)) }
                if let f = r.fix { out.fixes.append(f) } else { out.heartRateOnly.append(HeartRateSample(time: time, bpm: r.heartRate)) }
                if let reading = r.sensor { out.sensorsOnly.append(SensorSample(time: time, source: .file, reading: reading)) }
            }
        }
    }

    /// A record message decoded: its fix (with a position), heart rate, the device's distance.
    struct DecodedRecord {
        var fix: Fix?
        var heartRate: Int?
        var distance: Double?
        /// Power, cadence or speed of a record without a position (`sensorsOnly`).
        var sensor: SensorReading?
        /// The record's power (W), with or without a position.
        var power: Int?

        @inline(__always)
        init(_ f: RecordDecoder.Fields, time: Double) {
            heartRate = f.heartRate
            distance = f.distance
            power = f.power
            fix = f.fix(time: time)
            if fix == nil { sensor = f.sensor }
        }

        /// `kindFix`, `kindHeartRate`, `kindDistance`, `kindPower`, `kindZeroPower` as they apply.
        var kind: UInt8 {
            (fix != nil ? FITActivityFile.kindFix : 0) | (heartRate != nil ? FITActivityFile.kindHeartRate : 0)
                | (distance != nil ? FITActivityFile.kindDistance : 0)
                | (power.map { $0 > 0 ? FITActivityFile.kindPower : FITActivityFile.kindZeroPower } ?? 0)
        }

        /// The record without its power (a power field of zeros throughout: no power meter).
        mutating func dropPower() {
            power = nil
            fix?.power = nil
            sensor?.power = nil
            if sensor?.isEmpty == true { sensor = nil }
        }
    }

    /// Decodes record messages: the layout of each definition's record fields worked out once,
    /// and the `compressed_speed_distance` accumulated across records.
    struct RecordDecoder {
        var layouts = RecordLayouts()
        /// `compressed_speed_distance`: the distance so far (1/16 m) and the last raw value.
        var accumulated = 0
        var lastCompressed: Int?

        /// A record's fields as `decode` reads them (`latitude` and `longitude` both or neither,
        /// in range).
        struct Fields {
            var latitude, longitude, altitude, speed, distance: Double?
            var heartRate, cadence, power, temperature: Int?

            var hasPosition: Bool { latitude != nil && longitude != nil }

            /// The record's fix, as `FITRecord.fix` makes it; nil without a position.
            @inline(__always)
            func fix(time: Double) -> Fix? {
                guard let latitude, let longitude else { return nil }
                return Fix(time: time, latitude: latitude, longitude: longitude, altitude: altitude, speed: speed,
                           mode: altitude == nil ? .twoD : .threeD, heartRate: heartRate, cadence: cadence,
                           power: power, temperature: temperature)
            }

            /// Power, cadence or speed (of a record without a position: `sensorsOnly`), nil when none.
            var sensor: SensorReading? {
                guard power != nil || cadence != nil || speed != nil else { return nil }
                return SensorReading(power: power, cadence: cadence.map(Double.init), speed: speed)
            }
        }

        @inline(__always)
        mutating func fields(_ m: FITMessageDecoder.Message) -> Fields {
            layouts.select(m)
            var f = Fields()
            if let la = m.int(layouts.current.latitude), let lo = m.int(layouts.current.longitude) {
                let lat = Double(la) * FITActivityFile.semicircle, lon = Double(lo) * FITActivityFile.semicircle
                if lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 { f.latitude = lat; f.longitude = lon }
            }
            f.altitude = (m.int(layouts.current.enhancedAltitude) ?? m.int(layouts.current.altitude)).map { Double($0) / 5 - 500 }
            f.speed = (m.int(layouts.current.enhancedSpeed) ?? m.int(layouts.current.speed)).map { Double($0) / 1000 }
            f.heartRate = m.int(layouts.current.heartRate).map { Int($0) }
            f.cadence = m.int(layouts.current.cadence).map { Int($0) }
            f.power = m.int(layouts.current.power).map { Int($0) }
            f.temperature = m.int(layouts.current.temperature).map { Int($0) }
            f.distance = m.int(layouts.current.distance).map { Double($0) / 100 }
            if f.distance == nil, let c = m.bytes(layouts.current.compressedSpeedDistance), c.count >= 3 {
                // 12 bits of speed (1/100 m/s), then 12 bits of distance (1/16 m) accumulated
                // across records, rolling over at 4096.
                let raw = Int(c[1] >> 4) | Int(c[2]) << 4
                accumulated += ((raw - (lastCompressed ?? 0)) % 4096 + 4096) % 4096
                lastCompressed = raw
                f.distance = Double(accumulated) / 16
            }
            return f
        }

        /// A record's fix (as `FITRecord.fix` makes it), heart rate, distance and sensor reading.
        @inline(__always)
        mutating func decode(_ m: FITMessageDecoder.Message, time: Double) -> DecodedRecord {
            DecodedRecord(fields(m), time: time)
        }

        /// `decode` and the whole `FITRecord` (a read keeping `.records`).
        @inline(__always)
        mutating func decodeKeeping(_ m: FITMessageDecoder.Message, time: Double) -> (DecodedRecord, FITRecord) {
            let f = fields(m)
            return (DecodedRecord(f, time: time),
                    FITRecord(time: time, latitude: f.latitude, longitude: f.longitude, altitude: f.altitude, speed: f.speed,
                              distance: f.distance, heartRate: f.heartRate, cadence: f.cadence, power: f.power, temperature: f.temperature))
        }

        /// `decode(m, ...).kind` without decoding the record (walk 1 of `FITImport` keeps only
        /// each record's kind): which of its fields are there, read as `decode` reads them.
        @inline(__always)
        mutating func kind(_ m: FITMessageDecoder.Message) -> UInt8 {
            layouts.select(m)
            let c = layouts.current
            var kind: UInt8 = 0
            if let la = m.int(c.latitude), let lo = m.int(c.longitude) {
                let lat = Double(la) * FITActivityFile.semicircle, lon = Double(lo) * FITActivityFile.semicircle
                if lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 { kind |= FITActivityFile.kindFix }
            }
            if m.int(c.heartRate) != nil { kind |= FITActivityFile.kindHeartRate }
            if m.int(c.distance) != nil || (m.bytes(c.compressedSpeedDistance)?.count ?? 0) >= 3 { kind |= FITActivityFile.kindDistance }
            if let p = m.int(c.power) { kind |= p > 0 ? FITActivityFile.kindPower : FITActivityFile.kindZeroPower }
            return kind
        }
    }

    static let semicircle = 180.0 / 2_147_483_648.0

    /// Where the fields of a `record` message lie in one definition: position_lat 0 and
    /// position_long 1 (signed only), enhanced_altitude 78 else altitude 2, enhanced_speed 73
    /// else speed 6, distance 5 (else compressed_speed_distance 8), heart_rate 3, cadence 4,
    /// power 7, temperature 13.
    struct RecordLayout {
        var latitude, longitude, enhancedAltitude, altitude, enhancedSpeed, speed: FITMessageDecoder.FieldRead
        var distance, heartRate, cadence, power, temperature: FITMessageDecoder.FieldRead
        var compressedSpeedDistance: FITMessageDecoder.FieldBytes

        static let absent = RecordLayout()

        private init() {
            latitude = .absent; longitude = .absent; enhancedAltitude = .absent; altitude = .absent; enhancedSpeed = .absent
            speed = .absent; distance = .absent; heartRate = .absent; cadence = .absent; power = .absent; temperature = .absent
            compressedSpeedDistance = .absent
        }

        init(_ m: FITMessageDecoder.Message) {
            latitude = m.reader(0, signedOnly: true)
            longitude = m.reader(1, signedOnly: true)
            enhancedAltitude = m.reader(78)
            altitude = m.reader(2)
            enhancedSpeed = m.reader(73)
            speed = m.reader(6)
            distance = m.reader(5)
            heartRate = m.reader(3)
            cadence = m.reader(4)
            power = m.reader(7)
            temperature = m.reader(13)
            compressedSpeedDistance = m.fieldBytes(8)
        }
    }

    /// The record layout of the current message's definition (`current`), kept for the last 16
    /// definitions by serial (`Message.definitionSerial`) modulo 16: a layout is worked out once
    /// per definition, not once per record.
    struct RecordLayouts {
        private(set) var current = RecordLayout.absent
        private var currentSerial = -1
        private var serials = [Int](repeating: -1, count: 16)
        private var layouts = [RecordLayout](repeating: .absent, count: 16)

        @inline(__always)
        mutating func select(_ m: FITMessageDecoder.Message) {
            let serial = m.definitionSerial
            if serial != currentSerial { change(to: serial, m) }
        }

        private mutating func change(to serial: Int, _ m: FITMessageDecoder.Message) {
            let k = serial & 15
            if serials[k] != serial {
                serials[k] = serial
                layouts[k] = RecordLayout(m)
            }
            current = layouts[k]
            currentSerial = serial
        }
    }

    /// A lap (19) or session (18): start_time 2, total_elapsed_time 7, total_timer_time 8,
    /// total_distance 9; session sport 5 / sub_sport 6; lap trigger 24, lap sport 25 / sub_sport 39.
    private static func span(_ m: FITMessageDecoder.Message) -> FITSpan? {
        let elapsed = m.int(7).map { Double($0) / 1000 }
        guard let startRaw = m.int(2) ?? m.timestamp.map({ Int64($0) - Int64(elapsed ?? 0) }) else { return nil }
        let start = Double(startRaw) + fitEpochOffset
        // The message's timestamp is when the device wrote it (often after the user saved the
        // activity, minutes later); start + total elapsed time is the end.
        let end = elapsed.map { start + $0 } ?? m.timestamp.map { Double($0) + fitEpochOffset } ?? start
        let isSession = m.global == 18
        let u8: (UInt8) -> UInt8? = { n in m.uint(n).map { UInt8(truncatingIfNeeded: $0) } }
        var s = FITSpan(startTime: start, endTime: max(end, start), elapsedSeconds: elapsed,
                        timerSeconds: m.int(8).map { Double($0) / 1000 }, distanceMeters: m.int(9).map { Double($0) / 100 },
                        sport: isSession ? u8(5) : u8(25), subSport: isSession ? u8(6) : u8(39), trigger: isSession ? nil : u8(24))
        s.calories = m.int(11).map { Double($0) }
        s.workJoules = m.int(isSession ? 48 : 41).map { Double($0) }
        s.cycles = m.int(10).map { Int($0) }
        s.lengths = m.int(isSession ? 33 : 32).map { Int($0) }
        s.activeLengths = m.int(isSession ? 47 : 40).map { Int($0) }
        if isSession {
            s.poolLength = m.int(44).map { Double($0) / 100 }
            s.poolLengthUnit = u8(46)
            // avg_heart_rate 16, avg_cadence 18, avg_power 20, avg_fractional_cadence 41 (1/128).
            s.averageHeartRate = m.int(16).map { Double($0) }
            s.averagePower = m.int(20).map { Double($0) }
            s.averageCadence = m.int(18).map { Double($0) + Double(m.int(41) ?? 0) / 128 }
            s.ascentMeters = m.int(22).map { Double($0) }
            s.descentMeters = m.int(23).map { Double($0) }
        }
        return s
    }

    /// A length (101): start_time 2, total_elapsed_time 3, total_timer_time 4, total_strokes 5,
    /// swim_stroke 7, length_type 12.
    private static func length(_ m: FITMessageDecoder.Message) -> FITLength? {
        let seconds = (m.int(3) ?? m.int(4)).map { Double($0) / 1000 }
        guard let startRaw = m.int(2) ?? m.timestamp.map({ Int64($0) - Int64(seconds ?? 0) }) else { return nil }
        return FITLength(startTime: Double(startRaw) + fitEpochOffset, seconds: seconds ?? 0, strokes: m.int(5).map { Int($0) },
                         stroke: m.uint(7).map { UInt8(truncatingIfNeeded: $0) }, active: m.uint(12).map { $0 != 0 } ?? true)
    }
}

extension FITActivityFile.Keeping {
    var keepsRecords: Bool {
        switch self {
        case .records: return true
        case .fixesOnly, .summary, .none: return false
        }
    }
}
