import Foundation
import Glibc
import Testing
@testable import WorkoutDaemon
import TestRequirements

/// Heart rate recorded live, exported as FIT (read back by Garmin's FIT SDK) and TCX, and
/// imported back; imported heart rate shown with time in zones. The embedded daemon and workoutctl.
@Suite(.serialized) struct HeartRateExportTests {
    static let config = #"{"feeds":[{"kind":"socket"}],"heartRate":{"zones":[110,130,150,170,185]},"weightKg":70,"age":40,"sex":"male"}"#
    static let script = DaemonHarness.projectRoot.appendingPathComponent("Tests/WorkoutCoreTests/Codecs/FIT/fit_heart_rate.py").path
    /// Garmin's FIT SDK on a file: integrity, errors, records [[timestamp, hr, positioned]], sessions.
    static func sdk(_ path: String) throws -> [String: Any] {
        let r = try Reliability.run(["/usr/bin/env", "python3", script, path])
        try #require(r.status == 0, "fit_heart_rate.py: \(r.err)")
        return try DaemonHarness.parse(r.out.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static func startTime(_ reply: [String: Any]) throws -> Double {
        let text = try #require((reply["workout"] as? [String: Any])?["startedAt"] as? String)
        let f = ISO8601DateFormatter(); f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return try #require(f.date(from: text)).timeIntervalSince1970
    }

    /// Moves the daemon's `ManualClock` on to the wall time `t` (lines sent so far are read
    /// first, at the time they were sent).
    static func advance(_ d: EmbeddedDaemon, until t: Double) {
        let now = d.clock!.read().realtime
        d.advance(max(0, t - now))
    }

    /// A ride with fixes and HR lines on the feed socket (a reading at each fix's time and one
    /// between): `export --format fit` has a record per accepted fix whose heart_rate is the
    /// reading sent at its time, as Garmin's SDK reads it (integrity checked, no errors).
    @Test(.requires(.python(.garminFitSDK)))
    func feedHeartRateBesideFixesIsInTheFITExport() throws {
        let d = try EmbeddedDaemon(config: Self.config, clock: ManualClock())
        try d.start()
        defer { d.stop() }
        let start = try Self.startTime(try d.request(#"{"command":"start","activity":"cycling"}"#))
        let feed = try UnixClient(path: d.feedSocket)
        defer { feed.close() }
        let t0 = start.rounded(.up) + 1
        var sent: [Int: Int] = [:]  // whole-second fix time -> bpm sent at it
        for k in 0..<12 {
            let t = t0 + Double(k)
            Self.advance(d, until: t)
            let bpm = 100 + (k * 23) % 80
            sent[Int(t)] = bpm
            try feed.send(#"{"class":"HR","time":"\#(FixFeeder.iso(t))","bpm":\#(bpm)}"# + "\n")
            try feed.send(#"{"class":"FIX","time":"\#(FixFeeder.iso(t))","lat":\#(String(format: "%.7f", 48.1 + Double(k) * 6e-5)),"lon":11.5,"alt":500,"mode":3,"eph":3}"# + "\n")
            try feed.send(#"{"class":"HR","time":"\#(FixFeeder.iso(t + 0.5))","bpm":199}"# + "\n")
        }
        d.advance(1)
        _ = try d.waitForStatus(seconds: 3) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int) == 12 }
        let stopped = try d.request(#"{"command":"stop"}"#)
        let id = try #require((stopped["workout"] as? [String: Any])?["id"] as? String)
        _ = try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        let out = d.dir + "/ride.fit"
        let ex = try d.ctl(["export", id, "--format", "fit", "--output", out])
        #expect(ex.status == 0, "\(ex.stderr)")
        let f = try Self.sdk(out)
        #expect(f["integrity"] as? Bool == true && (f["errors"] as? [Any])?.isEmpty == true, "\(f["errors"] ?? "")")
        let records = f["records"] as? [[Any]] ?? []
        #expect(records.count >= 10, "\(records.count) records of 12 fixes (warm-up rejects up to 2)")
        let read = records.map { ($0[0] as? Int ?? 0, $0[1] as? Int) }
        let expected = read.map { sent[$0.0 + 631_065_600] }
        #expect(read.map(\.1) == expected, "SDK read \(read.map(\.1)), sent \(expected)")
        #expect(records.allSatisfy { $0[2] as? Bool == true })
        print("feed HR + fixes -> FIT: \(records.count) records, SDK heart rates \(read.map(\.1)) equal to those sent")
    }

    /// A yoga workout with HR lines only: FIT export has records with timestamp and heart_rate
    /// and no position, session training/yoga with the average and maximum sent; TCX is valid
    /// against the schema; GPX is refused (`not_exportable`) and leaves no file; both files
    /// import back as duplicates of the workout.
    @Test(.requires(.python(.garminFitSDK), .shared("schemas")))
    func indoorWorkoutExportsAsFITAndTCXAndImportsBackAsADuplicate() throws {
        let d = try EmbeddedDaemon(config: Self.config, clock: ManualClock())
        try d.start()
        defer { d.stop() }
        let start = try Self.startTime(try d.request(#"{"command":"start","activity":"yoga"}"#))
        let feed = try UnixClient(path: d.feedSocket)
        defer { feed.close() }
        let bpms = (0..<8).map { 95 + ($0 * 31) % 70 }
        for (k, b) in bpms.enumerated() {
            let t = start + 0.5 + Double(k)
            Self.advance(d, until: t)
            try feed.send(#"{"class":"HR","time":"\#(FixFeeder.iso(t))","bpm":\#(b)}"# + "\n")
        }
        d.advance(1)
        let mean = Double(bpms.reduce(0, +)) / Double(bpms.count)
        _ = try d.waitForStatus(seconds: 3) { (($0["workout"] as? [String: Any])?["maxHeartRate"] as? Int) == bpms.max() }
        let stopped = try d.request(#"{"command":"stop"}"#)
        let w = try #require(stopped["workout"] as? [String: Any])
        let id = try #require(w["id"] as? String)
        #expect(w["averageHeartRate"] as? Double == (mean * 10).rounded() / 10)
        _ = try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }

        let fit = d.dir + "/yoga.fit", tcx = d.dir + "/yoga.tcx", gpx = d.dir + "/yoga.gpx"
        #expect(try d.ctl(["export", id, "--format", "fit", "--output", fit]).status == 0)
        let f = try Self.sdk(fit)
        #expect(f["integrity"] as? Bool == true && (f["errors"] as? [Any])?.isEmpty == true, "\(f["errors"] ?? "")")
        let records = f["records"] as? [[Any]] ?? []
        #expect(records.compactMap { $0[1] as? Int } == bpms, "SDK read \(records)")
        #expect(records.allSatisfy { $0[2] as? Bool == false })
        let session = try #require((f["sessions"] as? [[String: Any]])?.first)
        #expect(session["sport"] as? String == "training" && session["sub_sport"] as? String == "yoga", "\(session)")
        #expect(session["avg_heart_rate"] as? Int == Int(mean.rounded()) && session["max_heart_rate"] as? Int == bpms.max())

        #expect(try d.ctl(["export", id, "--format", "tcx", "--output", tcx]).status == 0)
        let schema = DaemonHarness.sharedRoot.appendingPathComponent("schemas/tcx2+ax2.xsd").path
        let lint = try Reliability.run(["/usr/bin/env", "xmllint", "--nonet", "--noout", "--schema", schema, tcx])
        #expect(lint.status == 0, "\(lint.err)")

        let refused = try d.request(#"{"command":"export","id":"\#(id)","format":"gpx"}"#)
        let error = refused["error"] as? [String: Any]
        #expect(refused["ok"] as? Bool == false && error?["code"] as? String == "not_exportable", "\(refused)")
        let ctl = try d.ctl(["export", id, "--format", "gpx", "--output", gpx])
        #expect(ctl.status != 0 && ctl.stderr.contains("GPX holds positions") && !FileManager.default.fileExists(atPath: gpx), "\(ctl.stderr)")
        print("yoga export: GPX refused: \(ctl.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")

        let again = try d.ctl(["--json", "import", fit, tcx, "--activity", "yoga"])
        #expect(again.stdout.contains("\"duplicates\" : 2") || again.stdout.contains("\"duplicates\": 2"), "\(again.stdout)")
        // as a new workout (the original deleted), the FIT file is the same yoga session
        #expect(try d.ctl(["delete", id]).status == 0)
        let imported = try d.ctl(["--json", "import", fit])
        #expect(imported.stdout.contains("\"imported\" : 1") || imported.stdout.contains("\"imported\": 1"), "\(imported.stdout)")
        let list = try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]] ?? []
        #expect(list.count == 1 && list.first?["activity"] as? String == "yoga" && list.first?["maxHeartRate"] as? Int == bpms.max(), "\(list)")
    }

    /// An imported TCX ride with heart rate: `show` lists time in zones (the same figures as a
    /// live workout: docs/metrics.md), and the summary's calories are the device's (the Edge
    /// 705's lap calories: issue 25, the device's own figure kept where the file has it).
    @Test(.requires(.sharedData))
    func importedHeartRateIsShownWithTimeInZones() throws {
        let d = try EmbeddedDaemon(config: Self.config)
        try d.start()
        defer { d.stop() }
        let r = try d.ctl(["import", DaemonHarness.sharedRoot.appendingPathComponent("data/tcx/gtrnctr_power.tcx").path])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let id = try #require((try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]])?.first?["id"] as? String)
        let shown = try #require(try d.request(#"{"command":"show","id":"\#(id)"}"#)["workout"] as? [String: Any])
        let zones = shown["heartRateZoneSeconds"] as? [Double] ?? []
        #expect(zones.count == 6 && zones.reduce(0, +) > 5000, "\(zones)")
        // The Edge 705 counted the ride's calories (its lap's 1,363 kcal): the device's figure
        // wins over the power meter's work and heart rate.
        #expect(shown["caloriesMethod"] as? String == "device" && shown["calories"] as? Double == 1363, "\(shown)")
        let text = try d.ctl(["show", id]).stdout
        #expect(text.contains("Zones:"), "\(text)")
        print("imported gtrnctr_power.tcx: zones \(zones); show: \(text.split(separator: "\n").first { $0.hasPrefix("Zones:") } ?? "")")
    }
}
