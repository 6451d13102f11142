import Foundation
import Testing
import TestRequirements

/// What a person reads follows config `units` (JSON stays SI), `stop` and `show` name the
/// personal bests a workout set, and power and cadence from files are shown: through the real
/// daemon and workoutctl.
@Suite(.serialized) struct DisplayUnitsTests {
    /// A straight run east from 48.1 N 11.5 E at `speed` m/s, one point a second.
    static func gpx(start: String, seconds: Int, speed: Double) -> String {
        let f = ISO8601DateFormatter()
        let t0 = f.date(from: start)!
        var s = #"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><type>running</type><trkseg>"#
        for i in 0...seconds {
            let lon = 11.5 + Double(i) * speed / (111_320 * cos(48.1 * .pi / 180))
            s += #"<trkpt lat="48.1" lon="\#(String(format: "%.8f", lon))"><ele>500</ele><time>\#(f.string(from: t0.addingTimeInterval(Double(i))))</time></trkpt>"#
        }
        return s + "</trkseg></trk></gpx>\n"
    }

    @Test func stopAndShowNameThePersonalBestsInImperial() throws {
        let d = try EmbeddedDaemon(config: #"{"units":"imperial","feeds":[{"kind":"socket"}]}"#)
        try d.start()
        #expect(try d.request(#"{"command":"status"}"#)["units"] as? String == "imperial")
        // An earlier 1.3 km run at 3 m/s, then a faster one at 4 m/s recorded live (simulated).
        let slow = d.dir + "/slow.gpx", fast = d.dir + "/fast.gpx"
        try Self.gpx(start: "2026-01-01T08:00:00Z", seconds: 440, speed: 3).write(toFile: slow, atomically: true, encoding: .utf8)
        try Self.gpx(start: "2026-01-02T08:00:00Z", seconds: 330, speed: 4).write(toFile: fast, atomically: true, encoding: .utf8)
        let imp = try d.ctl(["import", slow, "--activity", "running"])
        #expect(imp.status == 0, "\(imp.stdout) \(imp.stderr)")
        #expect(try d.ctl(["start", "running"]).status == 0)
        let sim = try d.ctl(["simulate", fast, "--speed", "0"])
        #expect(sim.status == 0, "\(sim.stderr)")
        try d.waitForStatus(seconds: 10) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int) == 331 }
        let stop = try d.ctl(["stop"])
        #expect(stop.status == 0, "\(stop.stderr)")
        // 1 km at 4 m/s is about 250 s; the earlier run took about 333 s (exact figures below).
        #expect(stop.stdout.contains("Personal best: fastest 400 m 1:"), "\(stop.stdout)")
        #expect(stop.stdout.contains("Personal best: fastest 1 km 4:"), "\(stop.stdout)")
        #expect(stop.stdout.contains("(previous 5:3"), "\(stop.stdout)")
        #expect(stop.stdout.contains("Distance:  0.82 mi\n"), "\(stop.stdout)")  // 1320 m
        #expect(stop.stdout.contains(" /mi (moving average)\n"), "\(stop.stdout)")
        #expect(!stop.stdout.contains(" km\n") && !stop.stdout.contains("/km"))
        try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        let list = try #require(try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]])
        let id = try #require(list.last?["id"] as? String)
        let json = try d.request(#"{"command":"show","id":"\#(id)"}"#)
        #expect(json["units"] as? String == "imperial")
        let bests = try #require(json["personalBests"] as? [[String: Any]])
        #expect(bests.map { $0["distanceMeters"] as? Double } == [400, 1000])
        let secs = try #require(bests[1]["seconds"] as? Double), prev = try #require(bests[1]["previousSeconds"] as? Double)
        #expect(abs(secs - 250) < 2.5 && abs(prev / secs - 4.0 / 3) < 1e-3, "\(secs) s, previous \(prev) s")
        func mss(_ t: Double) -> String { "\(Int(t) / 60):" + String(format: "%02d", Int(t) % 60) }
        let line = "Personal best: fastest 1 km \(mss(secs)) (previous \(mss(prev)))\n"
        #expect(stop.stdout.contains(line), "\(line) in \(stop.stdout)")
        let show = try d.ctl(["show", id])
        #expect(show.stdout.contains(line), "\(show.stdout)")
        #expect(show.stdout.contains("Climb:     +0 ft"), "\(show.stdout)")
        // The earlier run is judged against the runs before it (none), not the later faster one.
        let first = try #require(list.first?["id"] as? String)
        #expect(try d.ctl(["show", first]).stdout.contains("First efforts: 400 m 2:13, 1 km \(mss(prev))\n"))
        let listText = try d.ctl(["list"]).stdout
        #expect(listText.contains("0.82 mi") && listText.contains(" /mi"), "\(listText)")
        d.stop()
    }

    /// Power and cadence on the feed's fix lines (a bike computer, `simulate` of a file with
    /// power) show in `status` and `watch` while the workout records.
    @Test func livePowerIsShownInStatusAndWatch() throws {
        let d = try EmbeddedDaemon(config: #"{"units":"imperial","feeds":[{"kind":"socket"}]}"#)
        try d.start()
        #expect(try d.ctl(["start", "cycling"]).status == 0)
        let feed = try UnixClient(path: d.feedSocket)
        defer { feed.close() }
        let t0 = Date().timeIntervalSince1970.rounded(.down) - 60
        for i in 0..<60 {
            let lon = 11.5 + Double(i) * 8 / (111_320 * cos(48.1 * .pi / 180))
            try feed.send(#"{"class":"FIX","time":"\#(FixFeeder.iso(t0 + Double(i)))","lat":48.1,"lon":\#(String(format: "%.8f", lon)),"mode":3,"eph":3,"cad":\#(i % 2 == 0 ? 86 : 90),"power":\#(i % 2 == 0 ? 180 : 220)}"# + "\n")
        }
        let st = try d.waitForStatus(seconds: 10) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int) == 60 }
        let w = try #require(st["workout"] as? [String: Any])
        let avg = try #require(w["averagePower"] as? Double)
        #expect(abs(avg - 200) <= 20 / Double(w["acceptedCount"] as? Int ?? 1) + 1e-9, "alternating 180/220 W: \(avg)")
        #expect(w["maxPower"] as? Int == 220)
        let text = try d.ctl(["status"]).stdout
        // Normalized power too, from the same series (alternating 180/220 W: about the average).
        #expect(text.contains("Power:     \(Int(avg.rounded())) W avg, max 220 W, NP 20"), "\(text)")
        #expect(text.contains("Cadence:   88 rpm avg\n") || text.contains("Cadence:   87 rpm avg\n") || text.contains("Cadence:   89 rpm avg\n"), "\(text)")
        #expect(text.contains(" mph"), "\(text)")
        #expect(try d.ctl(["stop"]).status == 0)
        d.stop()
    }

    @Test(.requires(.sharedData))
    func importedPowerAndCadenceAreShown() throws {
        let d = try EmbeddedDaemon(config: #"{"units":"metric"}"#)
        try d.start()
        let tcx = DaemonHarness.sharedRoot.appendingPathComponent("data/tcx/gtrnctr_power.tcx").path
        let imp = try d.ctl(["import", tcx, "--activity", "cycling"])
        #expect(imp.status == 0, "\(imp.stdout) \(imp.stderr)")
        let list = try #require(try d.request(#"{"command":"list"}"#)["workouts"] as? [[String: Any]])
        let w = try #require(list.first)
        let avg = try #require(w["averagePower"] as? Double)
        let cad = try #require(w["averageCadence"] as? Double)
        // The file's own figures over all its 4,606 Watts and 4,607 Cadence values (python re):
        // 164.7 W, max 662 W, cadence 90.5 rpm (zeros left out); the daemon's are over the fixes
        // it accepted.
        #expect(abs(avg - 164.7) < 3, "\(avg)")
        #expect(w["maxPower"] as? Int == 662)
        #expect(abs(cad - 90.5) < 2, "\(cad)")
        let show = try d.ctl(["show", try #require(w["id"] as? String)]).stdout
        #expect(show.contains("Power:     \(Int(avg.rounded())) W avg, max 662 W, NP "), "\(show)")
        #expect(show.contains("Cadence:   \(Int(cad.rounded())) rpm avg\n"), "\(show)")
        #expect(try d.ctl(["list"]).stdout.contains("\(Int(avg.rounded())) W"))
        d.stop()
    }
}
