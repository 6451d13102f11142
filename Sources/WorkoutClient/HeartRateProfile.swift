import WorkoutCore

/// `simulate --hr BPM` or `--hr LOW-HIGH`: a heart rate to send with the simulated fixes, a
/// constant or a ramp from LOW to HIGH and back every `rampSeconds` (like the test strap).
public enum HeartRateProfile: Sendable, Equatable {
    case constant(Int)
    case ramp(low: Int, high: Int)

    /// One way up (and one way down) takes this long.
    public static let rampSeconds = 300.0

    /// Parses `140` or `100-160` (whole bpm within 30-240, LOW below HIGH).
    public init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
        let values = parts.compactMap { Int($0) }
        guard values.count == parts.count, values.allSatisfy({ (30...240).contains($0) }) else { return nil }
        switch values.count {
        case 1: self = .constant(values[0])
        case 2 where values[0] < values[1]: self = .ramp(low: values[0], high: values[1])
        default: return nil
        }
    }

    /// "140 bpm" or "100-160 bpm".
    public var label: String {
        switch self {
        case .constant(let b): return "\(b) bpm"
        case .ramp(let l, let h): return "\(l)-\(h) bpm"
        }
    }

    /// The heart rate `elapsed` seconds after the first line.
    public func bpm(atElapsed elapsed: Double) -> Int {
        switch self {
        case .constant(let b): return b
        case .ramp(let low, let high):
            let period = 2 * HeartRateProfile.rampSeconds
            var phase = elapsed.truncatingRemainder(dividingBy: period)
            if phase < 0 { phase += period }
            let up = phase <= HeartRateProfile.rampSeconds ? phase : period - phase
            return low + Int((Double(high - low) * up / HeartRateProfile.rampSeconds).rounded())
        }
    }
}

extension SimulationFeed {
    /// The feed with an `HR` line after every timed line at a new second or later (at most
    /// one a second, like a strap), from `profile`; any heart rate the file carried is replaced.
    /// `start` is the time the profile's clock starts from (default: the first timed line).
    public func withHeartRate(_ profile: HeartRateProfile, from start: Double? = nil) -> SimulationFeed {
        var out: [TimedLine] = []
        out.reserveCapacity(lines.count * 2)
        let first = start ?? lines.lazy.compactMap(\.time).first ?? 0
        var lastHR = -Double.infinity
        for l in lines where !l.line.contains(#""class":"HR""#) {
            out.append(l)
            guard let t = l.time, kind != .nmea || t >= 86_400 * 365, t >= lastHR + 1 else { continue }
            lastHR = t
            out.append(TimedLine(time: t, line: HeartRateReading(time: t, bpm: profile.bpm(atElapsed: t - first)).line))
        }
        return SimulationFeed(kind: kind, lines: out)
    }
}
