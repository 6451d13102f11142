import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// FIT workout files (file type 5) as plans: one written by Garmin's FIT SDK read as the SDK
/// reads it (the oracle), and hostile ones refused in words naming the workout_step.
@Suite struct FITPlanDecoderTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fit_workout.py").path

    /// Writes `messages` with the SDK's Encoder; returns the file's bytes.
    static func sdkEncode(_ messages: [[String: Any]]) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString).fit").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try SharedData.run(["python3", script, "encode", path], stdin: try JSONSerialization.data(withJSONObject: messages))
        try #require(r.status == 0, "fit_workout.py encode: \(r.stderr)")
        return try SharedData.bytes(URL(fileURLWithPath: path))
    }

    /// The SDK's reading of `bytes`.
    static func sdkDecode(_ bytes: [UInt8]) throws -> [String: Any] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString).fit").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let r = try SharedData.run(["python3", script, "decode", path])
        try #require(r.status == 0, "fit_workout.py decode: \(r.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    /// A workout of every kind of step: FTP percentages and watts, a power zone, a repeat, heart
    /// rate in bpm and as a zone, cadence, speed, an open cool-down.
    static func messages() -> [[String: Any]] {
        func step(_ i: Int, _ fields: [String: Any]) -> [String: Any] { fields.merging(["mesg_num": 27, "message_index": i]) { a, _ in a } }
        return [
            ["mesg_num": 0, "type": "workout", "manufacturer": "development", "product": 1, "serial_number": 41, "time_created": 1_100_000_000],
            ["mesg_num": 26, "wkt_name": "FIT 3 x 5", "sport": "cycling", "num_valid_steps": 9],
            step(0, ["duration_type": "time", "duration_value": 300_000, "target_type": "power", "target_value": 0,
                     "custom_target_value_low": 50, "custom_target_value_high": 60, "intensity": "warmup"]),
            step(1, ["wkt_step_name": "Work", "notes": "Hold it", "duration_type": "time", "duration_value": 300_000, "target_type": "power",
                     "target_value": 0, "custom_target_value_low": 1250, "custom_target_value_high": 1270, "intensity": "interval"]),
            step(2, ["duration_type": "time", "duration_value": 120_000, "target_type": "power", "target_value": 2, "intensity": "recovery"]),
            step(3, ["duration_type": "repeat_until_steps_cmplt", "duration_value": 1, "target_type": "open", "target_value": 3]),
            step(4, ["duration_type": "distance", "duration_value": 200_000, "target_type": "heart_rate", "target_value": 0,
                     "custom_target_value_low": 240, "custom_target_value_high": 250, "intensity": "active"]),
            step(5, ["duration_type": "time", "duration_value": 60_000, "target_type": "cadence", "target_value": 0,
                     "custom_target_value_low": 85, "custom_target_value_high": 95]),
            step(6, ["duration_type": "distance", "duration_value": 100_000, "target_type": "speed", "target_value": 0,
                     "custom_target_value_low": 3_000, "custom_target_value_high": 3_500]),
            step(7, ["duration_type": "time", "duration_value": 60_000, "target_type": "heart_rate", "target_value": 3]),
            step(8, ["duration_type": "open", "target_type": "open", "intensity": "cooldown"]),
        ]
    }

    static let zones = HeartRateZones(lowerBounds: [100, 120, 140, 160, 180])

    @Test(.requires(.python(.garminFitSDK)))
    func aWorkoutTheSDKWroteIsReadAsTheSDKReadsIt() throws {
        let bytes = try Self.sdkEncode(Self.messages())
        let sdk = try Self.sdkDecode(bytes)
        #expect(sdk["integrity"] as? Bool == true, "\(sdk["errors"] ?? "")")
        #expect(sdk["file_type"] as? String == "workout")
        let plan = try PlanDecoder.decode(bytes, ftpWatts: 250, heartRateZones: Self.zones, maxHeartRate: 190)
        expectEqual(plan.name, (sdk["workout"] as? [String: Any])?["wkt_name"] as? String)

        // What the SDK's steps mean (its sub-fields, by the profile's rules), unrolled.
        let sdkSteps = try #require(sdk["steps"] as? [[String: Any]])
        expectEqual(sdkSteps.count, 9)
        var expected: [PlanStep] = []
        var begins: [Int: Int] = [:]
        func num(_ s: [String: Any], _ k: String) -> Double? { (s[k] as? NSNumber)?.doubleValue }
        for s in sdkSteps {
            let i = try #require(s["message_index"] as? Int)
            begins[i] = expected.count
            if s["duration_type"] as? String == "repeat_until_steps_cmplt" {
                let back = try #require(num(s, "duration_step")), times = try #require(num(s, "repeat_steps"))
                let from = try #require(begins[Int(back)])
                let body = Array(expected[from...])
                for _ in 1..<Int(times) { expected += body }
                continue
            }
            let length: PlanStep.Length
            switch s["duration_type"] as? String {
            case "time": length = .seconds(try #require(num(s, "duration_time")))
            case "distance": length = .meters(try #require(num(s, "duration_distance")))
            default: length = .open
            }
            func power(_ v: Double) -> Double { v > 1000 ? v - 1000 : v / 100 * 250 }
            let target: PlanTarget = switch s["target_type"] as? String {
            case "power" where num(s, "target_power_zone") == 2: .power(low: 0.56 * 250, high: 0.75 * 250)
            case "power": .power(low: power(num(s, "custom_target_power_low")!), high: power(num(s, "custom_target_power_high")!))
            case "heart_rate" where num(s, "target_hr_zone") == 3: .heartRate(low: 140, high: 159)
            case "heart_rate": .heartRate(low: num(s, "custom_target_heart_rate_low")! - 100, high: num(s, "custom_target_heart_rate_high")! - 100)
            case "cadence": .cadence(low: num(s, "custom_target_cadence_low")!, high: num(s, "custom_target_cadence_high")!)
            case "speed": .speed(low: num(s, "custom_target_speed_low")!, high: num(s, "custom_target_speed_high")!)
            default: .none
            }
            let kind: PlanStep.Kind = switch s["intensity"] as? String {
            case "warmup": .warmup
            case "cooldown": .cooldown
            case "recovery", "rest": .recovery
            default: .work
            }
            let text = [s["wkt_step_name"] as? String, s["notes"] as? String].compactMap { $0 }.joined(separator: ": ")
            expected.append(PlanStep(kind: kind, length: length, target: target, prompts: text.isEmpty ? [] : [.init(offset: 0, text: text)]))
        }
        expectEqual(plan.steps.count, 12, "9 steps, the repeat's two thrice")
        expectEqual(plan.steps, expected)
        // The figures the rules give, as a person reads them.
        expectEqual(plan.steps[0].target, .power(low: 125, high: 150))
        expectEqual(plan.steps[1], PlanStep(kind: .work, length: .seconds(300), target: .power(low: 250, high: 270),
                                            prompts: [.init(offset: 0, text: "Work: Hold it")]))
        expectEqual(plan.steps[2].target, .power(low: 140, high: 187.5))
        expectEqual(plan.steps[7], PlanStep(kind: .work, length: .meters(2000), target: .heartRate(low: 140, high: 150)))
        expectEqual(plan.steps[9].target, .speed(low: 3, high: 3.5))
        expectEqual(plan.steps[11], PlanStep(kind: .cooldown, length: .open))
    }

    // MARK: - Hostile files (built with the project's FIT encoder)

    /// One workout_step's raw fields (nil: absent).
    struct Raw: Sendable {
        var duration: UInt8? = 0
        var value: Int64? = 60_000
        var target: UInt8? = 4
        var zone: Int64? = 0
        var low: Int64? = 1200
        var high: Int64? = 1200
        var intensity: UInt8? = 0
    }

    /// A workout file of `steps` (file type `type`), message_index in order.
    static func file(_ steps: [Raw], type: Int64 = 5) -> [UInt8] {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [.init(0, .enumeration)])
        e.message(local: 0, [type])
        e.define(local: 1, global: 26, [.init(4, .enumeration), .init(6, .uint16)])
        e.message(local: 1, [2, Int64(steps.count)])
        e.define(local: 2, global: 27, [.init(254, .uint16), .init(1, .enumeration), .init(2, .uint32), .init(3, .enumeration),
                                         .init(4, .uint32), .init(5, .uint32), .init(6, .uint32), .init(7, .enumeration)])
        for (i, s) in steps.enumerated() {
            e.message(local: 2, [Int64(i), s.duration.map(Int64.init), s.value, s.target.map(Int64.init), s.zone, s.low, s.high,
                                 s.intensity.map(Int64.init)])
        }
        return e.file()
    }

    static func refusal(_ bytes: [UInt8], ftp: Double? = 250) -> String {
        do {
            let plan = try PlanDecoder.decode(bytes, ftpWatts: ftp)
            return "read: \(plan.steps.count) steps"
        } catch {
            return error.description
        }
    }

    @Test func theProjectsEncoderMakesAWorkoutThatReads() throws {
        let plan = try PlanDecoder.decode(Self.file([Raw(), Raw(duration: 6, value: 0, target: 2, zone: 4)]), ftpWatts: 250)
        expectEqual(plan.steps, Array(repeating: PlanStep(kind: .work, length: .seconds(60), target: .power(low: 200, high: 200)), count: 4))
        expectEqual(plan.name, "Workout")
    }

    @Test func aBadCRCIsRefused() {
        var bytes = Self.file([Raw(), Raw()])
        bytes[bytes.count - 8] ^= 0x10
        let why = Self.refusal(bytes)
        #expect(why.contains("CRC") && why.contains("does not match") && why.contains("not read"), "\(why)")
    }

    @Test func aFileCutShortIsRefusedSayingWhere() {
        let bytes = Self.file([Raw(), Raw(), Raw()])
        let why = Self.refusal(Array(bytes.prefix(bytes.count - 20)))
        #expect(why.contains("cut short at byte") && why.contains("after 2 workout steps"), "\(why)")
    }

    @Test(arguments: [
        ([Raw(), Raw(duration: 6, value: 0, target: 2, zone: 100_000)], "workout_step 1: 100000 repeats make the plan longer than 10000 steps"),
        ([Raw(), Raw(duration: 6, value: 0, target: 2, zone: 100), Raw(duration: 6, value: 0, target: 2, zone: 101)],
         "workout_step 2: 101 repeats make the plan longer than 10000 steps"),
        ([Raw(), Raw(duration: 6, value: 0, target: 2, zone: 0)], "workout_step 1: a repeat needs a count"),
        ([Raw(), Raw(duration: 6, value: 1, target: 2, zone: 3)], "workout_step 1: a repeat goes back to step 1, which is not an earlier step"),
        ([Raw(low: 6000, high: 6000)], "workout_step 0: power 5000.0 W is outside 1-2500 W"),
        ([Raw(), Raw(low: 900, high: 900)], "workout_step 1: power 9.00 x FTP is outside"),
        ([Raw(target: 4, zone: 9)], "workout_step 0: power zone 9 is not one of 1-7"),
        ([Raw(target: 1, low: 400, high: 400)], "workout_step 0: heart rate 300.0 bpm is outside 25-250 bpm"),
        ([Raw(target: 1, zone: 2)], "workout_step 0: heart-rate zone 2 needs heartRate"),
        ([Raw(target: 0, zone: 3)], "workout_step 0: a speed zone (3) is the watch's own"),
        ([Raw(target: 5)], "workout_step 0: a grade target is not supported"),
        ([Raw(duration: 2, value: 150)], "workout_step 0: a step that lasts hr_less_than is not supported"),
        ([Raw(duration: 0, value: 100_000_000)], "workout_step 0: duration 100000.0 s is outside 1 s to 24 h"),
        ([Raw(duration: 0, value: nil)], "workout_step 0: a timed step without its time"),
        ([Raw(target: 4, low: nil, high: nil)], "workout_step 0: a power target without a zone or a custom range"),
        ([Raw(duration: nil)], "workout_step 0: the step has no duration_type"),
    ])
    func hostileStepsAreRefusedNamingTheStep(steps: [Raw], expected: String) {
        let why = Self.refusal(Self.file(steps))
        #expect(why.contains(expected), "\(why)")
    }

    @Test func anActivityFileIsNotAWorkout() {
        let why = Self.refusal(Self.file([Raw()], type: 4))
        #expect(why.contains("a FIT activity file, not a workout"), "\(why)")
    }

    @Test func moreStepsThanAPlanHoldsAreRefusedWhileReading() {
        let why = Self.refusal(Self.file(Array(repeating: Raw(), count: Plan.maxSteps + 1)))
        #expect(why.contains("more than 10000 workout steps"), "\(why)")
    }

    @Test func percentagesOfFTPNeedFTP() {
        let why = Self.refusal(Self.file([Raw(low: 80, high: 90)]), ftp: nil)
        #expect(why.contains("workout_step 0: power is a fraction of FTP, and ftpWatts is not set"), "\(why)")
    }
}
