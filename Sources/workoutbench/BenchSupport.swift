import Glibc
import WorkoutCore

/// Small helpers shared by the benchmarks: a monotonic clock, medians, files, processes.
enum BenchSupport {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func median(_ xs: [Double]) -> Double {
        guard !xs.isEmpty else { return .nan }
        let s = xs.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func percentile(_ xs: [Double], _ p: Double) -> Double {
        guard !xs.isEmpty else { return .nan }
        let s = xs.sorted()
        return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
    }

    static func fail(_ message: String) -> Never {
        writeOut(2, "workoutbench: \(message)\n")
        exit(1)
    }

    /// Unbuffered write to stdout (1) or stderr (2).
    static func writeOut(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n <= 0 { return }
            done += n
        }
    }

    static func fmt(_ v: Double, _ decimals: Int = 2) -> String { formatFixed(v, decimals: decimals) }

    /// One `key=value` result line, the format scripts/bench.sh parses.
    static func report(_ pairs: [(String, String)]) {
        writeOut(1, pairs.map { "\($0.0)=\($0.1)" }.joined(separator: " ") + "\n")
    }

    static func readAll(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { fail("cannot open \(path)") }
        defer { close(fd) }
        var st = stat()
        fstat(fd, &st)
        if st.st_size > 0 {
            // A regular file: one read into a buffer of its size.
            var out = [UInt8](repeating: 0, count: Int(st.st_size))
            var done = 0
            while done < out.count {
                let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
            if done < out.count { out.removeLast(out.count - done) }
            return out
        }
        // /proc files report size 0: read in chunks until EOF.
        var out = [UInt8]()
        out.reserveCapacity(max(Int(st.st_size), 4096))
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }

    static func writeAll(_ path: String, _ bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { fail("cannot create \(path)") }
        defer { close(fd) }
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n <= 0 { fail("write \(path)") }
                done += n
            }
        }
    }

    /// The directory holding this executable (workoutd and workoutctl are built beside it).
    static func binDir() -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return "." }
        let path = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }

    static func makeTempDir() -> String {
        var template = Array("/tmp/wb.XXXXXX".utf8CString)
        guard let p = mkdtemp(&template) else { fail("mkdtemp") }
        return String(cString: p)
    }

    static func removeTree(_ path: String) {
        _ = spawnAndWait(["/bin/rm", "-rf", path], environment: nil)
    }

    static func mkdirs(_ path: String) {
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            mkdir(current, 0o700)
        }
    }

    /// Spawns `argv` (absolute path first) with stdout/stderr to /dev/null; returns the pid.
    static func spawn(_ argv: [String], environment: [String]?, quiet: Bool = true) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if quiet {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let cargs = argv.map { strdup($0) } + [nil]
        let env = environment ?? currentEnvironment()
        let cenv = env.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) }; for p in cenv { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cargs, cenv)
        guard rc == 0 else { fail("posix_spawn \(argv[0]): \(String(cString: strerror(rc)))") }
        return pid
    }

    @discardableResult
    static func spawnAndWait(_ argv: [String], environment: [String]?, quiet: Bool = true) -> Int32 {
        let pid = spawn(argv, environment: environment, quiet: quiet)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    static func currentEnvironment() -> [String] {
        var out: [String] = []
        var p = environ
        while let c = p.pointee { out.append(String(cString: c)); p += 1 }
        return out
    }

    /// VmRSS of a process in kB, from /proc/PID/status.
    static func rssKB(_ pid: pid_t, field: String = "VmRSS:") -> Int? {
        let text = String(decoding: readAll("/proc/\(pid)/status"), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        }
        return nil
    }

    /// utime + stime of a process in clock ticks, from /proc/PID/stat.
    static func cpuTicks(_ pid: pid_t) -> Int {
        let text = String(decoding: readAll("/proc/\(pid)/stat"), as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After ")": state(0) ppid ... utime is field 14 overall = index 11 here, stime index 12.
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// Runs `body` on a new detached thread.
    static func thread(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(ThreadBody(body))
        var thread = pthread_t()
        _ = pthread_create(&thread, nil, { arg in
            Unmanaged<ThreadBody>.fromOpaque(arg!).takeRetainedValue().body()
            return nil
        }, box.toOpaque())
        pthread_detach(thread)
    }

    private final class ThreadBody: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    static func sleep(_ seconds: Double) {
        var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var left = timespec()
        while nanosleep(&ts, &left) != 0 && errno == EINTR { ts = left }
    }
}

extension BenchSupport {
    static func wallNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
