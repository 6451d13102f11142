import Foundation
import Glibc
import TestRequirements

/// Sends a ride of JSON fix lines into the feed socket: `count` fixes one receiver-second apart,
/// `speed` m/s east, the i-th dated `time(i)` (a receiver clock off by anything, or one outlier).
/// `linesPerSecond` paces them in real time (a ride of 600 s sent in 3 s at 200 lines/s: the
/// daemon measures fixes by the receiver's intervals, so pacing changes no figure).
enum RideSender {
    static func line(time: Double, index: Int, speed: Double) -> String {
        let lon = 11.5 + Double(index) * speed / (111_320 * cos(48.1 * .pi / 180))
        let t: String
        if time >= 253_402_300_800 { t = "9999-12-31T23:59:59Z" } else { t = FixFeeder.iso(time) }
        return #"{"class":"FIX","time":"\#(t)","lat":48.1,"lon":\#(String(format: "%.8f", lon)),"alt":500,"mode":3,"eph":3}"#
    }

    /// Keeps the connection open until the daemon counts `count` points (or 5 s pass).
    static func send(_ d: some DaemonUnderTest, count: Int, speed: Double = 6, linesPerSecond: Double = 200, time: (Int) -> Double) throws {
        let c = try UnixClient(path: d.feedSocket)
        defer { c.close() }
        let chunk = max(1, Int(linesPerSecond / 20))
        var i = 0
        var pace = Pace(every: 0.05)
        while i < count {
            var text = ""
            for k in i..<min(count, i + chunk) { text += line(time: time(k), index: k, speed: speed) + "\n" }
            try c.send(text)
            i += chunk
            pace.next()
        }
        try d.waitForStatus(seconds: 5) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0) >= count }
    }

    /// Geodesic-free expectation: the ride's straight-line length (east along 48.1 N).
    static func length(count: Int, speed: Double) -> Double { Double(count - 1) * speed }
}
