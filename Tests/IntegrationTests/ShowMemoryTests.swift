import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutCore

/// Issue 45 item 9, `show`: a 1.5 M-point workout cost 715 MB to `show`, which decoded every
/// point to print a summary and its events. `show` now reads the file's head and events only
/// (its points only when splits must be drawn again in other units). A workout of 400,000
/// points (a 50 MB file, renamed into the history folder as a sync engine does) is shown and the
/// daemon's peak resident memory (VmHWM) is compared before and after. The real process (its
/// memory is the point); the test awaits its replies (`waitUntil`, `requestSuspending`).
@Suite struct ShowMemoryTests {
    static func peakKiB(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    @Test func showReadsNoPoints() async throws {
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        defer { d.stop() }
        let n = 400_000
        let start = 1_790_000_000.0
        let other = MachineTag(rawValue: "bigbig")!
        var s = WorkoutSummary(id: WorkoutID(start: start, suffix: 7, machine: other), activity: .cycling, startedAt: start, endedAt: start + Double(n))
        s.elapsedSeconds = Double(n)
        s.pointCount = n
        s.acceptedCount = n
        var points: [TrackPoint] = []
        points.reserveCapacity(n)
        for k in 0..<n {
            points.append(TrackPoint(fix: Fix(time: start + Double(k), latitude: 47 + Double(k) * 1e-6, longitude: 8 + Double(k % 1000) * 1e-6,
                                              altitude: 400, speed: 7, heartRate: 130)))
        }
        let events = [WorkoutEvent(kind: .lap, time: start + 600)]
        let bytes = WorkoutFile.encode(Workout(summary: s, points: points, events: events), revision: Revision(editedAt: start + Double(n), machine: other, host: "pi"))
        points = []
        let name = s.id.rawValue + ".json", workouts = d.dataDir + "/workouts"
        try Data(bytes).write(to: URL(fileURLWithPath: workouts + "/.syncthing.\(name).tmp"))
        #expect(rename(workouts + "/.syncthing.\(name).tmp", workouts + "/" + name) == 0)
        let listed = try await waitUntil(seconds: 10, every: 0.05) {
            (try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == s.id.rawValue }
        }
        #expect(listed)
        let pid = try #require(d.process?.processIdentifier)
        let before = Self.peakKiB(pid)
        let shown = try await d.requestSuspending(#"{"command":"show","id":"\#(s.id.rawValue)"}"#, timeoutSeconds: 120)
        let after = Self.peakKiB(pid)
        print("show of a \(n)-point workout (\(bytes.count >> 20) MiB file): peak RSS \(before >> 10) MiB before, \(after >> 10) MiB after")
        #expect((shown["workout"] as? [String: Any])?["pointCount"] as? Int == n, "\(shown.keys)")
        #expect((shown["events"] as? [[String: Any]])?.count == 1)
        #expect(after - before < 20 << 10, "show raised the peak by \((after - before) >> 10) MiB")
    }
}
