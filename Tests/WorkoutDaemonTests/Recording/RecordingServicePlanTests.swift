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
}
