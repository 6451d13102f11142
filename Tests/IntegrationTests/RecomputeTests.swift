import Foundation
import Glibc
import Testing

/// Issue 18, what-if: `recompute ID --set metrics.KEY=VALUE [--save]` against the embedded daemon,
/// on a receiver's NMEA log with a one-minute stop.
@Suite(.serialized) struct RecomputeTests {
    static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for b in body.utf8 { sum ^= b }
        let hex = String(sum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex) + "\r\n"
    }

    /// 300 s east at 3 m/s, 60 s standing, 300 s more: RMC and GGA once a second.
    static func nmeaRun() -> String {
        var out = ""
        var east = 0.0
        for s in 0...660 {
            if s > 0 && !(301...360).contains(s) { east += 3 }
            let minutes = east / (111_320 * cos(48.1 * .pi / 180)) * 60
            let lon = String(format: "011%07.4f", 30 + minutes)
            let time = String(format: "%02d%02d%02d.00", 10 + s / 3600, s / 60 % 60, s % 60)
            out += sentence("GPRMC,\(time),A,4806.0000,N,\(lon),E,5.8,90.0,010524,,,A")
            out += sentence("GPGGA,\(time),4806.0000,N,\(lon),E,1,08,0.9,520.0,M,47.0,M,,")
        }
        return out
    }

    @Test func recomputeShowsBeforeAndAfterAndSaveKeepsIt() throws {
        let d = try EmbeddedDaemon()
        try d.start()
        defer { d.stop() }
        let file = d.dir + "/run.nmea"
        try Self.nmeaRun().write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try d.ctl(["import", file, "--activity", "running"])
        #expect(imported.status == 0, "\(imported.stdout) \(imported.stderr)")
        let id = try #require((try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]])?.first?["id"] as? String)
        let saved = try #require(try d.request(#"{"command":"show","id":"\#(id)"}"#)["workout"] as? [String: Any])
        let savedMoving = try #require(saved["movingSeconds"] as? Double)

        // --json: {"before", "after"}; auto-pause off counts the stop as moving.
        let r = try d.ctl(["--json", "recompute", id, "--set", "metrics.autoPauseSeconds=0"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try DaemonHarness.parse(r.stdout)
        let before = try #require(j["before"] as? [String: Any]), after = try #require(j["after"] as? [String: Any])
        #expect(before["movingSeconds"] as? Double == savedMoving)
        #expect(before["pauseCount"] as? Int == 1 && after["pauseCount"] as? Int == 0, "\(before["pauseCount"] ?? "-") \(after["pauseCount"] ?? "-")")
        let afterMoving = try #require(after["movingSeconds"] as? Double)
        #expect(afterMoving > savedMoving + 45, "moving \(savedMoving) -> \(afterMoving)")
        // The same track: the distance moves by at most the first step out of the stop.
        #expect(abs((after["distanceMeters"] as? Double ?? 0) - (before["distanceMeters"] as? Double ?? -1)) < 5)
        #expect(j["saved"] as? Bool == false)
        // Not saved: show still has the old numbers.
        #expect((try d.request(#"{"command":"show","id":"\#(id)"}"#)["workout"] as? [String: Any])?["movingSeconds"] as? Double == savedMoving)

        // Human output: side by side.
        let text = try d.ctl(["recompute", id, "--set", "metrics.autoPauseSeconds=0"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("BEFORE") && text.stdout.contains("AFTER") && text.stdout.contains("Moving")
                && text.stdout.contains("Pauses") && text.stdout.contains("Not saved"), "\(text.stdout)")

        // Errors: a daemon refusal naming the key (exit 1, stable code); bad syntax is a usage error (exit 2).
        let unknown = try d.ctl(["recompute", id, "--set", "metrics.jumpMeterz=10"])
        #expect(unknown.status == 1 && unknown.stderr.contains("metrics.jumpMeterz"), "\(unknown.stderr)")
        let range = try d.request(#"{"command":"recompute","id":"\#(id)","set":{"metrics.jumpMeters":1}}"#)
        #expect((range["error"] as? [String: Any])?["code"] as? String == "bad_setting")
        let message = (range["error"] as? [String: Any])?["message"] as? String
        #expect(message?.contains("metrics.jumpMeters") == true, "\(range)")
        #expect(try d.ctl(["recompute", id, "--set", "autoPauseSeconds=0"]).status == 2)
        #expect(try d.ctl(["recompute", id, "--set", "metrics.autoPauseSeconds"]).status == 2)
        #expect(try d.ctl(["recompute", "20200101T000000Z-0000", "--set", "metrics.autoPauseSeconds=0"]).status == 1)

        // --save: durable, the index updated (list after a restart).
        let s = try d.ctl(["--json", "recompute", id, "--set", "metrics.autoPauseSeconds=0", "--save"])
        #expect(s.status == 0, "\(s.stderr)")
        d.stop()
        try d.start()
        let listed = (try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]])?.first
        #expect(listed?["id"] as? String == id)
        #expect(abs((listed?["movingSeconds"] as? Double ?? 0) - afterMoving) < 0.01, "\(listed ?? [:])")
        #expect(abs(((try d.request(#"{"command":"show","id":"\#(id)"}"#)["workout"] as? [String: Any])?["movingSeconds"] as? Double ?? 0) - afterMoving) < 0.01)
    }
}
