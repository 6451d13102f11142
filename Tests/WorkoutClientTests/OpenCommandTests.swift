import Testing
@testable import WorkoutClient

/// Issue 44: `open` without a browser printed six lines of xdg-open's own errors before its
/// clear fallback. The launcher's output is captured and shown only when it fails.
struct OpenCommandTests {
    @Test func theLaunchersOutputIsCapturedNotPrinted() {
        // The child checks that its stdout and stderr are the unlinked capture file, not ours.
        let script = #"echo chatter; echo noise >&2; for fd in 1 2; do readlink /proc/$$/fd/$fd | grep -q 'workoutctl-open-.*(deleted)' || exit 9; done"#
        let r = OpenCommand.launch(["sh", "-c", script])
        #expect(throws: Never.self) { try r.get() }
    }

    @Test func aFailureCarriesWhatTheLauncherSaid() throws {
        let r = OpenCommand.launch(["sh", "-c", "echo 'xdg-open: no method available for opening' >&2; exit 3"])
        guard case .failure(let e) = r else { Issue.record("a failing launcher succeeded"); return }
        #expect(e.reason == "sh exited with status 3")
        #expect(e.output == "  xdg-open: no method available for opening")
    }

    @Test func aMissingLauncherSaysSo() {
        guard case .failure(let e) = OpenCommand.launch(["workoutctl-no-such-launcher"]) else { Issue.record("ran a missing program"); return }
        #expect(e.reason.hasPrefix("workoutctl-no-such-launcher: "))
    }
}
