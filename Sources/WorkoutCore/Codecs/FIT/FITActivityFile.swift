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
    public var records: [FITRecord] = []
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
        var out = FITActivityFile()
        // A record message takes ~30-60 bytes: room for most files' records without regrowing.
        out.records.reserveCapacity(bytes.count / 48)
        var sawFileID = false
        let result: Result<FITMessageDecoder.Outcome, FITError> = bytes.withUnsafeBufferPointer { buf in
            do throws(FITError) {
                let o = try FITMessageDecoder.walk(buf) { (m) throws(FITError) in
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
                    case 20: if let r = record(m) { out.records.append(r) }
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
                return .success(o)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let o):
            out.files = o.files
            out.truncatedAt = o.truncatedAt
        case .failure(let e):
            // A truncated file before any message is still reported as cut short.
            throw e
        }
        guard sawFileID else {
            if let t = out.truncatedAt { throw .truncated(offset: t) }
            throw .noFileID
        }
        return out
    }

    private static let semicircle = 180.0 / 2_147_483_648.0

    private static func record(_ m: FITMessageDecoder.Message) -> FITRecord? {
        guard let ts = m.timestamp else { return nil }
        var r = FITRecord(time: Double(ts) + fitEpochOffset)
        if let la = m.sint(0), let lo = m.sint(1) {
            let lat = Double(la) * semicircle, lon = Double(lo) * semicircle
            if lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 { r.latitude = lat; r.longitude = lon }
        }
        if let a = m.int(78) { r.altitude = Double(a) / 5 - 500 } else if let a = m.int(2) { r.altitude = Double(a) / 5 - 500 }
        if let s = m.int(73) { r.speed = Double(s) / 1000 } else if let s = m.int(6) { r.speed = Double(s) / 1000 }
        if let d = m.int(5) { r.distance = Double(d) / 100 }
        r.heartRate = m.int(3).map { Int($0) }
        r.cadence = m.int(4).map { Int($0) }
        r.power = m.int(7).map { Int($0) }
        r.temperature = m.int(13).map { Int($0) }
        return r
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
