import Testing
@testable import WorkoutCore

/// The status reply is typed once (issue 26 item 6): what the daemon writes is what workoutctl
/// reads back, key for key, in the documented order (docs/protocol.md).
@Suite struct StatusReplyTests {
    static let start = 1_795_000_000.0

    static func reply() -> StatusReply {
        var s = WorkoutSummary(id: WorkoutID(start: start, suffix: 9), activity: .running, startedAt: start)
        s.elapsedSeconds = 600
        s.distanceMeters = 1800
        let best = PersonalBest(activity: .running, effort: BestEffort(distanceMeters: 1000, seconds: 290.5, startTime: start + 60),
                                previous: BestEffort(distanceMeters: 1000, seconds: 301, startTime: start - 86_400))
        return StatusReply(state: "paused", workout: .summary(s),
                           gps: GPSReply(source: "gpsd at 127.0.0.1:2947", fix: "3D", lastFixAgeSeconds: 0.4, satellites: 9, problem: nil,
                                         clockOffsetSeconds: -16, rejectedInput: ["bad_checksum": 2], otherSources: 1, otherSourceFixes: 12),
                           sensors: [["name": "HRM", "state": "connected"]], action: "Resume running", saveError: nil,
                           sleepInhibitor: SleepInhibitorReply(mode: "block", held: "delay", state: "holding a logind delay lock"),
                           dateSource: "system clock (synchronized)", units: .imperial,
                           pause: PauseReply(reason: "recovered", since: start + 300, restoredAt: start + 420),
                           personalBests: [PersonalBestReply(best)], plan: plan())
    }

    /// A plan in its second step (a ramp), with the next one.
    static func plan() -> PlanReply? {
        var m = PlanMachine(plan: Plan(name: "Ramp test", steps: [
            PlanStep(kind: .warmup, length: .seconds(60), target: .power(low: 150, high: 150)),
            PlanStep(kind: .work, length: .seconds(300), target: .powerRamp(from: 200, to: 300)),
            PlanStep(kind: .cooldown, length: .open),
        ]))
        _ = m.start(at: start, distance: 0)
        _ = m.tick(at: start + 210, distance: 400)
        return m.status(at: start + 210, distance: 400).map(PlanReply.init)
    }

    static func written(_ r: StatusReply, _ line: StatusReply.Line) throws -> JSON {
        var w = JSONWriter()
        var cache = SummaryJSONCache()
        r.write(to: &w, line: line, cache: &cache, recent: 20)
        return try JSON.parse(w.bytes)
    }

    @Test func whatTheDaemonWritesTheClientReads() throws {
        let original = Self.reply()
        let json = try Self.written(original, .reply)
        expectEqual(json.objectValue?.pairs.map(\.key), ["ok", "state", "workout", "gps", "sensors", "action", "saveError", "sleepInhibitor",
                                                       "dateSource", "units", "pause", "plan", "personalBests"])
        let read = StatusReply(json: json)
        #expect(read.state == "paused" && read.action == "Resume running" && read.saveError == nil)
        expectEqual(read.gps, original.gps)
        #expect(read.sleepInhibitor == original.sleepInhibitor && read.dateSource == original.dateSource && read.units == .imperial)
        expectEqual(read.pause, original.pause)
        expectEqual(read.personalBests, original.personalBests)
        expectEqual(read.plan, original.plan)
        expectEqual(read.plan?.step["target"]?["watts"]?.intValue, 250, "halfway up the ramp")
        expectEqual(read.plan?.remainingSeconds, 150)
        expectEqual(read.plan?.next?["kind"]?.stringValue, "cooldown")
        expectEqual(read.workoutObject.flatMap(WorkoutSummary.init(json:))?.distanceMeters, 1800)
        expectEqual(read.sensors.first?["name"]?.stringValue, "HRM")
        #expect(!read.subscribed && read.gpsClosedWhilePaused == false)
    }

    @Test func watchLines() throws {
        let subscribed = try Self.written(Self.reply(), .subscribedReply)
        #expect(subscribed.objectValue?.pairs.last?.key == "subscribed" && StatusReply(json: subscribed).subscribed)
        let event = try Self.written(Self.reply(), .event)
        #expect(event["event"]?.stringValue == "status" && event["ok"] == nil)
    }

    @Test func anOddReplyStillReads() {
        let r = StatusReply(json: ["state": "active", "workout": "garbage", "gps": ["fix": "2D"], "units": "furlongs", "pause": ["since": 3]])
        #expect(r.state == "active" && r.workout == nil && r.units == nil && r.pause == nil && r.gps.fix == "2D")
        expectEqual(StatusReply(json: [:]).state, "unknown")
    }

    @Test func historyRepliesAndErrorsRoundTrip() throws {
        let summary = WorkoutSummary(id: WorkoutID(start: Self.start, suffix: 1), activity: .running, startedAt: Self.start)
        let show = ShowReply(workout: summary, events: [WorkoutEvent(kind: .lap, time: Self.start + 60, text: "x")], source: "gpx", personalBests: [], units: .metric)
        let shown = try #require(ShowReply(json: try JSON.parse(Array(show.json().serialized().utf8))))
        #expect(shown.workout == summary && shown.events == show.events && shown.source == "gpx" && shown.units == .metric)
        expectNil(ShowReply(json: ["ok": true, "workout": ["id": "x"]]), "a summary without an activity and start: nothing to show")
        expectNil(ShowReply(json: ["ok": true]), "no workout object: nothing to show")
        let list = ListReply(json: ListReply(workouts: [["id": "a"], ["id": "b"]], units: .imperial).json())
        #expect(list.workouts.count == 2 && list.units == .imperial)
        let e = ProtocolError(code: "not_found", message: "no saved workout x")
        expectEqual(ProtocolError(reply: e.reply), e)
        expectNil(ProtocolError(reply: ["ok": true]))
        expectEqual(ProtocolError(reply: ["ok": false, "error": "old daemon"]), ProtocolError(code: "error", message: "old daemon"))
    }

    /// `list` is written straight to bytes (no JSON tree per workout): the same text as the tree.
    @Test func aListWrittenStraightIsTheSameText() throws {
        var a = WorkoutSummary(id: WorkoutID(start: Self.start, suffix: 1), activity: .running, startedAt: Self.start)
        a.distanceMeters = 5000.25
        a.title = "Tempo \"run\""
        let b = WorkoutSummary(id: WorkoutID(start: Self.start + 86_400, suffix: 2), activity: .cycling, startedAt: Self.start + 86_400)
        for summaries in [[], [a], [a, b]] {
            for units in [Units.imperial, nil] {
                var w = JSONWriter()
                ListReply.write(summaries, units: units, to: &w)
                expectEqual(String(decoding: w.bytes, as: UTF8.self), ListReply(workouts: summaries.map { $0.json() }, units: units).json().serialized())
            }
        }
    }
}
