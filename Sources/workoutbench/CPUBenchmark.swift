import Glibc
import WorkoutCore

/// `workoutbench cpu [SECONDS]`: CPU used by the daemon while recording a 10 Hz feed in real
/// time: utime+stime from /proc/PID/stat (10 ms ticks) and the scheduler's nanosecond count
/// (/proc/PID/task/*/schedstat) over SECONDS, after a 3 s warm-up.
enum CPUBenchmark {
    static func run(_ args: [String]) {
        let seconds = args.first.flatMap { Double($0) } ?? 60
        let daemon = DaemonProcess()
        daemon.start()
        _ = daemon.request(#"{"command":"start","activity":"running"}"#)
        guard let feed = ControlClient(path: daemon.feedSocket) else { BenchSupport.fail("feed socket") }
        let start = BenchSupport.wallNow().rounded(.up) + 1
        let warmUp = 3.0
        let total = Int((seconds + warmUp) * 10)
        let t0 = BenchSupport.now()
        var ticks0 = 0, ns0 = 0, m0 = 0.0
        for k in 0..<total {
            if k == Int(warmUp * 10) { ticks0 = BenchSupport.cpuTicks(daemon.pid); ns0 = schedNanos(daemon.pid); m0 = BenchSupport.now() }
            let line = FixLines.make(count: 1, start: start + Double(k) * 0.1, interval: 0.1)
            _ = line.withUnsafeBytes { feed.send($0) }
            let next = t0 + Double(k + 1) * 0.1
            let wait = next - BenchSupport.now()
            if wait > 0 { BenchSupport.sleep(wait) }
        }
        let wall = BenchSupport.now() - m0
        let ticks = BenchSupport.cpuTicks(daemon.pid) - ticks0
        let ns = schedNanos(daemon.pid) - ns0
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        let points = daemon.pointCount()
        BenchSupport.report([("seconds", BenchSupport.fmt(wall, 1)), ("points", String(points)),
                             ("cpu_ticks", String(ticks)), ("cpu_percent_stat", BenchSupport.fmt(Double(ticks) / hz / wall * 100, 3)),
                             ("cpu_percent_schedstat", BenchSupport.fmt(Double(ns) / 1e9 / wall * 100, 3))])
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
