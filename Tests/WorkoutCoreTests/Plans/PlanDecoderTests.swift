import Testing
@testable import WorkoutCore

/// Plan files read, and bad ones refused in words naming the line or step, before anything runs.
@Suite struct PlanDecoderTests {
    static let zwo = """
        <workout_file>
            <author>Coach</author>
            <name>Eight steps</name>
            <sportType>bike</sportType>
            <workout>
                <Warmup Duration="300" PowerLow="0.40" PowerHigh="0.70"/>
                <SteadyState Duration="600" Power="0.95" Cadence="90">
                    <textevent timeoffset="0" message="Settle in"/>
                    <textevent timeoffset="300" message="Halfway"/>
                </SteadyState>
                <IntervalsT Repeat="2" OnDuration="60" OffDuration="30" OnPower="1.20" OffPower="0.50">
                    <textevent timeoffset="70" message="Spin easy"/>
                </IntervalsT>
                <FreeRide Duration="120" FlatRoad="1"/>
                <MaxEffort Duration="15"/>
                <Cooldown Duration="300" PowerLow="0.60" PowerHigh="0.30"/>
            </workout>
        </workout_file>
        """

    @Test func readsAZwiftWorkoutWithPowerFromFTP() throws {
        let plan = try PlanDecoder.decode(Array(Self.zwo.utf8), ftpWatts: 250)
        expectEqual(plan.name, "Eight steps")
        expectEqual(plan.steps.count, 9)
        expectEqual(plan.steps[0], PlanStep(kind: .warmup, length: .seconds(300), target: .powerRamp(from: 100, to: 175)))
        expectEqual(plan.steps[1].target, .power(low: 237.5, high: 237.5))
        expectEqual(plan.steps[1].prompts, [.init(offset: 0, text: "Settle in"), .init(offset: 300, text: "Halfway")])
        expectEqual(plan.steps[2], PlanStep(kind: .work, length: .seconds(60), target: .power(low: 300, high: 300)))
        expectEqual(plan.steps[3], PlanStep(kind: .recovery, length: .seconds(30), target: .power(low: 125, high: 125),
                                            prompts: [.init(offset: 10, text: "Spin easy")]))
        expectEqual(plan.steps[4].length, .seconds(60))
        expectEqual(plan.steps[6], PlanStep(kind: .free, length: .seconds(120)))
        expectEqual(plan.steps[7].kind, .maxEffort)
        expectEqual(plan.steps[8].target, .powerRamp(from: 150, to: 75))
        expectEqual(plan.timedSeconds, 300 + 600 + 180 + 120 + 15 + 300)
    }

    @Test func aZwiftPlanWithoutFTPIsRefusedNamingTheLine() {
        do {
            _ = try PlanDecoder.decode(Array(Self.zwo.utf8), ftpWatts: nil)
            Issue.record("a fraction of FTP without ftpWatts was read")
        } catch {
            expectEqual(error.location, .line(6))
            #expect(error.description.contains("ftpWatts is not set"), "\(error)")
        }
    }

    @Test(arguments: [
        ("<workout_file><workout><SteadyState Duration=\"60\" Power=\"9\"/></workout></workout_file>", "line 1: power 9.00 x FTP is outside"),
        ("<workout_file><workout><SteadyState Duration=\"-5\" Power=\"0.5\"/></workout></workout_file>", "step 1: duration -5.0 s is outside"),
        ("<workout_file><workout><Sprint Duration=\"60\"/></workout></workout_file>", "line 1: <Sprint> is not a step"),
        ("<workout_file><workout><IntervalsT Repeat=\"100000\" OnDuration=\"1\" OffDuration=\"1\" OnPower=\"1\" OffPower=\"0.5\"/></workout></workout_file>",
         "line 1: <IntervalsT> Repeat=\"100000\" is not a count"),
        ("<workout_file><workout><IntervalsT Repeat=\"6000\" OnDuration=\"1\" OffDuration=\"1\" OnPower=\"1\" OffPower=\"0.5\"/></workout></workout_file>",
         "line 1: 6000 repeats make the plan longer than 10000 steps"),
        ("<workout_file><workout></workout></workout_file>", "no steps"),
        ("<workout_file><workout><SteadyState Duration=\"60\" Power=\"abc\"/></workout></workout_file>", "Power=\"abc\" is not a number"),
        ("<html><workout/></html>", "not a Zwift workout"),
        ("<workout_file><workout><SteadyState Duration=\"60\"", "not well-formed XML"),
    ])
    func badZwiftPlansAreRefusedInWords(text: String, expected: String) {
        do {
            _ = try PlanDecoder.decode(Array(text.utf8), ftpWatts: 250)
            Issue.record("refused nothing: \(text)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test func readsTheProjectsJSONPlanWithNestedRepeats() throws {
        let json = """
            {"name": "3 x 20", "steps": [
              {"kind": "warmup", "seconds": 600, "ramp": {"ftp": [0.5, 0.75]}},
              {"repeat": 3, "steps": [
                {"kind": "work", "seconds": 1200, "power": {"ftp": 0.95}, "prompts": [{"at": 0, "text": "Hold it"}]},
                {"kind": "recovery", "seconds": 300, "power": {"watts": [140, 160]}}]},
              {"kind": "work", "meters": 2000, "heartRate": [140, 150]},
              {"kind": "cooldown", "open": true, "cadence": 85}]}
            """
        let plan = try PlanDecoder.decode(Array(json.utf8), ftpWatts: 300)
        expectEqual(plan.name, "3 x 20")
        expectEqual(plan.steps.count, 9)
        expectEqual(plan.steps[0].target, .powerRamp(from: 150, to: 225))
        expectEqual(plan.steps[1], PlanStep(kind: .work, length: .seconds(1200), target: .power(low: 285, high: 285),
                                            prompts: [.init(offset: 0, text: "Hold it")]))
        expectEqual(plan.steps[6].target, .power(low: 140, high: 160))
        expectEqual(plan.steps[7], PlanStep(kind: .work, length: .meters(2000), target: .heartRate(low: 140, high: 150)))
        expectEqual(plan.steps[8], PlanStep(kind: .cooldown, length: .open, target: .cadence(low: 85, high: 85)))
    }

    @Test(arguments: [
        (#"{"steps": [{"seconds": 60, "power": {"watts": -20}}]}"#, "step 1: power -20.0 W is outside"),
        (#"{"steps": [{"seconds": 60}, {"repeat": 2, "steps": [{"meters": 5, "bogus": 1}]}]}"#, "step 2.1: unknown key \"bogus\""),
        (#"{"steps": [{"seconds": 60, "meters": 100}]}"#, "step 1: a step has one of seconds, meters"),
        (#"{"steps": [{"open": true, "ramp": {"watts": [100, 200]}}]}"#, "step 1: a ramp needs a duration"),
        (#"{"steps": [{"repeat": 100000, "steps": [{"seconds": 1}]}]}"#, "step 1: repeat is a count from 1 to 10000"),
        (#"{"steps": [{"repeat": 101, "steps": [{"repeat": 100, "steps": [{"seconds": 1}]}]}]}"#, "make the plan longer than 10000 steps"),
        (#"{"steps": [{"seconds": 90000}]}"#, "step 1: duration 90000.0 s is outside"),
        (#"{"steps": [{"seconds": 60, "power": {"ftp": 0.9}}]}"#, "ftpWatts is not set"),
        (#"{"steps": [{"seconds": 60, "power": {"watts": 200}, "cadence": 90}]}"#, "at most one target"),
        (#"{"steps": []}"#, "the plan has no steps"),
        (#"{"name": 1, "step": []}"#, "unknown key \"step\""),
        (#"{"steps": [{"seconds": 60, "kind": "sprint"}]}"#, "kind is one of"),
        ("not a plan", "not a plan"),
        ("", "empty"),
    ])
    func badJSONPlansAreRefusedInWords(text: String, expected: String) {
        do {
            _ = try PlanDecoder.decode(Array(text.utf8), ftpWatts: text.contains("ftp") ? nil : 250)
            Issue.record("refused nothing: \(text)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test func aHugeFileIsRefusedBeforeItIsParsed() {
        let big = [UInt8]("<workout_file><workout>".utf8) + [UInt8](repeating: 0x20, count: 10 << 20) + Array("</workout></workout_file>".utf8)
        do {
            _ = try PlanDecoder.decode(big, ftpWatts: 250)
            Issue.record("a 10 MB plan was read")
        } catch {
            #expect(error.description.contains("at most 1048576"), "\(error.description)")
        }
    }
}
