import Glibc
import WorkoutCore

/// `workoutbench cpu [SECONDS]`: CPU used by the daemon while recording a 10 Hz feed in real
/// time: utime+stime from /proc/PID/stat (10 ms ticks) and the scheduler's nanosecond count
/// (/proc/PID/task/*/schedstat) over SECONDS, after a 3 s warm-up.
/// `workoutbench cpu-gpsd HOST:PORT GPSD_PID [SECONDS]`: the same with the daemon recording
/// from a real gpsd (scripts/bench.sh serves it a 10 Hz receiver capture), and gpsd's own CPU
/// over the same window beside it.
/// `workoutbench cpu-sensors [SECONDS]`: the 10 Hz feed of a ride while reading four Bluetooth
/// sensors (strap, power meter, CSC, footpod) from the BlueZ stand-in whose bus is
/// `DBUS_SYSTEM_BUS_ADDRESS` (scripts/bench.sh starts `dbus-peers --sensors hr,power,csc,rsc`).
enum CPUBenchmark {
    /// The stand-in's four devices (dbus-peers' addresses).
    static let sensorsConfig = """
        {"feeds": [{"kind": "socket", "path": "$XDG_RUNTIME_DIR/workoutd/feed.sock"}], "ftpWatts": 250,
         "sensors": [{"kind": "bluetooth", "address": "C0:FF:EE:00:00:01"}, {"kind": "bluetooth", "address": "C0:FF:EE:00:00:02"},
                     {"kind": "bluetooth", "address": "C0:FF:EE:00:00:03"}, {"kind": "bluetooth", "address": "C0:FF:EE:00:00:04"}]}
        """

    static func run(_ args: [String]) { run(args, config: DaemonProcess.config, activity: "running") }

    static func runSensors(_ args: [String]) {
        guard BenchSupport.currentEnvironment().contains(where: { $0.hasPrefix("DBUS_SYSTEM_BUS_ADDRESS=") }) else {
            BenchSupport.fail("cpu-sensors needs DBUS_SYSTEM_BUS_ADDRESS (the bus of dbus-peers --bluez --sensors hr,power,csc,rsc)")
        }
        run(args, config: sensorsConfig, activity: "cycling", sensors: true)
    }

    static func run(_ args: [String], config: String, activity: String, sensors: Bool = false) {
        let seconds = args.first.flatMap { Double($0) } ?? 60
        let daemon = DaemonProcess(config: config)
        daemon.start()
        _ = daemon.request(#"{"command":"start","activity":"\#(activity)"}"#)
        guard let feed = ControlClient(path: daemon.feedSocket) else { BenchSupport.fail("feed socket") }
        let start = BenchSupport.wallNow().rounded(.up) + 1
        let warmUp = 3.0
        let total = Int((seconds + warmUp) * 10)
        let t0 = BenchSupport.now()
        var before: Sample?
        for k in 0..<total {
            if k == Int(warmUp * 10) { before = Sample(daemon.pid) }
            let line = FixLines.make(count: 1, start: start + Double(k) * 0.1, interval: 0.1)
            _ = line.withUnsafeBytes { feed.send($0) }
            let next = t0 + Double(k + 1) * 0.1
            let wait = next - BenchSupport.now()
            if wait > 0 { BenchSupport.sleep(wait) }
        }
        guard let before else { BenchSupport.fail("no measurement window") }
        let used = Sample(daemon.pid).since(before)
        var extra: [(String, String)] = []
        if sensors {
            // The sensors were read: how many are connected, and the ride's power and cadence.
            let status = daemon.request(#"{"command":"status"}"#)
            let connected = (status["sensors"]?.arrayValue ?? []).filter { $0["state"]?.stringValue == "connected" }.count
            guard connected == 4, let power = status["workout"]?["averagePower"]?.doubleValue else {
                BenchSupport.fail("the four sensors were not read: \(status.serialized())")
            }
            extra = [("sensors_connected", String(connected)), ("average_power", BenchSupport.fmt(power, 1))]
        }
        BenchSupport.report([("seconds", BenchSupport.fmt(used.wall, 1)), ("points", String(daemon.pointCount()))] + extra + used.fields(""))
    }

    static func runGpsd(_ args: [String]) {
        guard args.count >= 2, let gpsdPID = pid_t(args[1]) else { BenchSupport.fail("usage: cpu-gpsd HOST:PORT GPSD_PID [SECONDS]") }
        let seconds = args.dropFirst(2).first.flatMap { Double($0) } ?? 60
        let daemon = DaemonProcess(config: #"{"feeds": [{"kind": "gpsd", "address": "\#(args[0])"}]}"#)
        daemon.start()
        _ = daemon.request(#"{"command":"start","activity":"running"}"#)
        BenchSupport.sleep(3)  // connect, WATCH, the feed's first second
        let points0 = daemon.pointCount()
        let before = Sample(daemon.pid), peerBefore = Sample(gpsdPID)
        BenchSupport.sleep(seconds)
        let used = Sample(daemon.pid).since(before), peer = Sample(gpsdPID).since(peerBefore)
        let points = daemon.pointCount() - points0
        BenchSupport.report([("seconds", BenchSupport.fmt(used.wall, 1)), ("points", String(points)),
                             ("fix_rate_hz", BenchSupport.fmt(Double(points) / used.wall, 1))]
                            + used.fields("") + peer.fields("gpsd_"))
    }

    /// CPU counters of a process at one moment.
    struct Sample {
        var wall: Double
        var ticks: Int
        var nanos: Int

        init(_ pid: pid_t) {
            wall = BenchSupport.now(); ticks = BenchSupport.cpuTicks(pid); nanos = CPUBenchmark.schedNanos(pid)
        }

        func since(_ earlier: Sample) -> Sample {
            var d = self
            d.wall -= earlier.wall; d.ticks -= earlier.ticks; d.nanos -= earlier.nanos
            return d
        }

        /// As percentages of one core over `wall` (this must be a difference of two samples).
        func fields(_ prefix: String) -> [(String, String)] {
            let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
            return [(prefix + "cpu_ticks", String(ticks)),
                    (prefix + "cpu_percent_stat", BenchSupport.fmt(Double(ticks) / hz / wall * 100, 3)),
                    (prefix + "cpu_percent_schedstat", BenchSupport.fmt(Double(nanos) / 1e9 / wall * 100, 3))]
        }
    }

    /// Sum of on-CPU nanoseconds of every thread of the process.
    static func schedNanos(_ pid: pid_t) -> Int {
        guard let dir = opendir("/proc/\(pid)/task") else { return 0 }
        defer { closedir(dir) }
        var sum = 0
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            let text = String(decoding: BenchSupport.readAll("/proc/\(pid)/task/\(name)/schedstat"), as: UTF8.self)
            sum += Int(text.split(separator: " ").first ?? "") ?? 0
        }
        return sum
    }
}
