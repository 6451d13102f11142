import Foundation
import Glibc
import Testing

/// `fitness`, `power-curve` and `records` against the embedded daemon, over imported TCX files:
/// three rides with power (400 W for 3 min, 300 W for 12 min, 260 W for 20 min), a run with
/// heart rate and a run with neither. Each figure is checked against a reference the test
/// computes itself from what it wrote and from `list --json`.
@Suite(.serialized) struct AnalyticsTests {
    /// A TCX activity of 1 Hz trackpoints heading north: `watts[k]` and `hr[k]` when given.
    static func tcx(sport: String, start: Double, seconds: Int, metersPerSecond: Double, watts: [Int]? = nil, hr: Int? = nil) -> String {
        let f = ISO8601DateFormatter()
        var s = #"<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2"><Activities><Activity Sport="\#(sport)"><Id>\#(f.string(from: Date(timeIntervalSince1970: start)))</Id><Lap StartTime="\#(f.string(from: Date(timeIntervalSince1970: start)))"><TotalTimeSeconds>\#(seconds)</TotalTimeSeconds><DistanceMeters>\#(Double(seconds) * metersPerSecond)</DistanceMeters><Calories>0</Calories><Intensity>Active</Intensity><TriggerMethod>Manual</TriggerMethod><Track>"#
        for k in 0...seconds {
            let t = f.string(from: Date(timeIntervalSince1970: start + Double(k)))
            let lat = 48 + Double(k) * metersPerSecond / 111_195
            s += "<Trackpoint><Time>\(t)</Time><Position><LatitudeDegrees>\(lat)</LatitudeDegrees><LongitudeDegrees>11.5</LongitudeDegrees></Position>"
            s += "<AltitudeMeters>500</AltitudeMeters><DistanceMeters>\(Double(k) * metersPerSecond)</DistanceMeters>"
            if let hr { s += "<HeartRateBpm><Value>\(hr)</Value></HeartRateBpm>" }
            if let watts { s += "<Extensions><ns3:TPX><ns3:Watts>\(watts[min(k, watts.count - 1)])</ns3:Watts></ns3:TPX></Extensions>" }
            s += "</Trackpoint>"
        }
        return s + "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
    }

    static func ride(_ seconds: Int, _ watts: Int) -> [Int] {
        Array(repeating: 100, count: 300) + Array(repeating: watts, count: seconds) + Array(repeating: 100, count: 301)
    }

    static func bestMean(_ w: [Int], _ k: Int) -> Double {
        guard w.count >= k else { return 0 }
        var sum = w[0..<k].reduce(0, +), best = sum
        for i in k..<w.count { sum += w[i] - w[i - k]; best = max(best, sum) }
        return Double(best) / Double(k)
    }

    @Test func fitnessPowerCurveAndRecordsAgreeWithReferences() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"timeZone":"UTC","ftpWatts":250,"thresholdHeartRate":170,"thresholdPaceSecondsPerKm":300}"#,
                                  extraEnv: ["TZ": "UTC"])
        try d.start()
        let day = 86_400.0
        let today = (Date().timeIntervalSince1970 / day).rounded(.down) * day
        let rides = [Self.ride(180, 400), Self.ride(720, 300), Self.ride(1200, 260)]
        var files: [String] = []
        for (k, w) in rides.enumerated() {
            let path = d.dir + "/ride\(k).tcx"
            try Self.tcx(sport: "Biking", start: today - Double(20 - 2 * k) * day + 7 * 3600, seconds: w.count - 1, metersPerSecond: 8, watts: w)
                .write(toFile: path, atomically: true, encoding: .utf8)
            files.append(path)
        }
        #expect(try d.ctl(["import"] + files + ["--activity", "cycling"]).status == 0)
        let hrRun = d.dir + "/hr.tcx", paceRun = d.dir + "/pace.tcx"
        try Self.tcx(sport: "Running", start: today - 5 * day + 6 * 3600, seconds: 2400, metersPerSecond: 3.2, hr: 150)
            .write(toFile: hrRun, atomically: true, encoding: .utf8)
        try Self.tcx(sport: "Running", start: today - 5 * day + 18 * 3600, seconds: 1800, metersPerSecond: 3.5)
            .write(toFile: paceRun, atomically: true, encoding: .utf8)
        #expect(try d.ctl(["import", hrRun, paceRun, "--activity", "running"]).status == 0)

        // Training stress per workout, by its method, against the formula.
        let list = try #require(try DaemonHarness.parse(try d.ctl(["--json", "list"]).stdout)["workouts"] as? [[String: Any]])
        #expect(list.count == 5)
        var stressByDay: [Double: Double] = [:]
        for w in list {
            let tss = try #require((w["trainingStress"] as? NSNumber)?.doubleValue, "\(w["id"] ?? "?") has no training stress")
            let moving = (w["movingSeconds"] as? NSNumber)?.doubleValue ?? 0
            switch w["trainingStressMethod"] as? String {
            case "power":
                let np = try #require((w["normalizedPower"] as? NSNumber)?.doubleValue)
                let ref = tss / 100 / ((np / 250) * (np / 250))  // hours with power
                #expect(ref > 0.2 && ref < 0.75, "power TSS \(tss) gives \(ref) h")
            case "heart_rate":
                let ref = moving / 3600 * (150.0 / 170) * (150.0 / 170) * 100
                #expect(abs(tss - ref) <= 0.02 * ref, "hrTSS \(tss) vs \(ref)")
            case "pace":
                let speed = ((w["distanceMeters"] as? NSNumber)?.doubleValue ?? 0) / moving
                let ref = moving / 3600 * (speed * 300 / 1000) * (speed * 300 / 1000) * 100
                #expect(abs(tss - ref) <= 0.02 * ref, "rTSS \(tss) vs \(ref)")
            default: Issue.record("method \(w["trainingStressMethod"] ?? "nil")")
            }
            let started = ISO8601DateFormatter().date(from: String((w["startedAt"] as! String).prefix(19)) + "Z")!.timeIntervalSince1970
            stressByDay[(started / day).rounded(.down) * day, default: 0] += tss
        }
        #expect(Set(list.compactMap { $0["trainingStressMethod"] as? String }) == ["power", "heart_rate", "pace"])

        // Fitness and fatigue against the recursion run here over the days of `list`.
        let from = today - 25 * day
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withFullDate]
        let r = try d.ctl(["--json", "fitness", "--from", iso.string(from: Date(timeIntervalSince1970: from))])
        #expect(r.status == 0, "\(r.stderr)")
        let days = try #require(try DaemonHarness.parse(r.stdout)["days"] as? [[String: Any]])
        #expect(days.count == 26)
        var fit = 0.0, fat = 0.0
        for (k, row) in days.enumerated() {
            let load = stressByDay[from + Double(k) * day] ?? 0
            fit += (load - fit) * (1 - exp(-1.0 / 42))
            fat += (load - fat) * (1 - exp(-1.0 / 7))
            #expect(row["date"] as? String == iso.string(from: Date(timeIntervalSince1970: from + Double(k) * day)))
            #expect(abs(((row["load"] as? NSNumber)?.doubleValue ?? -1) - load) < 0.2)
            for (key, ref) in [("fitness", fit), ("fatigue", fat)] {
                let v = (row[key] as? NSNumber)?.doubleValue ?? -1
                #expect(abs(v - ref) <= max(0.02 * ref, 0.1), "\(row["date"] ?? "") \(key) \(v) vs \(ref)")
            }
        }
        let text = try d.ctl(["fitness", "--from", iso.string(from: Date(timeIntervalSince1970: today - 3 * day))])
        #expect(text.status == 0 && text.stdout.contains("FITNESS") && text.stdout.contains("(today)"), "\(text.stdout)")
        #expect(try d.ctl(["fitness", "--from", "2026-13-01"]).status == 2)
        let refused = try d.request(#"{"command":"fitness","from":"2026-02-01","to":"2026-01-01"}"#)
        #expect(refused["ok"] as? Bool == false)

        // The power curve: each point within 1 % of the best mean over the records written.
        let pc = try d.ctl(["--json", "power-curve"])
        #expect(pc.status == 0, "\(pc.stderr)")
        let reply = try DaemonHarness.parse(pc.stdout)
        let curve = try #require(reply["curve"] as? [[String: Any]])
        let ids = list.filter { $0["activity"] as? String == "cycling" }
            .sorted { ($0["startedAt"] as! String) < ($1["startedAt"] as! String) }.map { $0["id"] as! String }
        // Every duration up to the longest ride (30 min).
        #expect(curve.compactMap { $0["seconds"] as? Int } == [1, 2, 3, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 360, 480, 600, 720, 900, 1200, 1500, 1800])
        for p in curve {
            let k = p["seconds"] as! Int
            let refs = rides.map { Self.bestMean($0, k) }
            let ref = refs.max()!
            let watts = (p["watts"] as? NSNumber)?.doubleValue ?? -1
            #expect(abs(watts - ref) <= 0.01 * ref, "\(k) s: \(watts) vs \(ref)")
            if [180, 720, 1200].contains(k) { #expect(p["id"] as? String == ids[refs.firstIndex(of: ref)!], "\(k) s names its ride") }
        }
        let cp = (reply["criticalPower"] as? NSNumber)?.doubleValue ?? 0, wp = (reply["wPrime"] as? NSNumber)?.doubleValue ?? 0
        let eftp = (reply["eFTP"] as? NSNumber)?.doubleValue ?? 0
        #expect(cp > 235 && cp < 255 && wp > 15_000 && wp < 35_000 && eftp > cp && eftp < 260, "CP \(cp) W' \(wp) eFTP \(eftp)")
        #expect(reply["workouts"] as? Int == 3 && reply["measured"] as? Int == 3)
        // Asked again: every curve is kept, no file is read.
        #expect(try DaemonHarness.parse(try d.ctl(["--json", "power-curve"]).stdout)["measured"] as? Int == 0)
        // And after a restart: the curves were kept on disk, none is measured again, the same curve.
        d.stop()
        try d.start()
        let again = try DaemonHarness.parse(try d.ctl(["--json", "power-curve"]).stdout)
        #expect(again["measured"] as? Int == 0 && again["workouts"] as? Int == 3, "\(again["measured"] ?? "nil") measured after a restart")
        #expect((again["curve"] as? [[String: Any]])?.count == curve.count)
        #expect(((again["curve"] as? [[String: Any]])?.first { $0["seconds"] as? Int == 1200 }?["watts"] as? NSNumber)
                == (curve.first { $0["seconds"] as? Int == 1200 }?["watts"] as? NSNumber))
        let ranged = try DaemonHarness.parse(try d.ctl(["--json", "power-curve", "--from", iso.string(from: Date(timeIntervalSince1970: today - 17 * day))]).stdout)
        #expect((ranged["curve"] as? [[String: Any]])?.first { $0["seconds"] as? Int == 180 }?["watts"] as? NSNumber != 400)
        #expect(try d.ctl(["power-curve", "--activity", "running"]).stdout.contains("No workouts with power"))
        #expect(try d.ctl(["power-curve"]).stdout.contains("Critical power"))

        // Records: power over 5 s ... 20 min names its ride; the runs' distances.
        let rec = try #require(try DaemonHarness.parse(try d.ctl(["--json", "records"]).stdout)["records"] as? [[String: Any]])
        let power = rec.filter { $0["kind"] as? String == "power" }
        #expect(Set(power.compactMap { $0["seconds"] as? Int }) == [5, 60, 300, 1200])
        for p in power where p["seconds"] as? Int == 1200 { #expect(p["id"] as? String == ids[2] && (p["watts"] as? NSNumber)?.doubleValue == 260) }
        #expect(rec.contains { $0["kind"] as? String == "distance" && $0["activity"] as? String == "running" && $0["distanceMeters"] as? Double == 5000 })
        let recText = try d.ctl(["records", "--activity", "cycling"])
        #expect(recText.status == 0 && recText.stdout.contains("power 20 min") && !recText.stdout.contains("Running"), "\(recText.stdout)")
        d.stop()
    }
}
