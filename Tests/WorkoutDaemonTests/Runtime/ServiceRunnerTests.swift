import Foundation
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// `ServiceRunner` with fake services on a driven clock: started in order, stopped in reverse
/// one at a time (each waits for the one after it), a failed start stops what had started, a
/// service late at the deadline is logged and left behind, reloads reach every service.
@Suite struct ServiceRunnerTests {
    /// What the fakes did, in order.
    final class Trace { var lines: [String] = [] }

    final class FakeService: DaemonService {
        let name: String
        let journal: Trace
        /// How the fake stops: at once, after `seconds` of loop time, or never.
        enum Stopping { case atOnce, after(Double), never }
        let stopping: Stopping
        enum Starting { case succeeds, fails }
        let starting: Starting
        let loop: EventLoop

        init(_ name: String, _ journal: Trace, loop: EventLoop, stopping: Stopping = .atOnce, starting: Starting = .succeeds) {
            self.name = name; self.journal = journal; self.loop = loop; self.stopping = stopping; self.starting = starting
        }

        func start() throws {
            switch starting {
            case .succeeds: journal.lines.append("start \(name)")
            case .fails: journal.lines.append("fail \(name)"); throw ConfigError(key: name, problem: "cannot start")
            }
        }

        func stop(by deadline: Double, then done: @escaping () -> Void) {
            journal.lines.append("stop \(name)")
            switch stopping {
            case .atOnce: journal.lines.append("stopped \(name)"); done()
            case .after(let s): loop.after(s) { self.journal.lines.append("stopped \(self.name)"); done() }
            case .never: break
            }
        }

        func reload(_ r: inout ConfigReload) {
            journal.lines.append("reload \(name)")
            r.applied(.units)
        }
    }

    @Test func startsInOrderAndStopsInReverseEachAfterTheNext() throws {
        let loop = try EventLoop(clock: ManualClock())
        let j = Trace()
        var late: [String] = []
        let runner = ServiceRunner(loop: loop, services: [
            FakeService("a", j, loop: loop), FakeService("b", j, loop: loop, stopping: .after(2)), FakeService("c", j, loop: loop),
        ], log: { late.append($0.name) })
        try runner.start()
        #expect(j.lines == ["start a", "start b", "start c"])
        j.lines = []
        var finished = 0
        runner.stop(within: 10) { finished += 1 }
        #expect(j.lines == ["stop c", "stopped c", "stop b"], "a waits for b")
        try loop.advanceTime(by: 2)
        #expect(j.lines == ["stop c", "stopped c", "stop b", "stopped b", "stop a", "stopped a"])
        #expect(finished == 1 && late.isEmpty)
        runner.stop(within: 10) { finished += 1 }
        #expect(finished == 1, "a second stop does nothing")
    }

    @Test func aFailedStartStopsWhatHadStartedInReverse() throws {
        let loop = try EventLoop(clock: ManualClock())
        let j = Trace()
        let runner = ServiceRunner(loop: loop, services: [
            FakeService("a", j, loop: loop), FakeService("b", j, loop: loop), FakeService("c", j, loop: loop, starting: .fails),
            FakeService("d", j, loop: loop),
        ], log: { _ in })
        #expect(throws: ConfigError.self) { try runner.start() }
        #expect(j.lines == ["start a", "start b", "fail c", "stop b", "stopped b", "stop a", "stopped a"])
    }

    @Test func aServiceLateAtTheDeadlineIsLoggedAndTheRestStop() throws {
        let loop = try EventLoop(clock: ManualClock())
        let j = Trace()
        var logged: [any LogEvent] = []
        let runner = ServiceRunner(loop: loop, services: [FakeService("a", j, loop: loop), FakeService("b", j, loop: loop, stopping: .never)],
                                   log: { logged.append($0) })
        try runner.start()
        var finished = false
        runner.stop(within: 3) { finished = true }
        try loop.advanceTime(by: 2.9)
        #expect(!finished && j.lines.last == "stop b")
        try loop.advanceTime(by: 0.2)
        #expect(finished && j.lines.suffix(2) == ["stop a", "stopped a"])
        #expect(logged.map(\.name) == ["daemon.shutdown_late"])
        #expect(logged.first?.fields.first?.1 == .string("b"))
    }

    /// A reload reaches every running service in start order; while they stop, none.
    @Test func reloadReachesEveryServiceInStartOrder() throws {
        let loop = try EventLoop(clock: ManualClock())
        let j = Trace()
        let runner = ServiceRunner(loop: loop, services: [FakeService("a", j, loop: loop), FakeService("b", j, loop: loop, stopping: .after(1))], log: { _ in })
        try runner.start()
        j.lines = []
        var new = Config()
        new.units = .imperial
        new.weightKg = 70
        var r = ConfigReload(old: Config(), new: new)
        runner.reload(&r)
        #expect(j.lines == ["reload a", "reload b"])
        #expect(r.changed == [.weightKg, .units] && r.needsRestart == [.weightKg], "a key no service took waits for a restart")
        // While stopping (b takes 1 s), a reload reaches no service and applies nothing.
        j.lines = []
        runner.stop(within: 5) {}
        var late = ConfigReload(old: Config(), new: new)
        runner.reload(&late)
        #expect(j.lines == ["stop b"] && late.needsRestart == [.weightKg, .units], "\(j.lines)")
    }

    /// The daemon's own runner (in process, on a driven clock): its services in the documented
    /// start order, the control socket served last; a stop by the daemon's deadline finishes,
    /// closes the control socket and keeps the workout in progress in the journal (a stop does
    /// not end a workout).
    @Test func theDaemonsServicesStartInOrderAndAllStop() throws {
        let d = try InProcessDaemon(config: #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0,"log":{"level":"error"},"sleepInhibitor":"off","web":null}"#,
                                    clock: ManualClock())
        let runner = d.daemon.services
        #expect(runner.services.map(\.name) == ["reminders", "integrations", "recording", "history", "web", "control"])
        _ = try d.request(#"{"command":"start","activity":"yoga"}"#)
        try d.advance(2)
        var stopped = 0
        runner.stop(within: Daemon.stopSeconds) { stopped += 1 }
        #expect(try d.until { stopped == 1 })
        guard case .stopped = runner.phase else { Issue.record("phase \(runner.phase)"); return }
        #expect((try? InProcessDaemon.connect(d.paths.controlSocket)) == nil, "the control socket is closed")
        #expect(FileManager.default.fileExists(atPath: d.paths.journalFile), "the workout in progress stays in the journal")
    }
}
