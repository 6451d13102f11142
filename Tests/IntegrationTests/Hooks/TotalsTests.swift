import Foundation
import Glibc
import Testing

/// `workoutctl totals` against the embedded daemon: the sums agree with those the test computes
/// from `list --json` (UTC, so period bounds are plain dates).
@Suite(.serialized) struct TotalsTests {
    /// A small GPX track: `points` fixes 10 s apart heading north, climbing and descending.
    static func gpx(start: Double, points: Int, step: Double) -> String {
        var s = #"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
        let f = ISO8601DateFormatter()
        for k in 0..<points {
            let t = f.string(from: Date(timeIntervalSince1970: start + Double(k) * 10))
            let ele = 100 + 30 * sin(Double(k) / 8)
            s += #"<trkpt lat="\#(48 + Double(k) * step)" lon="11.5"><ele>\#(ele)</ele><time>\#(t)</time></trkpt>"#
        }
        return s + "</trkseg></trk></gpx>"
    }

    static func instant(_ s: String) -> Double {
        let f = ISO8601DateFormatter()
        if let d = f.date(from: s) { return d.timeIntervalSince1970 }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: s)?.timeIntervalSince1970 ?? .nan
    }

    @Test func totalsAgreeWithSumsOfList() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"timeZone":"UTC"}"#, extraEnv: ["TZ": "UTC"])
        try d.start()
        let now = Date().timeIntervalSince1970
        var files: [String] = []
        // Workouts over the last ~400 days: in this and the previous week, month and year.
        for (k, daysAgo) in [0.05, 1, 2, 5, 8, 9, 13, 20, 35, 40, 70, 200, 380].enumerated() {
            let path = d.dir + "/w\(k).gpx"
            try Self.gpx(start: now - daysAgo * 86400 - 3600, points: 40 + k * 7, step: 0.0003 + Double(k) * 0.00002)
                .write(toFile: path, atomically: true, encoding: .utf8)
            files.append(path)
        }
        let imp = try d.ctl(["import"] + files + ["--activity", "running"])
        #expect(imp.status == 0, "\(imp.stdout) \(imp.stderr)")
        let walk = d.dir + "/walk.gpx"
        try Self.gpx(start: now - 2 * 86400, points: 50, step: 0.0001).write(toFile: walk, atomically: true, encoding: .utf8)
        #expect(try d.ctl(["import", walk, "--activity", "walking"]).status == 0)

        let list = try d.ctl(["--json", "list"])
        let workouts = try #require(try DaemonHarness.parse(list.stdout)["workouts"] as? [[String: Any]])
        #expect(workouts.count == 14)
        let iso = ISO8601DateFormatter()
        for (flag, activity) in [("--week", nil), ("--month", nil), ("--year", nil), ("--week", "running"), ("--month", "walking")] as [(String, String?)] {
            let r = try d.ctl(["--json", "totals", flag] + (activity.map { ["--activity", $0] } ?? []))
            #expect(r.status == 0, "\(r.stderr)")
            let totals = try #require(try DaemonHarness.parse(r.stdout)["totals"] as? [String: Any])
            for key in ["current", "previous"] {
                let p = try #require(totals[key] as? [String: Any])
                let from = try #require(iso.date(from: (p["start"] as! String) + "T00:00:00Z")).timeIntervalSince1970
                let to = try #require(iso.date(from: (p["end"] as! String) + "T00:00:00Z")).timeIntervalSince1970 + 86400
                let inside = workouts.filter { w in
                    let t = Self.instant(w["startedAt"] as! String)
                    return t >= from && t < to && (activity == nil || w["activity"] as? String == activity)
                }
                func sum(_ k: String) -> Double { inside.reduce(0) { $0 + (($1[k] as? NSNumber)?.doubleValue ?? 0) } }
                #expect(p["count"] as? Int == inside.count, "\(flag) \(key)")
                for (ours, theirs) in [("distanceMeters", "distanceMeters"), ("movingSeconds", "movingSeconds"), ("elevationGainMeters", "elevationGainMeters")] {
                    let v = (p[ours] as? NSNumber)?.doubleValue ?? -1
                    #expect(abs(v - sum(theirs)) < 1e-6 * max(1, sum(theirs)), "\(flag) \(activity ?? "any") \(key) \(ours): \(v) vs \(sum(theirs))")
                }
            }
            if flag == "--year" && activity == nil {
                #expect((totals["current"] as? [String: Any])?["count"] as? Int ?? 0 > 0)
            }
        }
        // Human output: both periods side by side.
        let text = try d.ctl(["totals", "--month"])
        #expect(text.status == 0 && text.stdout.contains("this month") && text.stdout.contains("last month") && text.stdout.contains("Distance"))
        #expect(try d.ctl(["totals", "--fortnight"]).status == 2)
        d.stop()
    }
}
