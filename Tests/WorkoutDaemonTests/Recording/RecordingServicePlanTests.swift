import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// `start ACTIVITY --plan FILE` through the whole daemon on a driven clock: the plan is read
/// before anything starts, its steps advance by time, by distance and by `next`, pauses freeze
/// it, each step is a lap, and `status.plan` says where it stands.
@Suite struct RecordingServicePlanTests {
    static let config = #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0,"log":{"level":"debug"},"ftpWatts":200,"web":null}"#

    static func start(_ d: InProcessDaemon, _ plan: String, activity: String = "running") throws -> JSON {
        let file = PlanFile(name: "plan.zwo", bytes: Array(plan.utf8))
        return try d.request(ControlRequest.startPlanned(ActivityType(rawValue: activity)!, file).encoded().serialized())
    }

    static let zwo = """
        <workout_file><name>Short</name><workout>
        <Warmup Duration="10" PowerLow="0.5" PowerHigh="1.0"/>
        <SteadyState Duration="20" Power="1.2"><textevent timeoffset="5" message="Hold it"/></SteadyState>
        <FreeRide Duration="600"/>
        </workout></workout_file>
        """

    @Test func aBadPlanRefusesTheStartAndStartsNothing() throws {
        let d = try InProcessDaemon(config: Self.config, clock: ManualClock())
        let reply = try Self.start(d, #"<workout_file><workout><SteadyState Duration="60" Power="9"/></workout></workout_file>"#)
        #expect(reply["ok"] == .bool(false))
        #expect(reply["error"]?["code"]?.stringValue == "bad_plan")
        #expect(reply["error"]?["message"]?.stringValue?.contains("plan.zwo: line 1: power 9.00 x FTP") == true, "\(reply)")
        #expect(try d.status()["state"]?.stringValue == "idle")
        #expect(d.events("workout.started").count == 0)
    }

    @Test func stepsAdvanceByTimeEachALapAndStatusSaysWhere() throws {
        let d = try InProcessDaemon(config: Self.config, clock: ManualClock())
        let started = try Self.start(d, Self.zwo)
        #expect(started["plan"]?["stepIndex"]?.intValue == 0)
        #expect(started["plan"]?["step"]?["target"]?["watts"]?.intValue == 100)
        try d.advance(5)
        let ramp = try d.status()["plan"]
        #expect(ramp?["step"]?["target"]?["watts"]?.intValue == 150, "the ramp's power halfway: \(String(describing: ramp))")
        #expect(ramp?["remainingSeconds"]?.doubleValue == 5)
        try d.advance(6)
        let work = try d.status()["plan"]
        #expect(work?["stepIndex"]?.intValue == 1)
        #expect(work?["step"]?["target"]?["low"]?.doubleValue == 240)
        #expect(work?["next"]?["kind"]?.stringValue == "free")
        try d.advance(5)
        #expect(d.events("plan.prompt").map { $0["text"] } == ["Hold it"])
        // Paused: the plan's clock stands.
        _ = try d.request(#"{"command":"pause"}"#)
        let before = try d.status()["plan"]?["remainingSeconds"]?.doubleValue
        try d.advance(30)
        #expect(try d.status()["plan"]?["remainingSeconds"]?.doubleValue == before)
        #expect(try d.status()["plan"]?["state"]?.stringValue == "paused")
        _ = try d.request(#"{"command":"resume"}"#)
        try d.advance(15)
        #expect(try d.status()["plan"]?["stepIndex"]?.intValue == 2)
        // `next` in the last step ends the plan; the workout goes on.
        #expect(try d.request(#"{"command":"next"}"#)["plan"]?["state"]?.stringValue == "completed")
        #expect(try d.request(#"{"command":"next"}"#)["error"]?["code"]?.stringValue == "plan_done")
        let stopped = try d.request(#"{"command":"stop"}"#)
        #expect(stopped["workout"]?["laps"]?.arrayValue?.count == 3, "one lap per step: \(stopped)")
        #expect(d.events("plan.step").map { $0["step"] } == ["1", "2", "3"])
        #expect(d.events("plan.finished").first?["end"] == "completed")
        #expect(try d.until { try d.status()["state"]?.stringValue == "idle" })
        #expect(try d.status()["plan"]?.objectValue == nil, "no plan once the workout ended")
    }

    @Test func aDistanceStepEndsAtItsDistanceAndALapPressIsNext() throws {
        let d = try InProcessDaemon(config: Self.config, clock: ManualClock())
        let plan = #"{"name": "Runs", "steps": [{"kind": "work", "meters": 20, "speed": [2.5, 3.5]}, {"kind": "recovery", "open": true}]}"#
        let file = PlanFile(name: "plan.json", bytes: Array(plan.utf8))
        _ = try d.request(ControlRequest.startPlanned(.running, file).encoded().serialized())
        _ = try DaemonTimeTests.walk(d, seconds: 10, from: 0, speed: 3)
        let status = try d.status()["plan"]
        #expect(status?["stepIndex"]?.intValue == 1, "30 m run: the 20 m step is over: \(String(describing: status))")
        // A lap press ends the open step: the plan is done.
        #expect(try d.request(#"{"command":"lap"}"#)["plan"]?["state"]?.stringValue == "completed")
    }

    @Test func nextWithoutAPlanIsRefusedInWords() throws {
        let d = try InProcessDaemon(config: Self.config, clock: ManualClock())
        #expect(try d.request(#"{"command":"next"}"#)["error"]?["code"]?.stringValue == "no_workout")
        _ = try d.request(#"{"command":"start","activity":"running"}"#)
        #expect(try d.request(#"{"command":"next"}"#)["error"]?["code"]?.stringValue == "no_plan")
        #expect(try d.status()["plan"]?.objectValue == nil)
    }

    /// A FIT workout (file type 5) as a device would carry it: a warm-up at watts, a 2 x
    /// (work at % of FTP, recovery in power zone 1) repeat, an open cool-down.
    static func fitWorkout() -> [UInt8] {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [.init(0, .enumeration)])
        e.message(local: 0, [5])
        e.define(local: 1, global: 26, [.init(4, .enumeration), .init(6, .uint16)])
        e.message(local: 1, [2, 5])
        // message_index, duration_type, duration_value, target_type, target_value, custom low, custom high, intensity.
        e.define(local: 2, global: 27, [.init(254, .uint16), .init(1, .enumeration), .init(2, .uint32), .init(3, .enumeration),
                                         .init(4, .uint32), .init(5, .uint32), .init(6, .uint32), .init(7, .enumeration)])
        e.message(local: 2, [0, 0, 10_000, 4, 0, 1150, 1150, 2])
        e.message(local: 2, [1, 0, 20_000, 4, 0, 120, 120, 5])
        e.message(local: 2, [2, 0, 5_000, 4, 1, nil, nil, 4])
        e.message(local: 2, [3, 6, 1, 2, 2, nil, nil, nil])
        e.message(local: 2, [4, 5, nil, 2, nil, nil, nil, 3])
        return e.file()
    }

    @Test func aFITWorkoutRunsAsAPlanEachStepALap() throws {
        let d = try InProcessDaemon(config: Self.config, clock: ManualClock())
        let file = PlanFile(name: "x.fit", bytes: Self.fitWorkout())
        let started = try d.request(ControlRequest.startPlanned(.indoorCycling, file).encoded().serialized())
        #expect(started["ok"] == .bool(true), "\(started)")
        #expect(started["plan"]?["stepCount"]?.intValue == 6, "warm-up, 2 x (work, recovery), cool-down: \(started)")
        #expect(started["plan"]?["step"]?["target"]?["watts"]?.intValue == 150)
        try d.advance(11)
        #expect(try d.status()["plan"]?["step"]?["target"]?["watts"]?.intValue == 240, "120 % of 200 W")
        try d.advance(20)
        // Power zone 1: 0.40-0.55 x FTP, the trainer holds the middle.
        #expect(try d.status()["plan"]?["step"]?["target"]?["watts"]?.intValue == 95)
        try d.advance(5 + 20 + 5)
        let cooldown = try d.status()["plan"]
        #expect(cooldown?["stepIndex"]?.intValue == 5, "\(String(describing: cooldown))")
        #expect(cooldown?["step"]?["kind"]?.stringValue == "cooldown")
        let stopped = try d.request(#"{"command":"stop"}"#)
        #expect(stopped["workout"]?["laps"]?.arrayValue?.count == 6, "one lap per step: \(stopped)")
        #expect(d.events("plan.step").map { $0["step"] } == ["1", "2", "3", "4", "5", "6"])
    }

    @Test func aDamagedFITWorkoutRefusesTheStart() throws {
        let d = try InProcessDaemon(config: Self.config, clock: ManualClock())
        var bytes = Self.fitWorkout()
        bytes[bytes.count - 5] ^= 0x01
        let reply = try d.request(ControlRequest.startPlanned(.indoorCycling, PlanFile(name: "x.fit", bytes: bytes)).encoded().serialized())
        #expect(reply["error"]?["code"]?.stringValue == "bad_plan")
        #expect(reply["error"]?["message"]?.stringValue?.hasPrefix("x.fit: the FIT file's CRC") == true, "\(reply)")
        #expect(try d.status()["state"]?.stringValue == "idle")
    }

    /// What was done: the saved workout lists each step begun with its target and what its lap
    /// measured, and the compliance score; `show` gives it back.
    @Test func theSavedWorkoutListsEachStepsTargetAndActualWithCompliance() throws {
        let d = try InProcessDaemon(config: Self.config, clock: ManualClock())
        let plan = #"{"name": "Two", "steps": [{"kind": "work", "seconds": 10, "power": {"watts": 200}}, "#
            + #"{"kind": "recovery", "seconds": 10, "power": {"watts": 150}}, {"kind": "free", "open": true}]}"#
        let file = PlanFile(name: "two.json", bytes: Array(plan.utf8))
        _ = try d.request(ControlRequest.startPlanned(.cycling, file).encoded().serialized())
        // 200 W for the first 10 s, then 120 W: the recovery ridden at 80 % of its 150 W.
        var east = 0.0
        for k in 0..<250 {
            try d.advance(0.1)
            east += 0.8
            try d.fix(east: east, power: k < 100 ? 200 : 120)
        }
        let stopped = try d.request(#"{"command":"stop"}"#)
        let id = try #require(stopped["workout"]?["id"]?.stringValue)
        #expect(stopped["workout"]?["plan"]?["steps"]?.arrayValue?.count == 3, "the stop's reply carries it too")
        #expect(try d.until { try d.status()["state"]?.stringValue == "idle" })
        let shown = try d.request(#"{"command":"show","id":"\#(id)"}"#)
        let done = try #require(shown["workout"]?["plan"], "\(shown)")
        #expect(done["name"]?.stringValue == "Two")
        #expect(done["stepCount"]?.intValue == 3)
        let steps = try #require(done["steps"]?.arrayValue)
        try #require(steps.count == 3, "\(done)")
        #expect(steps[0]["target"]?["low"]?.doubleValue == 200)
        #expect(steps[0]["averagePower"]?.intValue == 200)
        #expect(steps[0]["compliance"]?.doubleValue == 100)
        let recovery = steps[1]["averagePower"]?.intValue ?? 0
        #expect((120...125).contains(recovery), "the recovery's lap: \(recovery) W")
        #expect(steps[2]["target"]?["kind"]?.stringValue == "none")
        #expect(steps[2]["compliance"] == .null, "a free ride is not scored")
        let compliance = done["compliance"]?.doubleValue ?? 0
        #expect(compliance >= 89 && compliance <= 91, "(100 x 10 + 80 x 10) / 20 = 90: \(compliance)")
        #expect(shown["workout"]?["compliance"]?.doubleValue == compliance, "the summary's compliance is the plan's")
    }

    /// A crash in the middle of a step: the restarted daemon restores the workout paused with
    /// its plan in the same step and the running time it had had; the resume goes on, each step
    /// still one lap, and the saved workout keeps what was done of the plan.
    @Test func aRestartGoesOnWithThePlanWhereItWas() throws {
        let clock = ManualClock()
        let crashed = try InProcessDaemon(config: Self.config, clock: clock)
        _ = try Self.start(crashed, Self.zwo)
        try crashed.advance(15)  // 5 s into the 20 s step (a journal flush each second)
        #expect(try crashed.status()["plan"]?["stepIndex"]?.intValue == 1)
        let d = try InProcessDaemon(config: Self.config, clock: ManualClock(realtime: clock.wall() + 30),
                                    prepare: { try InProcessDaemon.copyState(from: crashed, to: $0) })
        let restored = try d.status()
        #expect(restored["state"]?.stringValue == "paused", "\(restored)")
        let plan = try #require(restored["plan"]?.objectValue, "the plan came back: \(restored)")
        #expect(plan["stepIndex"]?.intValue == 1)
        #expect(plan["state"]?.stringValue == "paused")
        let left = plan["remainingSeconds"]?.doubleValue ?? -1
        #expect(left > 14 && left <= 15.01, "15 s of the step left, as at the crash: \(left)")
        _ = try d.request(#"{"command":"resume"}"#)
        #expect(try d.status()["plan"]?["step"]?["target"]?["watts"]?.intValue == 240, "the step's power asked again")
        try d.advance(16)
        #expect(try d.status()["plan"]?["stepIndex"]?.intValue == 2, "the step ended after its remaining 15 s")
        let stopped = try d.request(#"{"command":"stop"}"#)
        #expect(stopped["workout"]?["laps"]?.arrayValue?.count == 3, "one lap per step: \(stopped)")
        let steps = stopped["workout"]?["plan"]?["steps"]?.arrayValue ?? []
        #expect(steps.map { $0["firstLap"]?.intValue } == [0, 1, 2], "\(steps)")
    }

    /// A heart-rate step ridden below its range: after 10 s out of it the rider is prompted, in
    /// words with the figures, and not again within the minute.
    @Test func aHeartRateOutOfItsRangePromptsTheRider() throws {
        let d = try InProcessDaemon(config: Self.config, clock: ManualClock())
        let plan = #"{"name": "Easy", "steps": [{"kind": "work", "seconds": 120, "heartRate": [140, 150]}]}"#
        _ = try d.request(ControlRequest.startPlanned(.running, PlanFile(name: "easy.json", bytes: Array(plan.utf8))).encoded().serialized())
        var east = 0.0
        for _ in 0..<250 {
            try d.advance(0.1)
            east += 0.3
            try d.fix(east: east)
            try d.heartRate(120)
        }
        let prompts = d.events("plan.prompt").compactMap { $0["text"] }
        #expect(prompts == ["Heart rate 120 bpm: below the step's 140-150 bpm"], "\(prompts)")
    }
}
