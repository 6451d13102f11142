import Foundation
import Glibc
import Testing
import TestRequirements
@testable import WorkoutDaemon

/// Heart rate through the feed socket, end to end with the daemon (embedded) and workoutctl.
@Suite(.serialized) struct HeartRateFeedTests {
    static let zones = [110, 130, 150, 170, 185]
    static let config = #"{"feeds":[{"kind":"socket"}],"heartRate":{"zones":[110,130,150,170,185]},"weightKg":70,"age":40,"sex":"male"}"#

    static func zone(_ bpm: Int) -> Int { zones.filter { bpm >= $0 }.count }

    /// A yoga workout (no GPS) gets HR lines only: the exact average and maximum of what was
    /// sent, the latest as `heartRate` and null once none arrives (never the last value
    /// repeated), and the same figures after a crash and restore from the journal. On a
    /// `ManualClock`: the silence and the journal flush are the test's clock moving; the crash is
    /// a copy of the directories (what a SIGKILL leaves).
    @Test func yogaWithoutGPSGetsTheExactAverageAndMaximumAndSurvivesACrash() throws {
        var d = try EmbeddedDaemon(config: Self.config, clock: ManualClock())
        try d.start()
        let started = try d.request(#"{"command":"start","activity":"yoga"}"#)
        let workout = try #require(started["workout"] as? [String: Any])
        let startText = try #require(workout["startedAt"] as? String)
        let f = ISO8601DateFormatter(); f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let start = try #require(f.date(from: startText)).timeIntervalSince1970
        let bpms = (0..<25).map { 95 + ($0 * 37) % 83 }  // 95...177, unordered
        let feed = try UnixClient(path: d.feedSocket)
        // a fix for an activity without GPS is not recorded; an invalid HR line is counted
        try feed.send(#"{"class":"FIX","time":"\#(FixFeeder.iso(start + 0.1))","lat":48.1,"lon":11.5}"# + "\n")
        try feed.send(#"{"class":"HR","time":"\#(FixFeeder.iso(start + 0.2))","bpm":"fast"}"# + "\n")
        for (k, b) in bpms.enumerated() {
            try feed.send(#"{"class":"HR","time":"\#(FixFeeder.iso(start + 0.5 + Double(k) * 0.2))","bpm":\#(b),"rr":[\#(String(format: "%.4f", 60.0 / Double(b)))]}"# + "\n")
        }
        let mean = Double(bpms.reduce(0, +)) / Double(bpms.count)
        let expectedAverage = (mean * 10).rounded() / 10
        print("yoga feed HR: sent \(bpms.count) readings, mean \(mean), max \(bpms.max()!)")
        let s = try d.waitForStatus(seconds: 5) { (($0["workout"] as? [String: Any])?["averageHeartRate"] as? Double) == expectedAverage }
        let w = try #require(s["workout"] as? [String: Any])
        #expect(w["averageHeartRate"] as? Double == expectedAverage, "sent \(bpms)")
        #expect(w["maxHeartRate"] as? Int == bpms.max())
        #expect(w["heartRate"] as? Int == bpms.last)
        #expect(w["heartRateZone"] as? Int == Self.zone(bpms.last!))
        #expect(w["caloriesMethod"] as? String == "heart_rate")
        #expect(w["pointCount"] as? Int == 0)
        #expect(((s["gps"] as? [String: Any])?["rejectedInput"] as? [String: Any])?["hr_bad_bpm"] as? Int == 1)
        // Silence: no heart rate is shown, the last value is not repeated.
        func silence(_ s: [String: Any]) -> Bool { (s["workout"] as? [String: Any])?["heartRate"].map { $0 is NSNull } ?? false }
        var silent = try d.request(#"{"command":"status"}"#)
        for _ in 0..<60 where !silence(silent) {
            d.advance(0.5)
            silent = try d.request(#"{"command":"status"}"#)
        }
        #expect((silent["workout"] as? [String: Any])?["heartRate"] is NSNull)
        let zoneBefore = (silent["workout"] as? [String: Any])?["heartRateZoneSeconds"] as? [Double]
        var expectedZones = [Double](repeating: 0, count: Self.zones.count + 1)
        for b in bpms.dropLast() { expectedZones[Self.zone(b)] += 0.2 }
        #expect(zip(zoneBefore ?? [], expectedZones).allSatisfy { abs($0 - $1) < 1e-6 }, "\(zoneBefore ?? []) vs \(expectedZones)")
        // The log's status line and `watch` are fed from the same summary; crash and restore now.
        d.advance(1.2)  // past a journal flush
        let crashed = d
        d = try EmbeddedDaemon(copyingStateOf: crashed)
        crashed.stop()
        feed.close()
        try d.start()
        let restored = try d.waitForStatus(seconds: 5) { $0["state"] as? String == "paused" }
        let rw = try #require(restored["workout"] as? [String: Any])
        #expect(rw["averageHeartRate"] as? Double == expectedAverage)
        #expect(rw["maxHeartRate"] as? Int == bpms.max())
        let stopped = try d.request(#"{"command":"stop"}"#)
        let id = try #require((stopped["workout"] as? [String: Any])?["id"] as? String)
        _ = try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        let show = try d.request(#"{"command":"show","id":"\#(id)"}"#)
        let sw = try #require(show["workout"] as? [String: Any])
        #expect(sw["averageHeartRate"] as? Double == expectedAverage && sw["maxHeartRate"] as? Int == bpms.max())
        #expect(sw["heartRate"] is NSNull)
        let list = try d.request(#"{"command":"list"}"#)
        #expect(((list["workouts"] as? [[String: Any]])?.first?["averageHeartRate"] as? Double) == expectedAverage)
        let text = try d.ctl(["show", id]).stdout
        #expect(text.contains("Heart:     avg \(Int(mean.rounded())) bpm, max \(bpms.max()!) bpm"), "\(text)")
        let saved = try String(contentsOfFile: d.dataDir + "/workouts/\(id).json", encoding: .utf8)
        #expect(saved.contains(#""heartRate":{"samples":["#))
        d.stop()
    }

    /// `workoutctl simulate` of a GPX track with heart rate into a run: the file's heart rate
    /// arrives as HR lines, and the GPX and TCX exports carry it back, read by gpsbabel equal
    /// to the file's, point by point.
    @Test(.requires(.sharedData, .program(.gpsbabel), .program(.xmllint)))
    func simulatedTrackHeartRateIsExportedAndReadBackByGpsbabel() throws {
        let d = try EmbeddedDaemon(config: Self.config)
        try d.start()
        let n = 40
        let hrs = (0..<n).map { 100 + ($0 * 13) % 87 }
        var gpx = #"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><trkseg>"#
        for k in 0..<n {
            gpx += #"<trkpt lat="48.1" lon="\#(String(format: "%.6f", 11.5 + Double(k) * 4e-5))"><time>\#(FixFeeder.iso(1_795_000_000 + Double(k)))</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\#(hrs[k])</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>"#
        }
        gpx += "</trkseg></trk></gpx>\n"
        let file = d.dir + "/hr.gpx"
        try gpx.write(toFile: file, atomically: true, encoding: .utf8)
        _ = try d.request(#"{"command":"start","activity":"running"}"#)
        let sim = try d.ctl(["--socket", d.controlSocket, "simulate", file, "--speed", "0"])
        #expect(sim.status == 0, "\(sim.stderr)")
        let s = try d.waitForStatus(seconds: 5) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int) == n }
        #expect((s["workout"] as? [String: Any])?["pointCount"] as? Int == n)
        let stopped = try d.request(#"{"command":"stop"}"#)
        let w = try #require(stopped["workout"] as? [String: Any])
        let id = try #require(w["id"] as? String)
        let mean = Double(hrs.reduce(0, +)) / Double(n)
        #expect(w["averageHeartRate"] as? Double == (mean * 10).rounded() / 10)
        #expect(w["maxHeartRate"] as? Int == hrs.max())
        var expectedZones = [Double](repeating: 0, count: Self.zones.count + 1)
        for b in hrs.dropLast() { expectedZones[Self.zone(b)] += 1 }
        #expect(w["heartRateZoneSeconds"] as? [Double] == expectedZones)
        _ = try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        for format in ["gpx", "tcx"] {
            let ex = try d.request(#"{"command":"export","id":"\#(id)","format":"\#(format)"}"#)
            let content = try #require(ex["content"] as? String)
            let out = d.dir + "/\(id).\(format)"
            try content.write(toFile: out, atomically: true, encoding: .utf8)
            let schema = DaemonHarness.sharedRoot.appendingPathComponent("schemas/" + (format == "gpx" ? "gpx11+garmin.xsd" : "tcx2+ax2.xsd")).path
            let lint = try Reliability.run(["/usr/bin/env", "xmllint", "--nonet", "--noout", "--schema", schema, out])
            #expect(lint.status == 0, "\(format): \(lint.err)")
            let babel = try Reliability.run(["/usr/bin/env", "gpsbabel", "-t", "-i", format == "gpx" ? "gpx" : "gtrnctr", "-f", out, "-o", "unicsv", "-F", "-"])
            let rows = babel.out.split(whereSeparator: \.isNewline).map { $0.split(separator: ",").map(String.init) }
            let column = try #require(rows.first?.firstIndex(of: "Heartrate"), "\(format): \(babel.out.prefix(200))")
            let read = rows.dropFirst().compactMap { Int($0[column]) }
            #expect(read == hrs, "\(format): gpsbabel read \(read)")
        }
        d.stop()
    }
}
