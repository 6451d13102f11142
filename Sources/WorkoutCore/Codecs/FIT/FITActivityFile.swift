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
    /// How many records have a timestamp (`fixes` + `heartRateOnly`).
    public var recordCount: Int { fixes.count + heartRateOnly.count }
    public var laps: [FITSpan] = []
    public var sessions: [FITSpan] = []
    public var timerEvents: [FITTimerEvent] = []
    /// `sport` messages (sport, sub_sport): the activity when sessions do not say.
    public var sports: [(sport: UInt8, subSport: UInt8?)] = []
    /// How many FIT files were chained in the input.
    public var files = 0
    /// Where the input ended inside a message or before the CRC (what was whole is kept).
    public var truncatedAt: Int?

    public init() {}

    public static func == (a: FITActivityFile, b: FITActivityFile) -> Bool {
        a.fileType == b.fileType && a.records == b.records && a.laps == b.laps && a.sessions == b.sessions
            && a.timerEvents == b.timerEvents && a.files == b.files && a.truncatedAt == b.truncatedAt
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

    /// Reads a FIT activity file. Refuses (in words) a file that is not FIT, a damaged header, a
    /// CRC mismatch, a corrupt definition, and a valid FIT file that is not an activity (by its
    /// `file_id` type). A file cut short keeps its whole messages (`truncatedAt` says where).
    public static func read(_ bytes: [UInt8]) throws(FITError) -> FITActivityFile {
        try read(bytes, keeping: .records)
    }

    /// What `read` keeps of the record messages besides `fixes` and `heartRateOnly`.
    public enum Keeping: Sendable {
        /// Every record as a `FITRecord` too (`records`).
        case records
        /// Only the fixes and heart rate (the import: no second copy of every record).
        case fixesOnly
    }

    /// `read(_:)`, keeping the records or not.
    public static func read(_ bytes: [UInt8], keeping: Keeping) throws(FITError) -> FITActivityFile {
        var reader = Reader(keeping: keeping, inputBytes: bytes.count)
        let result: Result<FITMessageDecoder.Outcome, FITError> = bytes.withUnsafeBufferPointer { buf in
            do throws(FITError) {
                let o = try FITMessageDecoder.walk(buf) { (m) throws(FITError) in try reader.visit(m) }
                return .success(o)
            } catch {
                return .failure(error)
            }
        }
        var out = reader.out
        switch result {
        case .success(let o):
            out.files = o.files
            out.truncatedAt = o.truncatedAt
        case .failure(let e):
            // A truncated file before any message is still reported as cut short.
            throw e
        }
        guard reader.sawFileID else {
            if let t = out.truncatedAt { throw .truncated(offset: t) }
            throw .noFileID
        }
        return out
    }

    /// The walk's visitor: what it has read so far, and the record layout of each definition.
    private struct Reader {
        var out = FITActivityFile()
        var sawFileID = false
        let keeping: Keeping
        var layouts = RecordLayouts()

        init(keeping: Keeping, inputBytes: Int) {
            self.keeping = keeping
            // A record message takes ~25-60 bytes: room for most files' records without
            // regrowing (capped: a file of other messages reserves no more than a long ride needs).
            let expected = min(inputBytes / 24, 1 << 17)
            out.fixes.reserveCapacity(expected)
            if keeping.keepsRecords { out.records.reserveCapacity(expected) }
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
                layouts.select(m)
                record(m, time: Double(ts) + fitEpochOffset)
            case 19: if let l = span(m) { out.laps.append(l) }
            case 18: if let s = span(m) { out.sessions.append(s) }
            case 21:  // event: timer (0) start (0) / stop (1, 4 stop_all, 8, 9 disable)
                if m.uint(0) == 0, let ts = m.timestamp, let type = m.uint(1) {
                    let t = Double(ts) + fitEpochOffset
                    switch type {
                    case 0: out.timerEvents.append(FITTimerEvent(time: t, change: .started))
                    case 1, 4, 8, 9: out.timerEvents.append(FITTimerEvent(time: t, change: .stopped))
                    default: break
                    }
                }
            case 12:  // sport
                if let s = m.uint(0) { out.sports.append((UInt8(truncatingIfNeeded: s), m.uint(1).map { UInt8(truncatingIfNeeded: $0) })) }
            default: break
            }
        }

        /// A record message: its fix (with a position) or heart rate (without), and its
        /// `FITRecord` when keeping `.records` (then `distance` is read too: the import does not use it).
        @inline(__always)
        private mutating func record(_ m: FITMessageDecoder.Message, time: Double) {
            var latitude: Double?, longitude: Double?
            if let la = m.int(layouts.current.latitude), let lo = m.int(layouts.current.longitude) {
                let lat = Double(la) * semicircle, lon = Double(lo) * semicircle
                if lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 { latitude = lat; longitude = lon }
            }
            let altitude = (m.int(layouts.current.enhancedAltitude) ?? m.int(layouts.current.altitude)).map { Double($0) / 5 - 500 }
            let speed = (m.int(layouts.current.enhancedSpeed) ?? m.int(layouts.current.speed)).map { Double($0) / 1000 }
            let heartRate = m.int(layouts.current.heartRate).map { Int($0) }
            let cadence = m.int(layouts.current.cadence).map { Int($0) }
            let power = m.int(layouts.current.power).map { Int($0) }
            let temperature = m.int(layouts.current.temperature).map { Int($0) }
            if keeping.keepsRecords {
                out.records.append(FITRecord(time: time, latitude: latitude, longitude: longitude, altitude: altitude, speed: speed,
                                             distance: m.int(layouts.current.distance).map { Double($0) / 100 }, heartRate: heartRate,
                                             cadence: cadence, power: power, temperature: temperature))
            }
            // As `FITRecord.fix` makes it.
            if let latitude, let longitude {
                out.fixes.append(Fix(time: time, latitude: latitude, longitude: longitude, altitude: altitude, speed: speed,
                                     mode: altitude == nil ? .twoD : .threeD, heartRate: heartRate, cadence: cadence,
                                     power: power, temperature: temperature))
            } else {
                out.heartRateOnly.append(HeartRateSample(time: time, bpm: heartRate))
            }
        }
    }

    private static let semicircle = 180.0 / 2_147_483_648.0

    /// Where the fields of a `record` message lie in one definition: position_lat 0 and
    /// position_long 1 (signed only), enhanced_altitude 78 else altitude 2, enhanced_speed 73
    /// else speed 6, distance 5, heart_rate 3, cadence 4, power 7, temperature 13.
    struct RecordLayout {
        var latitude, longitude, enhancedAltitude, altitude, enhancedSpeed, speed: FITMessageDecoder.FieldRead
        var distance, heartRate, cadence, power, temperature: FITMessageDecoder.FieldRead

        static let absent = RecordLayout()

        private init() {
            latitude = .absent; longitude = .absent; enhancedAltitude = .absent; altitude = .absent; enhancedSpeed = .absent
            speed = .absent; distance = .absent; heartRate = .absent; cadence = .absent; power = .absent; temperature = .absent
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
        return FITSpan(startTime: start, endTime: max(end, start), elapsedSeconds: elapsed,
                       timerSeconds: m.int(8).map { Double($0) / 1000 }, distanceMeters: m.int(9).map { Double($0) / 100 },
                       sport: isSession ? u8(5) : u8(25), subSport: isSession ? u8(6) : u8(39), trigger: isSession ? nil : u8(24))
    }
}

extension FITActivityFile.Keeping {
    var keepsRecords: Bool {
        switch self {
        case .records: return true
        case .fixesOnly: return false
        }
    }
}
