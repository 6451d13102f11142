import Foundation
import Testing

/// Issue 44: completion offered IDs only when the systemd unit was active, so a daemon run from
/// a terminal (the README's demo) got none. It asks the daemon over its socket, through the
/// workoutctl being completed and the --socket on its command line.
@Suite(.serialized) struct CompletionTests {
    /// COMPREPLY of the bash completion for `words` (the cursor on the last word).
    static func complete(_ words: [String], environment: [String: String]) throws -> [String] {
        let script = DaemonHarness.projectRoot.appendingPathComponent("completions/workoutctl.bash").path
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let r = try Reliability.run(["/bin/bash", "-c", """
            source '\(script)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _workoutctl
            printf '%s\\n' "${COMPREPLY[@]}"
            """], environment: environment)
        return r.out.split(separator: "\n").map(String.init)
    }

    @Test func idsComeFromTheDaemonStartedInATerminal() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds": [], "web": null}"#)
        try d.start()
        defer { d.stop() }
        let id = try LastWorkoutTests.importRun(d, start: 1_795_000_000, name: "run")
        let ctl = DaemonHarness.binary("workoutctl")
        #expect(try Self.complete([ctl, "show", ""], environment: d.environment) == [id, "last"])
        // The --socket of the command line is the one asked, whatever the environment says.
        var elsewhere = d.environment
        elsewhere["XDG_RUNTIME_DIR"] = d.dir + "/nowhere"
        let socket = d.environment["XDG_RUNTIME_DIR"]! + "/workoutd/control.sock"
        #expect(try Self.complete([ctl, "--socket", socket, "delete", ""], environment: elsewhere) == [id, "last"])
        #expect(try Self.complete([ctl, "delete", ""], environment: elsewhere).isEmpty)
        #expect(try Self.complete([ctl, "start", "cyc"], environment: d.environment) == ["cycling"])
    }
}
