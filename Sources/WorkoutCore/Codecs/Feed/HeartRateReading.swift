/// A heart-rate line of the feed socket:
/// `{"class":"HR","time":"2026-11-21T09:30:00Z","bpm":142,"rr":[0.42,0.43]}` (`rr` optional,
/// seconds between beats).
public struct HeartRateReading: Sendable, Equatable {
    public var time: Double
    public var bpm: Int
    /// RR intervals in 1/1024 s (the Bluetooth unit), converted from the line's seconds.
    public var rr1024: [UInt16]

    public init(time: Double, bpm: Int, rr1024: [UInt16] = []) { self.time = time; self.bpm = bpm; self.rr1024 = rr1024 }

    /// Why a heart-rate line was refused (the feed's `rejectedInput` reason).
    public enum Problem: String, Error, Sendable, Equatable {
        case badTime = "hr_bad_time"
        case badBPM = "hr_bad_bpm"
        case badRR = "hr_bad_rr"
    }

    /// The rates a line may carry (bpm); the recorder then drops and counts those outside
    /// physiology (`HeartRateTrack.plausibleRange`).
    public static let bpmRange = 1...300

    /// Decodes an `HR` object: `time` ISO-8601, `bpm` a whole number 1-300, `rr` an array of at
    /// most 64 numbers in (0, 63.99] seconds.
    public static func decode(_ j: JSON) -> Result<HeartRateReading, Problem> {
        guard let ts = j["time"]?.stringValue, let time = ISO8601.parse(ts) else { return .failure(.badTime) }
        guard let d = j["bpm"]?.doubleValue, d == d.rounded(), d >= Double(HeartRateReading.bpmRange.lowerBound),
              d <= Double(HeartRateReading.bpmRange.upperBound) else { return .failure(.badBPM) }
        var rr: [UInt16] = []
        if let r = j["rr"], r != .null {
            guard let a = r.arrayValue, a.count <= 64 else { return .failure(.badRR) }
            for v in a {
                guard let s = v.doubleValue, s > 0, s < 64 else { return .failure(.badRR) }
                rr.append(UInt16(min(65535, (s * 1024).rounded())))
            }
        }
        return .success(HeartRateReading(time: time, bpm: Int(d), rr1024: rr))
    }

    /// The line for this reading (what `workoutctl simulate` sends).
    public var line: String {
        var o = JSONObject()
        o["class"] = "HR"
        o["time"] = .string(ISO8601.format(time, fractionDigits: time == time.rounded() ? 0 : 3))
        o["bpm"] = .int(bpm)
        if !rr1024.isEmpty { o["rr"] = .array(rr1024.map { .number((Double($0) / 1024 * 10000).rounded() / 10000) }) }
        return JSON.object(o).serialized()
    }
}
