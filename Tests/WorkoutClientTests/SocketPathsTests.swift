import Foundation
import Glibc
import Testing
import WorkoutCore
import WorkoutSystem
@testable import WorkoutClient

/// The runtime-directory rule and the ownership check before trusting a `/tmp` socket
/// (issue 15 item 12; the root-only cases with other users are in ReliabilitySuite.OwnershipTests).
@Suite struct SocketPathsTests {
    @Test func onlyTheTmpFallbackIsChecked() {
        #expect(SocketPaths(environment: { _ in nil }, uid: 1000).checksOwner)
        #expect(!SocketPaths(environment: { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1000" : nil }, uid: 1000).checksOwner)
        #expect(SocketPaths(environment: { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1000//" : nil }, uid: 1000).directory == "/run/user/1000/workoutd")
        #expect(RuntimeDirectory.path(xdgRuntimeDir: "/", uid: 3) == "/workoutd")
    }

    /// A symlink in the directory's place (anyone may create one in /tmp) is refused before
    /// connecting, with a message naming it; exit 69.
    @Test func symlinkedRuntimeDirectoryIsRefused() throws {
        var template = Array("/tmp/wsp.XXXXXX".utf8CString)
        let base = String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!)
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/real", withIntermediateDirectories: false)
        #expect(symlink(base + "/real", base + "/link") == 0)
        let paths = SocketPaths(directory: base + "/link", checksOwner: true)
        #expect(paths.trustProblem(paths.control)?.contains("symlink") == true)
        #expect(paths.trustProblem("/elsewhere/x.sock") == nil, "an explicit --socket is the user's choice")
        let cap = Capture()
        let code = Client(console: cap.console, paths: paths).run(arguments: ["status"], cwd: "/")
        #expect(code == .unavailable)
        #expect(cap.stderr.contains("refusing to use \(base)/link/control.sock"), "\(cap.stderr)")

        // Our own real directory, writable by others: refused too.
        #expect(chmod(base + "/real", 0o777) == 0)
        let open = SocketPaths(directory: base + "/real", checksOwner: true)
        #expect(open.trustProblem(open.control)?.contains("writable by other users") == true)
        #expect(chmod(base + "/real", 0o700) == 0)
        #expect(open.trustProblem(open.control) == nil)
    }
}
