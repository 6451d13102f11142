import Foundation
@testable import WorkoutCore

/// Workouts for the page tests: a synthetic ride of any length (a loop with hills, heart rate,
/// power and cadence, a pause every hour, laps), and summaries for history pages.
enum WebFixtures {
    static let start = 1_795_000_000.0  // 2026-11-18

    static func ride(points n: Int, activity: ActivityType = .cycling) -> Workout {
        var points: [TrackPoint] = []
        points.reserveCapacity(n)
        var events: [WorkoutEvent] = []
        let lat0 = 47.37, lon0 = 8.54
        var t = start
        var laps: [LapSummary] = []
        for k in 0..<n {
            if k > 0, k % 3600 == 0 {
                events.append(WorkoutEvent(kind: .pause, time: t + 0.5, cause: .manual))
                t += 120
                events.append(WorkoutEvent(kind: .resume, time: t - 0.5))
            }
            let a = Double(k) / 2000 * 2 * Double.pi
            let r = 0.03 + 0.005 * sin(Double(k) / 300)
            var f = Fix(time: t, latitude: lat0 + r * sin(a), longitude: lon0 + r * 1.5 * cos(a),
                        altitude: 420 + 80 * sin(Double(k) / 900) + 5 * sin(Double(k) / 37), speed: 8)
            f.heartRate = 120 + Int(30 * sin(Double(k) / 1300)) + k % 7
            f.power = 180 + Int(60 * sin(Double(k) / 400)) + (k * 37) % 50
            f.cadence = 85 + k % 11
            points.append(TrackPoint(fix: f, segment: 0))
            t += 1
        }
        let end = t
        for l in 0..<max(1, n / 3600) {
            let s = start + Double(l) * 3720, e = min(end, s + 3600)
            laps.append(LapSummary(index: l, trigger: .time, startTime: s, endTime: e, elapsedSeconds: e - s, movingSeconds: e - s, distanceMeters: 28_000, averageHeartRate: 130, maxHeartRate: 160))
        }
        var s = WorkoutSummary(id: WorkoutID(start: start, suffix: 0x1234), activity: activity, startedAt: start, endedAt: end,
                               elapsedSeconds: end - start, movingSeconds: Double(n), distanceMeters: Double(n) * 8,
                               elevationGainMeters: 1234, elevationLossMeters: 1230, pointCount: n, acceptedCount: n,
                               averageSpeed: 7.5, movingAverageSpeed: 8, maxSpeed: 14)
        s.averageHeartRate = 135; s.maxHeartRate = 171
        s.heartRateZoneBounds = [100, 120, 140, 160, 175]
        s.heartRateZoneSeconds = [10, 300, 2000, 1200, 400, 20]
        s.averagePower = 205; s.maxPower = 410; s.averageCadence = 90
        s.laps = laps
        s.splits = (0..<min(200, n * 8 / 1000)).map { LapSummary(index: $0, trigger: .distance, startTime: start + Double($0) * 125, endTime: start + Double($0 + 1) * 125, elapsedSeconds: 125, movingSeconds: 125, distanceMeters: 1000, elevationGainMeters: 6, averageHeartRate: 130) }
        s.bestEfforts = [BestEffort(distanceMeters: 5000, seconds: 560, startTime: start), BestEffort(distanceMeters: 10000, seconds: 1190, startTime: start)]
        return Workout(summary: s, points: points, events: events, source: "imported:<b>ride</b>.fit")
    }

    /// An indoor workout of `seconds` without a track: sensor readings every second (a power
    /// meter and a wheel and crank sensor for a ride, a footpod for a treadmill run), heart
    /// rate, the sensor's distance as the workout's, and the power meter silent for a minute
    /// in the middle (a dropout: a gap).
    static func indoor(_ activity: ActivityType, seconds n: Int) -> Workout {
        var sensors: [SensorSample] = []
        var hr: [HeartRateSample] = []
        var meters = 0.0
        for k in 0..<n {
            let t = start + Double(k)
            hr.append(HeartRateSample(time: t, bpm: 120 + k % 20))
            switch activity {
            case .treadmillRunning:
                sensors.append(SensorSample(time: t, source: .rsc, reading: SensorReading(cadence: 86, speed: 3.2, distance: 3.2)))
                meters += 3.2
            default:
                if k == n / 2 { sensors.append(SensorSample(time: t, source: .power, reading: nil)) }
                if k < n / 2 || k >= n / 2 + 60 {
                    sensors.append(SensorSample(time: t, source: .power, reading: SensorReading(power: 200 + k % 40, cadence: 90)))
                }
                sensors.append(SensorSample(time: t + 0.5, source: .csc, reading: SensorReading(cadence: 88, speed: 9, distance: 9)))
                meters += 9
            }
        }
        var s = WorkoutSummary(id: WorkoutID(start: start, suffix: 0x4321), activity: activity, startedAt: start, endedAt: start + Double(n),
                               elapsedSeconds: Double(n), movingSeconds: Double(n), distanceMeters: meters,
                               movingAverageSpeed: meters / Double(n), maxSpeed: activity == .treadmillRunning ? 3.2 : 9)
        s.distanceSource = .sensor
        s.averageHeartRate = 130; s.maxHeartRate = 139
        if activity != .treadmillRunning { s.averagePower = 219; s.maxPower = 239 }
        s.averageCadence = activity == .treadmillRunning ? 86 : 90
        return Workout(summary: s, points: [], events: [], heartRate: HeartRateSeries(samples: hr), sensors: sensors)
    }

    static func summaries(_ count: Int, now: Double) -> [WorkoutSummary] {
        let kinds: [ActivityType] = [.running, .cycling, .walking, .strength, .hiking]
        return (0..<count).map { k in
            let t = now - Double(k) * 86400 * 0.9 - 3600
            var s = WorkoutSummary(id: WorkoutID(start: t, suffix: UInt16(k % 65536)), activity: kinds[k % kinds.count], startedAt: t, endedAt: t + 3000,
                                   elapsedSeconds: 3000, movingSeconds: 2800, distanceMeters: kinds[k % kinds.count].supportsGPS ? 5000 + Double(k % 17) * 700 : 0,
                                   elevationGainMeters: Double(k % 9) * 20, movingAverageSpeed: 3 + Double(k % 5))
            s.bestEfforts = [BestEffort(distanceMeters: 1000, seconds: 240 + Double(k % 31), startTime: t)]
            if k % 3 == 0 { s.averageHeartRate = 140 }
            return s
        }
    }

    static let context = WebPageContext(units: .metric, calendar: StreakCalculator(zone: .utc), now: start + 90000, formToken: "form-token", version: "test")

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Each `data-chart` name in the page, in order.
    static func charts(_ html: String) -> [String] {
        html.components(separatedBy: "data-chart=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }
}
