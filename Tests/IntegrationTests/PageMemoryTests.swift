import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutCore

/// Issue 45 item 9, the pages: a 184 MB workout file cost 917 MB when its page was opened (the
/// file read whole, then every point decoded and drawn). The page now reads the file through a
/// window and keeps at most `HistoryStore.pagePoints` of its points. A workout of 2,000,000
/// points with power (a ~200 MB file, renamed into the history folder as a sync engine does)
/// has its page opened; the daemon's peak resident memory (VmHWM) stays under 250 MB, and the
/// page says it was drawn from every 10th point. The real process (its memory is the point); the
/// test awaits the page (`getSuspending`) while the daemon draws it. Building the file is a few
/// seconds of CPU on the pool, as a heavy unit test's; no wait blocks a pool thread.
@Suite struct PageMemoryTests {
    @Test func aPageOfTwoMillionPointsStaysUnder250MB() async throws {
        let d = try DaemonHarness(config: #"{"web": {"listen": "127.0.0.1:0"}, "feeds": []}"#)
        try d.start()
        defer { d.stop() }
        let n = 2_000_000
        let start = 1_790_000_000.0
        let other = MachineTag(rawValue: "bigbig")!
        var s = WorkoutSummary(id: WorkoutID(start: start, suffix: 9, machine: other), activity: .cycling, startedAt: start, endedAt: start + Double(n))
        s.elapsedSeconds = Double(n)
        s.movingSeconds = Double(n)
        s.distanceMeters = Double(n) * 7
        s.pointCount = n
        s.acceptedCount = n
        s.averagePower = 200
        s.powerCurve = [PowerCurvePoint(seconds: 5, watts: 260, startTime: start), PowerCurvePoint(seconds: 60, watts: 250, startTime: start)]
        let name = s.id.rawValue + ".json", workouts = d.dataDir + "/workouts"
        let temporary = workouts + "/.syncthing.\(name).tmp"
        do {
            var points: [TrackPoint] = []
            points.reserveCapacity(n)
            for k in 0..<n {
                var f = Fix(time: start + Double(k), latitude: 47 + Double(k % 100_000) * 1e-6, longitude: 8 + Double(k / 100_000) * 1e-4,
                            altitude: 400, speed: 7, heartRate: 130)
                f.power = 150 + k % 100
                points.append(TrackPoint(fix: f))
            }
            let bytes = WorkoutFile.encode(Workout(summary: s, points: points, events: []), revision: Revision(editedAt: start + Double(n), machine: other, host: "pi"))
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        }
        let size = (try FileManager.default.attributesOfItem(atPath: temporary)[.size] as? Int) ?? 0
        #expect(rename(temporary, workouts + "/" + name) == 0)
        let listed = try await waitUntil(seconds: 60, every: 0.05) {
            (try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == s.id.rawValue }
        }
        #expect(listed)
        let open = try d.ctl(["open", "--print"])
        let url = try #require(URLComponents(string: open.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let port = UInt16(try #require(url.port)), token = try #require(url.queryItems?.first { $0.name == "token" }?.value)
        let cookie = try WebServerTests.enter(port, token)
        let pid = try #require(d.process?.processIdentifier)
        let before = ShowMemoryTests.peakKiB(pid)
        // A debug build beside four other test processes takes its time over 207 MiB.
        let page = try await WebClient.getSuspending(port, "/workouts/\(s.id.rawValue)", cookie: cookie, timeoutSeconds: 180)
        let after = ShowMemoryTests.peakKiB(pid)
        print("page of a \(n)-point workout (\(size >> 20) MiB file): peak RSS \(before >> 10) MiB before, \(after >> 10) MiB after")
        #expect(page.status == 200)
        #expect(page.text.contains("data-chart=\"route\"") && page.text.contains("data-chart=\"power\""))
        #expect(page.text.contains("Drawn from every 10th of its 2,000,000 points"))
        #expect(after < 250 << 10, "the page's peak RSS was \(after >> 10) MiB")
    }
}
