import Glibc
import Testing
import WorkoutClient
@testable import WorkoutDaemon

/// The daemon and workoutctl derive the runtime directory by one rule (they differed on a
/// trailing slash in XDG_RUNTIME_DIR).
@Suite struct PathsTests {
    @Test(arguments: ["/run/user/1000", "/run/user/1000/", "/run/user/1000//", "relative", ""])
    func daemonAndClientAgreeOnTheRuntimeDirectory(_ xdg: String) {
        let daemon = Paths(environment: ["XDG_RUNTIME_DIR": xdg, "HOME": "/home/u"])
        let client = SocketPaths(environment: { $0 == "XDG_RUNTIME_DIR" ? xdg : nil }, uid: getuid())
        #expect(daemon.runtimeDir == client.directory)
        #expect(daemon.controlSocket == client.control)
    }
}
