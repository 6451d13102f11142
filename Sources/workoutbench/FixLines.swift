import WorkoutCore

/// JSON fix lines for the feed socket (docs/protocol.md): a runner heading north-east at
/// 3 m/s, one fix every `interval` seconds from `start`.
enum FixLines {
    static func make(count: Int, start: Double, interval: Double) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count * 150)
        let fractional = interval < 1
        for k in 0..<count {
            let t = start + Double(k) * interval
            let d = 3 * Double(k) * interval
            let lat = 48.1 + d / 111_320 * 0.7
            let lon = 11.5 + d / 74_000 * 0.7
            let line = "{\"class\":\"FIX\",\"time\":\"\(ISO8601.format(t, fractionDigits: fractional ? 1 : 0))\",\"lat\":\(formatFixed(lat, decimals: 7)),\"lon\":\(formatFixed(lon, decimals: 7)),\"alt\":\(formatFixed(520 + Double(k % 50) * 0.1, decimals: 1)),\"speed\":3.0,\"mode\":3,\"eph\":4}\n"
            out.append(contentsOf: line.utf8)
        }
        return out
    }

    /// Writes `bytes` to the feed socket in big chunks; returns false if the daemon hung up.
    static func send(_ bytes: [UInt8], to path: String) -> Bool {
        guard let c = ControlClient(path: path) else { return false }
        return bytes.withUnsafeBytes { c.send($0) }
    }
}
