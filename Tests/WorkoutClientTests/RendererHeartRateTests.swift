import Testing
import WorkoutCore
@testable import WorkoutClient

@Suite struct RendererHeartRateTests {
    let r = Renderer(clock: .utc)

    static let yoga: JSON = [
        "id": "20261121T093000Z-3f9a", "activity": "yoga", "startedAt": "2026-11-21T09:30:00.000Z", "endedAt": nil,
        "elapsedSeconds": 600, "movingSeconds": 600, "distanceMeters": 0, "pointCount": 0,
        "averageHeartRate": 96.4, "maxHeartRate": 121, "heartRate": 104, "heartRateZone": 1,
        "heartRateZoneBounds": [95, 114, 133, 152, 171], "heartRateZoneSeconds": [120, 420, 60, 0, 0, 0],
        "calories": 51.2, "caloriesMethod": "heart_rate",
        "laps": [["index": 0, "trigger": "end", "startTime": "2026-11-21T09:30:00.000Z", "endTime": "2026-11-21T09:40:00.000Z",
                  "elapsedSeconds": 600, "movingSeconds": 600, "distanceMeters": 0, "averageHeartRate": 96, "maxHeartRate": 121,
                  "heartRateZoneSeconds": [120, 420, 60, 0, 0, 0]]],
    ]

    @Test func statusShowsCurrentBpmZoneAndSensor() {
        let status: JSON = ["ok": true, "state": "active", "workout": Self.yoga, "gps": nil,
                            "sensors": [["kind": "bluetooth", "state": "connected", "name": "HRM-Dual:000001", "battery": 80, "problem": nil]]]
        let lines = r.statusLines(status)
        #expect(lines.contains("Heart:     104 bpm Z1 (avg 96, max 121)"))
        #expect(lines.contains("Calories:  51 kcal (from heart rate)"))
        #expect(lines.contains("Sensor:    HRM-Dual:000001 connected, battery 80 %"))
        #expect(r.statusLine(status).contains("104 bpm Z1"))
        var gap = Self.yoga.objectValue!
        gap["heartRate"] = nil; gap["heartRateZone"] = nil
        let lost: JSON = ["ok": true, "state": "active", "workout": .object(gap),
                          "sensors": [["kind": "bluetooth", "state": "lost", "problem": "disconnected; retrying in 2 s"]]]
        #expect(r.statusLines(lost).contains("Heart:     no reading (avg 96, max 121)"))
        #expect(r.statusLines(lost).contains("Sensor:    sensor lost - disconnected; retrying in 2 s"))
    }

    @Test func showHasAverageMaxZonesPerLapAndListHasTheAverage() {
        let text = r.show(["ok": true, "workout": Self.yoga])
        #expect(text.contains("Heart:     avg 96 bpm, max 121 bpm\n"))
        #expect(text.contains("Zones:     <Z1 2:00  Z1 7:00  Z2 1:00\n"))
        #expect(text.contains("HR AVG"))
        #expect(text.contains("96  121  <Z1 2:00  Z1 7:00  Z2 1:00"))
        let list = r.list(["ok": true, "workouts": [Self.yoga]])
        #expect(list.split(separator: "\n")[0].hasSuffix("HR"))
        #expect(list.split(separator: "\n")[1].hasSuffix("96"))
    }
}
