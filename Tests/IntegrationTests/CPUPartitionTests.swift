import Foundation
import Glibc
import Testing

/// Issue 43: while a workout is in progress, the real daemon keeps its bulk threads (the bulk
/// worker and the import's stage threads, the ones at nice 19) off the CPU its event loop (the
/// main thread) is pinned to; with no workout both have every CPU the process may use. Read from
/// /proc's `Cpus_allowed_list` of each thread: states, no timing.
@Suite struct CPUPartitionDaemonTests {
    /// The CPUs this test process may use, which the daemon inherits.
    static let allowed = cpus(at: "/proc/self/status") ?? []

    /// `Cpus_allowed_list` of a status file, as CPU numbers.
    static func cpus(at path: String) -> [Int]? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else { return nil }
        var cpus: [Int] = []
        for part in line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces).split(separator: ",") {
            let ends = part.split(separator: "-").compactMap { Int($0) }
            guard let lo = ends.first, let hi = ends.last, lo <= hi else { return nil }
            cpus.append(contentsOf: lo...hi)
        }
        return cpus
    }

    /// The daemon's threads: ID, nice value, CPUs.
    static func threads(_ pid: pid_t) -> [(tid: Int, nice: Int, cpus: [Int])] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { name in
            guard let tid = Int(name), let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // After the command's ")": state (field 3) ... nice (field 19).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 16, let nice = Int(fields[16]), let cpus = cpus(at: "/proc/\(pid)/task/\(name)/status") else { return nil }
            return (tid, nice, cpus)
        }
    }

    /// The loop's CPUs (the main thread's) and each bulk thread's.
    static func placement(_ pid: pid_t) -> (loop: [Int], bulk: [[Int]]) {
        let all = threads(pid)
        return (all.first { $0.tid == Int(pid) }?.cpus ?? [], all.filter { $0.nice == 19 }.map(\.cpus))
    }

    @Test(.enabled(if: allowed.count >= 2, "the partition needs two CPUs this process may use"))
    func aWorkoutInProgressKeepsImportsOffTheLoopsCPU() throws {
        let d = try DaemonHarness(config: #"{"feeds":[]}"#)
        try d.start()
        defer { d.stop() }
        let pid = try #require(d.process?.processIdentifier)
        let all = Self.allowed, loopCPU = [all[0]], others = Array(all.dropFirst())

        // No workout: both everywhere. The bulk worker and the stage threads exist from the start.
        let idle = Self.placement(pid)
        #expect(idle.loop == all)
        #expect(idle.bulk.count >= 2 && idle.bulk.allSatisfy { $0 == all }, "\(idle.bulk)")

        // A workout: the loop alone on the first CPU, the bulk threads on the others.
        _ = try d.request(#"{"command":"start","activity":"yoga"}"#)
        pollUntil(seconds: 5) { Self.placement(pid).loop == loopCPU }
        let recording = Self.placement(pid)
        #expect(recording.loop == loopCPU)
        #expect(recording.bulk.count == idle.bulk.count && recording.bulk.allSatisfy { $0 == others }, "\(recording.bulk)")

        // An import meanwhile runs on them (and stays there).
        let file = d.dir + "/run.gpx"
        try DisplayUnitsTests.gpx(start: "2026-02-01T07:00:00Z", seconds: 300, speed: 3).write(toFile: file, atomically: false, encoding: .utf8)
        let imported = try d.ctl(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        let during = Self.placement(pid)
        #expect(during.loop == loopCPU)
        #expect(during.bulk.allSatisfy { $0 == others }, "\(during.bulk)")

        // Stopped: every CPU for both again.
        _ = try d.request(#"{"command":"stop"}"#)
        pollUntil(seconds: 5) { Self.placement(pid).loop == all }
        let after = Self.placement(pid)
        #expect(after.loop == all)
        #expect(after.bulk.allSatisfy { $0 == all }, "\(after.bulk)")

        let lines = d.stderrText().split(separator: "\n").filter { $0.contains("event=cpu.partition ") }
        #expect(lines.count == 2, "one line per change: \(lines)")
        #expect(lines.first?.contains("loop_cpus=\(all[0]) ") == true, "\(lines)")
    }
}
