import Foundation
import Glibc
import TestRequirements

/// Writes JSON fix lines into the daemon's feed socket at `rate` Hz from a background thread,
/// moving east at `speed` m/s, until told to stop or the daemon goes away.
final class FixFeeder: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var _lastSentTime: Double = 0
    private var _sent = 0
    private var thread: Thread?

    var lastSentTime: Double { lock.lock(); defer { lock.unlock() }; return _lastSentTime }
    var sent: Int { lock.lock(); defer { lock.unlock() }; return _sent }

    /// `start` is the fix time of the first fix; `index0` continues a track across feeders.
    init(socket: String, start: Double, index0: Int = 0, rate: Double = 50, speed: Double = 3) {
        let t = Thread { [unowned self] in
            let me = self
            guard let c = try? UnixClient(path: socket) else { return }
            defer { c.close() }
            var i = index0
            var pace = Pace(perSecond: rate)
            while me.isRunning {
                let time = start + Double(i - index0) / rate
                let lon = 11.5 + Double(i) * speed / rate / (111_320 * cos(48.1 * .pi / 180))
                let line = #"{"class":"FIX","time":"\#(FixFeeder.iso(time))","lat":48.1,"lon":\#(String(format: "%.8f", lon)),"alt":500,"mode":3,"eph":3}"# + "\n"
                do { try c.send(line) } catch { return }
                me.lock.lock(); me._lastSentTime = time; me._sent += 1; me.lock.unlock()
                i += 1
                pace.next()
            }
        }
        thread = t
        t.start()
    }

    private var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return running }

    func stop() {
        lock.lock(); running = false; lock.unlock()
        pollUntil(seconds: 10, every: 0.001) { thread?.isFinished != false }
    }

    static func iso(_ t: Double) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: Date(timeIntervalSince1970: t))
    }
}
