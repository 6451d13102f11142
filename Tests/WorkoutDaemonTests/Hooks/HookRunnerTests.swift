import Foundation
import Glibc
import Synchronization
import Testing
@testable import WorkoutDaemon

/// HookRunner with real processes: the concurrency limit, the bounded queue, stdin, exit
/// statuses, signals, timeouts and a missing program.
@Suite struct HookRunnerTests {
    final class Outcomes: Sendable {
        let list = Mutex<[(String, HookRunner.Outcome)]>([])
        func add(_ j: HookRunner.Job, _ o: HookRunner.Outcome) { list.withLock { $0.append((j.event, o)) } }
        var count: Int { list.withLock { $0.count } }
        func wait(for n: Int, seconds: Double = 20) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while count < n && Date() < deadline { usleep(10_000) }
            return count >= n
        }
    }

    @Test func limitsQueueAndOutcomes() throws {
        let outcomes = Outcomes()
        let runner = HookRunner(environment: ["PATH": "/usr/bin:/bin"], maxRunning: 2, maxQueued: 3) { outcomes.add($0, $1) }
        var template = Array("/tmp/hr.XXXXXX".utf8CString)
        let dir = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func job(_ name: String, _ argv: [String], input: String = "", timeout: Double = 10) -> HookRunner.Job {
            HookRunner.Job(argv: argv, input: Array(input.utf8), timeout: timeout, event: name)
        }
        // 2 run at once, 3 wait, the 6th is refused.
        let accepted = (0..<6).map { k in runner.submit(job("s\(k)", ["sh", "-c", "sleep 0.3; cat > \(dir)/in\(k); echo $WORKOUTD_EVENT >> \(dir)/in\(k)"], input: "{\"n\":\(k)}\n")) }
        #expect(accepted == [true, true, true, true, true, false])
        #expect(runner.load == (2, 3))
        #expect(outcomes.wait(for: 5))
        for k in 0..<5 {
            #expect((try? String(contentsOfFile: "\(dir)/in\(k)", encoding: .utf8)) == "{\"n\":\(k)}\ns\(k)\n")
        }
        #expect(outcomes.list.withLock { $0.allSatisfy { if case .exited(0, _) = $0.1 { return true } else { return false } } })
        #expect(runner.load == (0, 0))

        _ = runner.submit(job("exit", ["sh", "-c", "exit 7"]))
        _ = runner.submit(job("kill", ["sh", "-c", "kill -TERM $$"]))
        #expect(outcomes.wait(for: 7))
        _ = runner.submit(job("hang", ["sh", "-c", "sleep 30 & sleep 30"], timeout: 0.3))
        _ = runner.submit(job("missing", ["/nonexistent/x"]))
        #expect(outcomes.wait(for: 9))
        let byEvent = Dictionary(outcomes.list.withLock { $0 }.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
        #expect(byEvent["exit"].map { if case .exited(7, _) = $0 { return true } else { return false } } == true)
        #expect(byEvent["kill"] == .signaled(SIGTERM))
        #expect(byEvent["hang"] == .timedOut)
        #expect(byEvent["missing"].map { if case .spawnFailed(let e) = $0 { return e.contains("No such file") } else { return false } } == true)
    }
}
