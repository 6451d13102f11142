import Testing
import WorkoutCore
@testable import WorkoutClient

/// Cycling power and cadence (from TCX Watts, FIT power/cadence) in `show` (per lap too),
/// `list`, `status` and `watch`; heart rate in `stop`'s summary.
@Suite struct RendererPowerTests {
    let r = Renderer(clock: .utc)

    static let ride: JSON = [
        "id": "20261121T093000Z-3f9a", "activity": "cycling", "startedAt": "2026-11-21T09:30:00.000Z", "endedAt": "2026-11-21T10:30:00.000Z",
        "elapsedSeconds": 3600, "movingSeconds": 3500, "distanceMeters": 30000, "movingAverageSpeed": 8.5714, "pointCount": 3600,
        "averagePower": 212.4, "maxPower": 480, "averageCadence": 87.6, "averageHeartRate": 141.2, "maxHeartRate": 171,
        "laps": [["index": 0, "trigger": "manual", "startTime": "2026-11-21T09:30:00.000Z", "endTime": "2026-11-21T10:00:00.000Z",
                  "elapsedSeconds": 1800, "movingSeconds": 1750, "distanceMeters": 15000, "averagePower": 190, "maxPower": 420, "averageCadence": 85],
                 ["index": 1, "trigger": "end", "startTime": "2026-11-21T10:00:00.000Z", "endTime": "2026-11-21T10:30:00.000Z",
                  "elapsedSeconds": 1800, "movingSeconds": 1750, "distanceMeters": 15000, "averagePower": 235, "maxPower": 480, "averageCadence": 90]],
    ]

    @Test func showHasPowerAndCadenceOverallAndPerLap() {
        let text = r.show(["ok": true, "workout": Self.ride, "units": "metric"])
        #expect(text.contains("Power:     212 W avg, max 480 W\n"))
        #expect(text.contains("Cadence:   88 rpm avg\n"))
        let laps = text.components(separatedBy: "Laps:\n")[1].split(separator: "\n")
        #expect(laps[0].contains("POWER") && laps[0].contains("MAX W") && laps[0].contains("CAD"))
        #expect(laps[1].hasSuffix("190 W    420   85"), "\(laps[1])")
        #expect(laps[2].hasSuffix("235 W    480   90"), "\(laps[2])")
        #expect(!text.contains("ZONES"), "no empty zones column when no lap has zone times")
    }

    @Test func listShowsAveragePowerWhenAnyWorkoutHasIt() {
        var run = RendererTests.runSummary.objectValue!
        run["averagePower"] = nil
        let list = r.list(["ok": true, "workouts": [.object(run), Self.ride]])
        let lines = list.split(separator: "\n")
        #expect(lines[0].hasSuffix("HR  POWER"), "\(list)")
        #expect(lines[1].hasSuffix("-"))
        #expect(lines[2].hasSuffix("141  212 W"), "\(list)")
        #expect(!r.list(["ok": true, "workouts": [.object(run)]]).contains("POWER"), "no column without power")
    }

    @Test func statusAndWatchShowPowerOfTheWorkoutInProgress() {
        var live = Self.ride.objectValue!
        live["endedAt"] = nil; live["heartRate"] = 150
        let status: JSON = ["ok": true, "state": "active", "workout": .object(live), "units": "imperial"]
        let lines = r.statusLines(status)
        #expect(lines.contains("Power:     212 W avg, max 480 W"))
        #expect(lines.contains("Cadence:   88 rpm avg"))
        #expect(lines.contains("Speed:     19.2 mph avg"), "\(lines)")
        #expect(r.statusLine(status).contains("150 bpm  212 W"))
        // Without power: no line.
        #expect(!r.statusLines(RendererTests.status("active", workout: RendererTests.runSummary)).contains { $0.hasPrefix("Power:") })
    }

    /// A ride with a power meter and an FTP: normalized power, IF, TSS, zones, the power curve and
    /// work in `show`; a live reading in `status`; a treadmill run's cadence in strides.
    @Test func sensorAnalysisInShowAndStatus() {
        var ride = Self.ride.objectValue!
        ride["activity"] = "indoor_cycling"
        ride["normalizedPower"] = 231.6; ride["intensityFactor"] = 0.926; ride["trainingStress"] = 85.8; ride["workKilojoules"] = 764.6
        ride["powerZoneSeconds"] = [0, 600, 1200, 1500, 300, 0, 0]
        ride["powerCurve"] = [["seconds": 5, "watts": 480.0, "startTime": "2026-11-21T09:40:00.000Z"],
                              ["seconds": 1200, "watts": 250.2, "startTime": "2026-11-21T09:50:00.000Z"]]
        let text = r.show(["ok": true, "workout": .object(ride), "units": "metric"])
        #expect(text.contains("Power:     212 W avg, max 480 W, NP 232 W, IF 0.93, TSS 86\n"), "\(text)")
        #expect(text.contains("Power Z:   Z2 10:00  Z3 20:00  Z4 25:00  Z5 5:00\n"), "\(text)")
        #expect(text.contains("Best:      5 s 480 W, 20 min 250 W\n") && text.contains("Work:      765 kJ\n"), "\(text)")
        ride["endedAt"] = nil; ride["power"] = 251; ride["cadence"] = 91
        let lines = r.statusLines(["ok": true, "state": "active", "workout": .object(ride), "units": "metric"])
        #expect(lines.contains { $0.hasPrefix("Power:     251 W now, 212 W avg") } && lines.contains("Cadence:   91 rpm now, 88 rpm avg"), "\(lines)")
        var run = ride
        run["activity"] = "treadmill_running"; run["cadence"] = 172; run["averageCadence"] = 170
        #expect(r.statusLines(["ok": true, "state": "active", "workout": .object(run)]).contains("Cadence:   172 spm now, 170 spm avg"))
    }

    @Test func stopSummaryShowsHeartRatePowerAndCadence() {
        let text = r.stopped(["ok": true, "state": "saving", "workout": Self.ride])
        #expect(text.contains("Heart:     avg 141 bpm, max 171 bpm\n"))
        #expect(text.contains("Power:     212 W avg, max 480 W\n"))
    }
}
