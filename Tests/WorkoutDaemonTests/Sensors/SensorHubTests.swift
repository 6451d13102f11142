import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// The hub passes on what the sensors read in one batch in date order: each sensor's readings
/// are dated back over the time since the last read, and the workout's sensor track takes
/// readings in time order only (regression: a power meter's then a wheel sensor's readings of
/// one read lost 14 % of the 40 s ride's distance under load).
@Suite struct SensorHubTests {
    @Test func readingsOfOneBatchReachTheWorkoutInDateOrder() throws {
        let loop = try EventLoop()
        let got = LoopLog()
        let hub = SensorHub(loop: loop, configs: [], clock: DaemonClock(SystemClock()), environment: [:]) { r in
            switch r {
            case .sensorReading(let source, _, let age): got.entries.append("\(source) \(Int((age * 1000).rounded()))")
            case .reading, .stopped, .sensorStopped, .log, .trainerLog: got.entries.append("other")
            }
        }
        let power = SocketPair(), csc = SocketPair()
        power.write("x")
        csc.write("x")
        var read = 0
        // Two batched watches read in one turn: the power meter's readings first, then the
        // wheel sensor's, each sensor's spread back over 0.6 s.
        for (pair, source) in [(power, SensorSource.power), (csc, SensorSource.csc)] {
            loop.watch(pair.reader, mode: .batched) { _ in
                _ = pair.readAvailable()
                read += 1
                for age in [0.6, 0.3, 0.0] { hub.received(.sensorReading(source, SensorReading(power: 200), age: age)) }
                #expect(got.entries.isEmpty, "passed on during the read: \(got.entries)")
            }
        }
        try loop.runReady()
        #expect(read == 2)
        let order = got.entries.map { $0.split(separator: " ")[0] }
        let ages = got.entries.compactMap { Int($0.split(separator: " ")[1]) }
        #expect(order.count == 6 && ages == ages.sorted(by: >), "\(got.entries)")
        #expect(order.filter { $0 == "power" }.count == 3 && order.prefix(2).sorted() == ["csc", "power"], "\(got.entries)")
    }
}
