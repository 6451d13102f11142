import Testing
import WorkoutCore
@testable import WorkoutClient

@Suite struct RendererTests {
    let r = Renderer(clock: .utc)

    static let runSummary: JSON = [
        "id": "20261121T093000Z-3f9a", "activity": "running", "startedAt": "2026-11-21T09:30:00.000Z", "endedAt": nil,
        "elapsedSeconds": 754.2, "movingSeconds": 721, "distanceMeters": 2134.6, "elevationGainMeters": 12.4,
        "pointCount": 750, "averageSpeed": 2.83, "movingAverageSpeed": 2.9586, "currentSpeed": 3.125, "maxSpeed": 4.1,
        "calories": 143.4, "splits": [], "laps": [], "bestEfforts": [],
    ]

    static func status(_ state: String, workout: JSON = nil) -> JSON {
        ["ok": true, "state": .string(state), "workout": workout,
         "gps": ["source": "gpsd at 127.0.0.1:2947", "fix": "3D", "lastFixAgeSeconds": 1, "satellites": 9, "problem": nil],
         "action": "Stop running", "saveError": nil]
    }

    @Test func activeStatus() {
        let text = r.status(Self.status("active", workout: Self.runSummary))
        #expect(text.contains("State:     active (Running, started 09:30:00)"))
        #expect(text.contains("Elapsed:   0:12:34 (moving 0:12:01)"))
        #expect(text.contains("Distance:  2.13 km"))
        #expect(text.contains("Pace:      5:38 /km avg, 5:20 /km now"))
        #expect(text.contains("Calories:  143 kcal"))
        #expect(text.contains("GPS:       3D fix, 9 satellites, 1 s ago (gpsd at 127.0.0.1:2947)"))
        #expect(text.contains("Toggle:    Stop running"))
        #expect(!text.contains("Save:"))
    }

    @Test func idleStatusWithoutGPSSource() {
        let s: JSON = ["ok": true, "state": "idle", "workout": nil,
                       "gps": ["source": nil, "fix": "none", "lastFixAgeSeconds": nil, "satellites": nil, "problem": "no feed configured"],
                       "action": "Start running", "saveError": "disk full"]
        let text = r.status(s)
        #expect(text.contains("State:     idle (no workout in progress)"))
        #expect(text.contains("GPS:       no fix (no source) - no feed configured"))
        #expect(text.contains("Save:      FAILED: disk full"))
    }

    @Test func cyclingShowsSpeedAndYogaNeither() {
        var bike = Self.runSummary.objectValue!
        bike["activity"] = "cycling"
        let text = r.status(Self.status("active", workout: .object(bike)))
        #expect(text.contains("Speed:     10.7 km/h avg, 11.3 km/h now"))
        var yoga = Self.runSummary.objectValue!
        yoga["activity"] = "yoga"; yoga["distanceMeters"] = 0
        let y = r.status(Self.status("paused", workout: .object(yoga)))
        #expect(!y.contains("Distance"))
        #expect(!y.contains("Pace"))
        #expect(!y.contains("Speed"))
    }

    @Test func watchLine() {
        let line = r.statusLine(Self.status("active", workout: Self.runSummary))
        #expect(line == "active  Running  0:12:34  2.13 km  5:20 /km now  GPS 3D")
        #expect(!line.contains("\n"))
    }

    @Test func stopSummaryWithZeroDistance() {
        var w = Self.runSummary.objectValue!
        w["distanceMeters"] = 0; w["movingAverageSpeed"] = 0; w["endedAt"] = "2026-11-21T09:42:34.000Z"
        let text = r.stopped(["ok": true, "state": "saving", "workout": .object(w)])
        #expect(text.hasPrefix("Workout stopped; saving.\nRunning, 2026-11-21 09:30 - 09:42\n"))
        #expect(text.contains("Distance:  0.00 km"))
        #expect(text.contains("Pace:      -:-- /km"))
        #expect(text.contains("ID:        20261121T093000Z-3f9a"))
    }

    @Test func listTable() {
        var long = Self.runSummary.objectValue!
        long["id"] = "20261120T060000Z-0001"; long["activity"] = "cycling"; long["movingSeconds"] = .int(101 * 3600)
        long["distanceMeters"] = 1_234_567
        let text = r.list(["ok": true, "workouts": [Self.runSummary, .object(long)]])
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ID"))
        #expect(lines[1].contains("2026-11-21 09:30") && lines[1].contains("Running") && lines[1].contains("0:12:01") && lines[1].contains("5:38 /km"))
        #expect(lines[2].contains("101:00:00") && lines[2].contains("1234.57 km") && lines[2].contains("km/h"))
        #expect(r.list(["ok": true, "workouts": []]) == "No workouts.\n")
    }

    @Test func streak() {
        let s: JSON = ["ok": true, "streak": [
            "daily": ["current": 5, "best": 12, "currentStart": "2026-11-17", "bestStart": "2026-10-01", "bestEnd": "2026-10-12", "todayDone": true],
            "weekly": ["current": 1, "best": 1, "currentStart": "2026-11-16", "bestStart": "2026-11-16", "bestEnd": nil],
        ]]
        #expect(r.streak(s) == """
            Daily streak:  5 days (since 2026-11-17); best 12 days (2026-10-01 to 2026-10-12); today done
            Weekly streak: 1 week (since 2026-11-16); best 1 week (2026-11-16)

            """)
        let zero: JSON = ["ok": true, "streak": ["daily": ["current": 0, "best": 0, "todayDone": false], "weekly": ["current": 0, "best": 0]]]
        #expect(r.streak(zero) == "Daily streak:  0 days; best 0 days\nWeekly streak: 0 weeks; best 0 weeks\n")
    }

    @Test func importResults() {
        let text = r.importResults(["ok": true, "results": [
            ["file": "/a.gpx", "id": "20261121T093000Z-3f9a", "result": "imported"],
            ["file": "/b.gpx", "id": "20261121T093000Z-3f9a", "result": "duplicate"],
            ["file": "/c.txt", "id": nil, "result": "error", "error": "not GPX, TCX or NMEA"],
        ]])
        #expect(text.contains("imported   /a.gpx -> 20261121T093000Z-3f9a"))
        #expect(text.contains("duplicate  /b.gpx (already saved as 20261121T093000Z-3f9a)"))
        #expect(text.contains("error      /c.txt: not GPX, TCX or NMEA"))
    }

    @Test func showWithLapsAndEvents() {
        var w = Self.runSummary.objectValue!
        // The JSON counts from 0 (as the daemon writes it); `show` numbers from 1, as the log does.
        w["splits"] = [["index": 0, "trigger": "distance", "startTime": "2026-11-21T09:30:00Z", "endTime": "2026-11-21T09:35:38Z",
                        "elapsedSeconds": 338, "movingSeconds": 338, "distanceMeters": 1000, "elevationGainMeters": 3],
                       ["index": 1, "trigger": "distance", "startTime": "2026-11-21T09:35:38Z", "endTime": "2026-11-21T09:41:00Z",
                        "elapsedSeconds": 700, "movingSeconds": 322, "distanceMeters": 1000, "elevationGainMeters": 0]]
        w["laps"] = [["index": 0, "trigger": "manual", "startTime": "2026-11-21T09:30:00Z", "endTime": "2026-11-21T09:41:00Z",
                      "elapsedSeconds": 660, "movingSeconds": 660, "distanceMeters": 2000, "elevationGainMeters": 3]]
        w["bestEfforts"] = [["distanceMeters": 1000, "seconds": 330, "startTime": "2026-11-21T09:30:10Z"]]
        let text = r.show(["ok": true, "workout": .object(w), "events": [
            ["kind": "pause", "time": "2026-11-21T09:36:00Z", "cause": "auto"],
            ["kind": "marker", "time": "2026-11-21T09:37:00Z", "text": "water"],
        ]])
        #expect(text.contains("Splits:"))
        // Issue 39 item 8: one clock. A split with a 6-minute stop inside read its elapsed 11:40
        // beside its moving pace 5:22 /km; now its moving time, and the elapsed in its own column.
        #expect(text.contains("MOVING  ELAPSED"), "\(text)")
        #expect(text.contains("1    5:38     5:38   1.00 km  5:38 /km   +3 m"), "\(text)")
        #expect(text.contains("2    5:22    11:40   1.00 km  5:22 /km   +0 m"), "\(text)")
        #expect(text.contains("1   11:00    11:00   2.00 km  5:30 /km   +3 m"), "\(text)")
        #expect(!text.contains("\n  0 "), "nothing numbered 0")
        #expect(text.contains("Best efforts:"))
        #expect(text.contains("1 km  5:30"))
        #expect(text.contains("09:36:00  pause (auto)"))
        #expect(text.contains("09:37:00  marker: water"))
    }

    /// Issue 39: an implausible stretch never counts in a split's pace. A split of 1.00 km in
    /// 5:00 moving with a 500 m catch-up of 30 s inside: its pace is 500 m in 4:30 (9:00 /km),
    /// marked, with the note; before, 5:00 /km, the catch-up's metres counted.
    @Test func aSplitsPaceLeavesOutItsImplausibleStretch() {
        var w = Self.runSummary.objectValue!
        w["splits"] = [["index": 0, "trigger": "distance", "startTime": "2026-11-21T09:30:00Z", "endTime": "2026-11-21T09:35:00Z",
                        "elapsedSeconds": 300, "movingSeconds": 300, "distanceMeters": 1000, "elevationGainMeters": 0,
                        "implausibleMeters": 500, "implausibleSeconds": 30]]
        let text = r.show(["ok": true, "workout": .object(w), "events": []])
        #expect(text.contains("1    5:00     5:00   1.00 km  9:00 /km*"), "\(text)")
        #expect(text.contains("* pace without the implausible stretches in it"), "\(text)")
    }

    /// The device's climb beside ours (a FIT session's total_ascent and total_descent).
    @Test func showsTheDevicesClimbBesideOurs() {
        var w = Self.runSummary.objectValue!
        w["elevationGainMeters"] = 229
        w["elevationLossMeters"] = 226
        w["deviceElevationGainMeters"] = 268
        w["deviceElevationLossMeters"] = 268
        let text = r.show(["ok": true, "workout": .object(w), "events": []])
        #expect(text.contains("Climb:     +229 m / -226 m (device +268 m / -268 m)\n"), "\(text)")
    }

    @Test func activitiesTable() {
        let text = r.activities(["ok": true, "activities": [
            ["name": "running", "displayName": "Running", "supportsGPS": true, "effort": "pace"],
            ["name": "yoga", "displayName": "Yoga", "supportsGPS": false, "effort": "none"],
        ]])
        #expect(text == "NAME     DISPLAY NAME  GPS  SHOWS\nrunning  Running       yes  pace\nyoga     Yoga          no   none\n")
    }

    @Test func toleratesGarbage() {
        _ = r.status(["ok": true])
        _ = r.status(["ok": true, "workout": "x", "gps": 3])
        _ = r.list(["ok": true, "workouts": [1, "x", nil]])
        _ = r.show(["ok": true])
        _ = r.streak(["ok": true, "streak": 7])
    }
}
