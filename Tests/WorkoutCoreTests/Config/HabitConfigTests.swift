import Testing
@testable import WorkoutCore

@Suite struct HabitConfigTests {
    @Test func readsHabitsHooksAndNotifications() throws {
        let c = try Config.decode(json: #"""
        {"streaks":{"dayStartHour":3},
         "habits":[{"name":"run 3x a week","activities":["running","trail-running"],"times":3,"per":"week","minimumSeconds":1200},
                   {"name":"yoga","activities":["yoga"],"per":"day","window":{"from":"18:00","to":"22:00"},"skips":1,"remindAt":"19:30"},
                   {"name":"long ride","activities":["cycling"],"per":"day","weekdays":["sun"],"minimumMeters":50000},
                   {"name":"50 km","totalMeters":50000,"per":"week"},
                   {"name":"10 h a month","totalSeconds":36000,"per":"month","weekdays":["saturday","Sunday"]}],
         "hooks":[{"on":"workout.saved","run":["/bin/upload","--id"],"timeoutSeconds":5},{"on":"*","run":["logger"]}],
         "notifications":{"desktop":true,"events":["habit.at_risk"]}}
        """#)
        expectEqual(c.habits.count, 5)
        expectEqual(c.habits[0], Habit(name: "run 3x a week", activities: [.running, .trailRunning], target: .count(3), per: .week, minimumSeconds: 1200))
        #expect(c.habits[1].window == HabitWindow(fromMinute: 1080, toMinute: 1320) && c.habits[1].skips == 1 && c.habits[1].remindAtMinute == 1170)
        #expect(c.habits[2].weekdays == [0] && c.habits[2].minimumMeters == 50000 && c.habits[2].target == .count(1))
        expectEqual(c.habits[3].target, .distance(meters: 50000))
        #expect(c.habits[4].target == .duration(seconds: 36000) && c.habits[4].weekdays == [0, 6])
        expectEqual(c.hooks, [HookConfig(on: "workout.saved", run: ["/bin/upload", "--id"], timeoutSeconds: 5), HookConfig(on: "*", run: ["logger"])])
        #expect(c.notifications.desktop && c.notifications.events == ["habit.at_risk"])
        #expect(Config().changedKeys(to: c).contains(.habits))
    }

    @Test(arguments: [
        (#"{"habits":[{"times":3}]}"#, "habits[0].name"),
        (#"{"habits":[{"name":"a"},{"name":"a"}]}"#, "habits[1].name"),
        (#"{"habits":[{"name":"a","per":"year"}]}"#, "habits[0].per"),
        (#"{"habits":[{"name":"a","times":0}]}"#, "habits[0].times"),
        (#"{"habits":[{"name":"a","times":2,"totalMeters":5000}]}"#, "habits[0]"),
        (#"{"habits":[{"name":"a","activities":["flying"]}]}"#, "habits[0].activities[0]"),
        (#"{"habits":[{"name":"a","weekdays":["funday"]}]}"#, "habits[0].weekdays[0]"),
        (#"{"habits":[{"name":"a","weekdays":[]}]}"#, "habits[0].weekdays"),
        (#"{"habits":[{"name":"a","window":{"from":"25:00","to":"26:00"}}]}"#, "habits[0].window.from"),
        (#"{"habits":[{"name":"a","window":{"from":"20:00","to":"08:00"}}]}"#, "habits[0].window"),
        (#"{"streaks":{"dayStartHour":4},"habits":[{"name":"a","window":{"from":"02:00","to":"06:00"}}]}"#, "habits[0].window"),
        (#"{"habits":[{"name":"a","skips":7}]}"#, "habits[0].skips"),
        (#"{"habits":[{"name":"a","weekdays":["mon","tue"],"skips":2}]}"#, "habits[0].skips"),
        (#"{"habits":[{"name":"a","remindAt":"7pm"}]}"#, "habits[0].remindAt"),
        (#"{"habits":[{"name":"a","every":"day"}]}"#, "habits[0].every"),
        (#"{"hooks":[{"run":["x"]}]}"#, "hooks[0].on"),
        (#"{"hooks":[{"on":"workout.saved"}]}"#, "hooks[0].run"),
        (#"{"hooks":[{"on":"workout.saved","run":[]}]}"#, "hooks[0].run"),
        (#"{"hooks":[{"on":"workout.saved","run":["x",1]}]}"#, "hooks[0].run[1]"),
        (#"{"hooks":[{"on":"a b","run":["x"]}]}"#, "hooks[0].on"),
        (#"{"hooks":[{"on":"*","run":["x"],"timeoutSeconds":0}]}"#, "hooks[0].timeoutSeconds"),
        (#"{"notifications":{"desktop":"yes"}}"#, "notifications.desktop"),
        (#"{"notifications":{"events":[3]}}"#, "notifications.events[0]"),
    ])
    func errorsNameTheKey(_ text: String, _ key: String) {
        do {
            _ = try Config.decode(json: text)
            Issue.record("accepted \(text)")
        } catch {
            expectEqual(error.key, key, "\(text): \(error)")
            #expect(!error.problem.isEmpty)
        }
    }

    /// config.example.json decodes and holds a habit of each kind.
    @Test func exampleFileHasAHabitOfEachKind() throws {
        let text = try String(contentsOf: SharedData.projectRoot.appendingPathComponent("config.example.json"), encoding: .utf8)
        let c = try Config.decode(json: text)
        #expect(c.habits.contains { $0.per == .day && $0.target == .count(1) })
        #expect(c.habits.contains { $0.per == .week && { if case .count(let n) = $0.target { return n > 1 } else { return false } }($0) })
        #expect(c.habits.contains { $0.per == .month })
        #expect(c.habits.contains { if case .distance = $0.target { return true } else { return false } })
        #expect(c.habits.contains { if case .duration = $0.target { return true } else { return false } })
        #expect(c.habits.contains { !$0.weekdays.isEmpty } && c.habits.contains { $0.window != nil } && c.habits.contains { $0.skips > 0 })
    }
}
