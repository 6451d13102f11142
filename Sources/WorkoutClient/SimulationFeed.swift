import WorkoutCore

/// One line to send on the feed socket and the simulated time it belongs to (seconds since
/// 1970 UTC, or on a continuous time-of-day axis when an NMEA log has no date); nil = untimed,
/// sent without waiting.
public struct TimedLine: Sendable, Equatable {
    public var time: Double?
    public var line: String
    public init(time: Double?, line: String) { self.time = time; self.line = line }
}

/// What a file to simulate turned out to be.
public enum SimulationFileKind: String, Sendable, Equatable {
    case nmea, jsonLines = "JSON lines", gpx, tcx = "TCX"
}

extension SimulationFileKind {
    /// What its lines are, for "sending 870 JSON fix lines from run.jsonl".
    public var linesNoun: String {
        switch self {
        case .nmea: return "NMEA sentences"
        case .jsonLines: return "JSON fix lines"
        case .gpx: return "GPX track points"
        case .tcx: return "TCX track points"
        }
    }
}

/// A file or route prepared for the feed socket: its lines with their times, and how to shift
/// a line's time when `--loop` replays it again (so that time keeps increasing).
public struct SimulationFeed: Sendable, Equatable {
    public var kind: SimulationFileKind
    public var lines: [TimedLine]

    /// The header that tells the daemon the feed's clock is a simulation at `speed`, and whether
    /// the lines are a track a device already recorded (GPX), which the daemon measures like an
    /// import of that file rather than as raw receiver output.
    public static func header(speed: Double, recordedTrack: Bool = false) -> String {
        FeedLine.simulation(speed: speed, recordedTrack: recordedTrack)
    }

    /// The lines that are track points (what "Feeding 174 GPX track points" counts): every line
    /// of an NMEA log or JSON lines file, the FIX lines of a GPX or TCX file (not its HR or
    /// SEGMENT lines).
    public var pointLineCount: Int {
        switch kind {
        case .nmea, .jsonLines: return lines.count
        case .gpx, .tcx: return lines.reduce(0) { $0 + ($1.line.hasPrefix(#"{"class":"FIX""#) ? 1 : 0) }
        }
    }

    /// Whether this feed is a device-recorded track (GPX) rather than receiver output.
    public var isRecordedTrack: Bool {
        switch kind {
        case .gpx, .tcx: return true
        case .nmea, .jsonLines: return false
        }
    }

    /// Parses a file: NMEA sentences (`$`/`!`), JSON lines (`{`), or GPX (via GPXReader).
    public static func parse(_ text: String) -> Result<SimulationFeed, SimulationError> {
        parse(bytes: Array(text.utf8))
    }

    /// What an unknown file gets, worded as `import` words its own ("not a GPX, TCX, FIT or NMEA
    /// file"), for the formats simulate reads.
    static let unknownFile = "not a GPX, TCX, NMEA or JSON fix lines file"

    public static func parse(bytes: [UInt8]) -> Result<SimulationFeed, SimulationError> {
        if FITMessageDecoder.looksLikeFIT(bytes) {
            return .failure(.unsupported("a FIT file: simulate reads GPX, TCX, NMEA or JSON fix lines (`workoutctl import` reads FIT)"))
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let rawLines = text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        // `#` lines are comments (every gpsd capture begins with a few): the content decides.
        guard let first = rawLines.lazy.map({ $0.drop(while: { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }) }).first(where: { !$0.isEmpty && !$0.hasPrefix("#") }) else {
            return .failure(.empty)
        }
        if first.hasPrefix("<") { return text.contains("<TrainingCenterDatabase") ? tcx(bytes) : gpx(bytes) }
        if first.hasPrefix("$") || first.hasPrefix("!") { return .success(nmea(rawLines.map(String.init))) }
        if first.hasPrefix("{") { return jsonLines(rawLines.map(String.init)) }
        return .failure(.unsupported(unknownFile))
    }

    // MARK: NMEA

    /// NMEA sentences timed by the UTC time of RMC/GGA/GLL/GNS/ZDA; a sentence without a time
    /// belongs to the epoch of the last one that had one. Days advance at a midnight wrap.
    /// `#` comment lines (gpsd's capture headers) are skipped, not sent.
    static func nmea(_ raw: [String]) -> SimulationFeed {
        var out: [TimedLine] = []
        var last: Double?
        var lastTimeOfDay: Double?
        var days = 0.0
        var baseDay: Double?
        for l in raw {
            let line = l.trimmingTrailingSpace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let s = NMEASentence(line)
            if let date = s?.dayNumber, baseDay == nil { baseDay = date - days }
            if let tod = s?.timeOfDay {
                if let prev = lastTimeOfDay, tod < prev - 43_200 { days += 1 }
                lastTimeOfDay = tod
                last = days * 86_400 + tod
            }
            out.append(TimedLine(time: last, line: line))
        }
        // Put times on the absolute axis when the log has a date.
        if let baseDay {
            for i in out.indices { out[i].time = out[i].time.map { $0 + baseDay * 86_400 } }
        }
        return SimulationFeed(kind: .nmea, lines: out)
    }

    // MARK: GPX

    /// A GPX track's timed points as JSON fix lines, in file order, with a `SEGMENT` line between
    /// two `<trkseg>`s (and tracks), so the daemon joins no distance across the break.
    static func gpx(_ bytes: [UInt8]) -> Result<SimulationFeed, SimulationError> {
        let file: GPXImport
        do { file = try GPXReader.read(bytes) } catch { return .failure(.unsupported("\(error)")) }
        let points = file.trackPoints
        guard !points.isEmpty else {
            return .failure(.unsupported("the GPX file has no timed track points" + (file.untimedPointCount > 0 ? " (\(file.untimedPointCount) without <time>)" : "")))
        }
        var lines: [TimedLine] = []
        for (p, previous) in zip(points, [nil] + points.map(Optional.some)) {
            if let previous, previous.segment != p.segment { lines.append(segmentBreak) }
            lines += timedLines(p.fix)
        }
        return .success(SimulationFeed(kind: .gpx, lines: lines))
    }

    /// A fix as a FIX line, and its heart rate as an `HR` line of the same time (so the heart
    /// rate reaches a workout of any activity, with or without GPS).
    static func timedLines(_ fix: Fix) -> [TimedLine] {
        var f = fix
        f.heartRate = nil
        var out = [TimedLine(time: fix.time, line: fixLine(f))]
        if let hr = fix.heartRate, HeartRateReading.bpmRange.contains(hr) {
            out.append(TimedLine(time: fix.time, line: HeartRateReading(time: fix.time, bpm: hr).line))
        }
        return out
    }

    // MARK: TCX

    /// A TCX file's trackpoints in time order: FIX lines for those with a position, `HR` lines
    /// for those with a heart rate (indoor files have only these), a `SEGMENT` line between two
    /// `<Track>`s.
    static func tcx(_ bytes: [UInt8]) -> Result<SimulationFeed, SimulationError> {
        let file: TCXImport
        do { file = try TCXReader.read(bytes) } catch { return .failure(.unsupported("\(error)")) }
        var lines: [TimedLine] = []
        var track: Int?
        for a in file.activities {
            for lap in a.laps {
                for t in lap.trackpoints {
                    if var f = t.fix {
                        if let track, track != t.track { lines.append(segmentBreak) }
                        track = t.track
                        f.heartRate = t.heartRate
                        lines += timedLines(f)
                    } else if let hr = t.heartRate, HeartRateReading.bpmRange.contains(hr) {
                        lines.append(TimedLine(time: t.time, line: HeartRateReading(time: t.time, bpm: hr).line))
                    }
                }
            }
        }
        guard !lines.isEmpty else { return .failure(.unsupported("the TCX file has no timed trackpoints")) }
        return .success(SimulationFeed(kind: .tcx, lines: lines))
    }

    /// The line that breaks the track between two segments (docs/protocol.md): untimed, sent
    /// right after the segment's last fix.
    public static let segmentBreak = TimedLine(time: nil, line: FeedLine.segmentBreak)

    /// `{"class":"FIX","time":..,"lat":..,"lon":..,"alt":..,"speed":..}` (+ optional extras).
    public static func fixLine(_ f: Fix) -> String { FeedLine.fix(f) }

    // MARK: JSON lines

    static func jsonLines(_ raw: [String]) -> Result<SimulationFeed, SimulationError> {
        var out: [TimedLine] = []
        for (n, l) in raw.enumerated() {
            let line = l.trimmingTrailingSpace()
            if line.isEmpty { continue }
            guard let j = try? JSON.parse(line), j.objectValue != nil else { return .failure(.badLine(n + 1, "not a JSON object")) }
            if FeedLine.isSimulationHeader(j) { continue }  // we send our own header
            out.append(TimedLine(time: FeedLine.time(of: j), line: line))
        }
        return .success(SimulationFeed(kind: .jsonLines, lines: out))
    }

    // MARK: looping

    /// The time one pass takes, plus one typical step (so the next pass does not repeat a time).
    public var period: Double {
        let times = lines.compactMap(\.time)
        guard let first = times.first, let last = times.last else { return 0 }
        var step = 1.0
        for (a, b) in zip(times, times.dropFirst()) where b > a { step = b - a; break }
        return last - first + step
    }

    /// The lines of pass `pass` (0 = as in the file) with their times moved by `pass * period`.
    public func lines(pass: Int) -> [TimedLine] {
        guard pass > 0 else { return lines }
        let shift = Double(pass) * period
        return lines.map { l in
            guard let t = l.time else { return l }
            let moved = t + shift
            switch kind {
            case .nmea: return TimedLine(time: moved, line: NMEASentence.retimed(l.line, to: moved) ?? l.line)
            case .jsonLines, .gpx, .tcx:
                guard let line = FeedLine.retimed(l.line, to: moved) else { return l }
                return TimedLine(time: moved, line: line)
            }
        }
    }
}

/// Why a file cannot be simulated.
public enum SimulationError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case unsupported(String)
    case badLine(Int, String)
    case unreadable(String)

    public var description: String {
        switch self {
        case .empty: return "the file is empty"
        case .unsupported(let m): return m
        case .badLine(let n, let m): return "line \(n): \(m)"
        case .unreadable(let m): return m
        }
    }
}

/// The few NMEA facts the simulator needs: the UTC time and date of a sentence, and rewriting
/// them (with a new checksum) for `--loop`.
struct NMEASentence {
    var fields: [Substring]
    var type: Substring

    init?(_ line: String) {
        guard line.first == "$" || line.first == "!" else { return nil }
        let body = line.dropFirst().prefix { $0 != "*" }
        fields = body.split(separator: ",", omittingEmptySubsequences: false)
        guard let head = fields.first, head.count >= 3 else { return nil }
        type = head.suffix(3)
    }

    /// Index of the hhmmss.ss field, by sentence type.
    var timeIndex: Int? {
        switch type {
        case "RMC", "GGA", "GNS", "ZDA", "GBS", "GST": return 1
        case "GLL": return 5
        default: return nil
        }
    }

    var timeOfDay: Double? {
        guard let i = timeIndex, i < fields.count else { return nil }
        return NMEASentence.parseTime(fields[i])
    }

    /// Days since 1970 of the sentence's date (RMC ddmmyy, ZDA dd,mm,yyyy).
    var dayNumber: Double? {
        var d = 0, m = 0, y = 0
        if type == "RMC", fields.count > 9, fields[9].count == 6, let v = Int(fields[9]) {
            d = v / 10000; m = v / 100 % 100; y = v % 100 + (v % 100 < 80 ? 2000 : 1900)
        } else if type == "ZDA", fields.count > 4, let dd = Int(fields[2]), let mm = Int(fields[3]), let yy = Int(fields[4]) {
            d = dd; m = mm; y = yy
        } else { return nil }
        guard (1...12).contains(m), d >= 1, d <= CivilTime.daysInMonth(year: y, month: m) else { return nil }
        return Double(CivilTime.daysFromCivil(year: y, month: m, day: d))
    }

    static func parseTime(_ f: Substring) -> Double? {
        guard f.count >= 6, let h = Int(f.prefix(2)), let m = Int(f.dropFirst(2).prefix(2)), let s = Double(f.dropFirst(4)),
              h < 24, m < 60, s < 61 else { return nil }
        return Double(h * 3600 + m * 60) + s
    }

    /// The sentence with its time (and date, if it has one) set to `time` and a fresh checksum.
    /// `time` is on the feed's axis: absolute when the log had a date, else continuous time of day.
    static func retimed(_ line: String, to time: Double) -> String? {
        guard var s = NMEASentence(line), let ti = s.timeIndex, ti < s.fields.count, !s.fields[ti].isEmpty else { return nil }
        let original = s.fields[ti]
        let decimals = original.firstIndex(of: ".").map { original.distance(from: $0, to: original.endIndex) - 1 } ?? 0
        let day = (time / 86_400).rounded(.down)
        var tod = time - day * 86_400
        if decimals == 0 { tod = tod.rounded(.down) }
        let whole = Int(tod.rounded(.down))
        var text = Units.pad(whole / 3600, 2) + Units.pad(whole / 60 % 60, 2) + Units.pad(whole % 60, 2)
        if decimals > 0 {
            let frac = formatFixed(tod - Double(whole), decimals: decimals)
            text += frac.hasPrefix("1") ? "." + String(repeating: "9", count: decimals) : String(frac.dropFirst())
        }
        s.fields[ti] = Substring(text)
        if s.dayNumber != nil {
            let c = CivilTime.civilFromDays(Int(day))
            if s.type == "RMC" {
                s.fields[9] = Substring(Units.pad(c.day, 2) + Units.pad(c.month, 2) + Units.pad(c.year % 100, 2))
            } else if s.type == "ZDA" {
                s.fields[2] = Substring(Units.pad(c.day, 2)); s.fields[3] = Substring(Units.pad(c.month, 2)); s.fields[4] = Substring(Units.pad(c.year, 4))
            }
        }
        let body = s.fields.joined(separator: ",")
        return String(line.first!) + body + "*" + checksum(body)
    }

    static func checksum(_ body: String) -> String {
        var x: UInt8 = 0
        for b in body.utf8 { x ^= b }
        let hex = Array("0123456789ABCDEF")
        return String(hex[Int(x >> 4)]) + String(hex[Int(x & 15)])
    }
}

extension String {
    func trimmingTrailingSpace() -> String {
        var s = Substring(self)
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return String(s)
    }
}
