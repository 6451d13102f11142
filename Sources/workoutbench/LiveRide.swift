import Glibc
import Synchronization
import WorkoutCore

/// A live ride to measure the daemon under: a cycling workout fed one fix every 1/rate s of
/// wall time on the feed socket, and a control connection that asks `status`.
final class LiveRide {
    /// The feeder: one fix line every 1/rate s of wall time, stamped with that time.
    final class Feeder: Sendable {
        let path: String
        let interval: Double
        let stopFlag = Atomic<Bool>(false)
        let sentCount = Atomic<Int>(0)
        let lateSends = Atomic<Int>(0)

        init(path: String, rate: Double) { self.path = path; self.interval = 1 / rate }

        func start() { BenchSupport.thread { self.run() } }

        private func run() {
            guard let c = ControlClient(path: path) else { BenchSupport.fail("feed socket") }
            let t0 = (BenchSupport.wallNow() * 5).rounded(.up) / 5 + 0.2
            var k = 0
            while !stopFlag.load(ordering: .acquiring) {
                let t = t0 + Double(k) * interval
                let wait = t - BenchSupport.wallNow()
                if wait > 0 { usleep(UInt32(wait * 1e6)) } else if wait < -0.05 { lateSends.add(1, ordering: .relaxed) }
                let d = 6 * Double(k) * interval
                let line = "{\"class\":\"FIX\",\"time\":\"\(ISO8601.format(t, fractionDigits: 1))\",\"lat\":\(formatFixed(48.1 + d / 111_320, decimals: 7)),\"lon\":11.5,\"alt\":520.0,\"speed\":6.0,\"mode\":3,\"eph\":4}\n"
                guard c.send(line) else { BenchSupport.fail("feed socket closed") }
                sentCount.add(1, ordering: .releasing)
                k += 1
            }
        }
    }

    let daemon: DaemonProcess
    let feeder: Feeder
    private let client: ControlClient

    /// Starts the workout and its feeder, lets the first fixes arrive (1.5 s) and connects.
    init(_ daemon: DaemonProcess, rate: Double) {
        self.daemon = daemon
        _ = daemon.request(#"{"command":"start","activity":"cycling"}"#)
        feeder = Feeder(path: daemon.feedSocket, rate: rate)
        feeder.start()
        BenchSupport.sleep(1.5)
        guard let client = ControlClient(path: daemon.controlSocket) else { BenchSupport.fail("connect") }
        self.client = client
    }

    /// One `status` round trip: its seconds and the reply line.
    func status() -> (seconds: Double, reply: [UInt8]) {
        let q0 = BenchSupport.now()
        guard client.send(#"{"command":"status"}"# + "\n"), let line = client.readLine() else { BenchSupport.fail("status failed") }
        return (BenchSupport.now() - q0, line)
    }

    /// The status latencies over `seconds`, one asked every 20 ms: the baseline before the load.
    func baseline(seconds: Double) -> [Double] {
        var times: [Double] = []
        let b0 = BenchSupport.now()
        while BenchSupport.now() - b0 < seconds { times.append(status().seconds); usleep(20_000) }
        return times
    }

    /// Stops the feeder; the fixes it sent, those the workout counted, those it refused as late.
    func stop() -> (sent: Int, counted: Int, late: Int) {
        feeder.stopFlag.store(true, ordering: .releasing)
        BenchSupport.sleep(1.3)  // the last fixes are read at the next wake-up (1 s at the latest)
        let sent = feeder.sentCount.load(ordering: .acquiring)
        let w = daemon.status()["workout"]
        return (sent, w?["pointCount"]?.intValue ?? -1, w?["rejected"]?["out_of_order"]?.intValue ?? 0)
    }
}
