import Testing
@testable import WorkoutClient

/// Issue 44: the "not running" message said `workoutd`, which a checkout has no PATH to.
struct DaemonStartHintTests {
    @Test func aCheckoutsBuildSaysSwiftRunInThatCheckout() {
        let hint = DaemonStartHint(executable: "/home/me/src/workoutd/.build/x86_64-unknown-linux-gnu/debug/workoutctl")
        #expect(hint == .checkout(root: "/home/me/src/workoutd"))
        #expect(Client.unreachableMessage(.unreachable(path: "/run/user/1000/workoutd/control.sock", reason: "No such file or directory"), startHint: hint)
            .contains("`cd /home/me/src/workoutd && swift run workoutd`"))
    }

    @Test func anInstalledProgramSaysWorkoutdOrSystemd() {
        for path in ["/home/me/.local/bin/workoutctl", "/usr/bin/workoutctl", nil] as [String?] {
            #expect(DaemonStartHint(executable: path) == .installed)
        }
        #expect(DaemonStartHint.installed.sentence.contains("systemctl --user start workoutd.socket"))
    }
}
