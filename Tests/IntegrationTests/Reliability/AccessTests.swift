import Foundation
import Glibc
import Testing
import TestRequirements

extension ReliabilitySuite {
    /// Only the daemon's own user and root may use its sockets (docs/protocol.md). Each layer is
    /// tested on its own: the 0700 directory stops a plain other user at connect(); a process that
    /// gets past the file permissions (CAP_DAC_OVERRIDE, kept through `setpriv --ambient-caps`) is
    /// stopped by the SO_PEERCRED check with a `forbidden` reply; and a socket directory that is
    /// someone else's, or a symlink, is refused at start-up.
    @Suite(.requires(.root)) struct AccessTests {
        static let nobody = 65534
        static let third = 65533  // a uid with no account: neither the daemon's user nor root

        @Test func daemonAsRootRefusesNobody() throws {
            guard Reliability.requireRoot() else { return }
            let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}]}"#)
            try d.start()
            defer { d.stop() }
            // Root (the daemon's user) is served.
            let mine = try Reliability.clientAs(nil, socket: d.controlSocket, line: #"{"command":"status"}"#)
            #expect(mine.contains(#"reply {"ok":true"#), "\(mine)")
            // nobody without privileges cannot even reach the socket (directory 0700, socket 0600).
            let plain = try Reliability.clientAs(Self.nobody, socket: d.controlSocket, line: #"{"command":"status"}"#)
            #expect(plain.hasPrefix("connect-error \(EACCES)"), "\(plain)")
            // nobody past the file permissions: the peer-credential check answers forbidden and closes.
            let forced = try Reliability.clientAs(Self.nobody, dacOverride: true, socket: d.controlSocket, line: #"{"command":"start","activity":"running"}"#)
            #expect(forced.contains(#""code":"forbidden""#), "\(forced)")
            #expect(forced.contains("\neof"), "the connection is closed after the refusal: \(forced)")
            #expect(try d.request(#"{"command":"status"}"#)["state"] as? String == "idle", "the refused start changed nothing")
        }

        @Test func daemonAsNobodyServesItselfAndRootButNotAThirdUser() throws {
            guard Reliability.requireRoot() else { return }
            let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}]}"#)
            try d.start(prefix: Reliability.asUser(Self.nobody), owner: uid_t(Self.nobody))
            defer { d.stop() }
            let status = try String(contentsOfFile: "/proc/\(d.pid)/status", encoding: .utf8)
            #expect(status.contains("Uid:\t\(Self.nobody)\t"), "the daemon runs as nobody")
            var st = stat()
            #expect(lstat(d.controlSocket, &st) == 0 && st.st_uid == Self.nobody && st.st_mode & 0o777 == 0o600)
            #expect(lstat(d.dir + "/r/workoutd", &st) == 0 && st.st_uid == Self.nobody && st.st_mode & 0o777 == 0o700)
            // Its own user: served.
            let own = try Reliability.clientAs(Self.nobody, socket: d.controlSocket, line: #"{"command":"status"}"#)
            #expect(own.contains(#"reply {"ok":true"#), "\(own)")
            // Root: served (root passes the file permissions; the credential check lets uid 0 in).
            let root = try Reliability.clientAs(nil, socket: d.controlSocket, line: #"{"command":"start","activity":"running"}"#)
            #expect(root.contains(#""state":"active""#), "\(root)")
            // A third user, even past the file permissions: forbidden, closed, nothing changed.
            let other = try Reliability.clientAs(Self.third, dacOverride: true, socket: d.controlSocket, line: #"{"command":"stop"}"#)
            #expect(other.contains(#""code":"forbidden""#), "\(other)")
            #expect(other.contains("\neof"), "\(other)")
            #expect(try d.request(#"{"command":"status"}"#)["state"] as? String == "active", "the third user's stop was not applied")
            // The feed socket: the third user's fixes never reach the workout, and it is cut off.
            let fix = #"{"class":"FIX","time":"\#(FixFeeder.iso(Date().timeIntervalSince1970))","lat":48.1,"lon":11.5,"mode":3,"eph":3}"#
            let feed = try Reliability.clientAs(Self.third, dacOverride: true, socket: d.feedSocket, line: fix)
            #expect(feed.contains("eof"), "the feed socket closes on another user: \(feed)")
            let after = try d.request(#"{"command":"status"}"#)
            #expect((after["workout"] as? [String: Any])?["pointCount"] as? Int == 0, "no fix from the third user was recorded")
        }

        @Test func runtimeDirectoryOwnedBySomeoneElseIsRefused() throws {
            guard Reliability.requireRoot() else { return }
            let d = try DaemonHarness()
            // The daemon runs as root; the directory it would use belongs to nobody.
            let runtime = d.dir + "/r/workoutd"
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            #expect(chown(runtime, uid_t(Self.nobody), gid_t(Self.nobody)) == 0)
            let r = try d.runToExit()
            #expect(r.status != 0, "refused: \(r.stderr)")
            #expect(r.stderr.contains(runtime) && r.stderr.contains("owned by uid \(Self.nobody)"), "a clear error: \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: runtime + "/control.sock"), "no socket was created in someone else's directory")
        }

        @Test func runtimeDirectoryThatIsASymlinkIsRefused() throws {
            guard Reliability.requireRoot() else { return }
            let d = try DaemonHarness()
            let target = d.dir + "/elsewhere"
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let runtime = d.dir + "/r/workoutd"
            #expect(symlink(target, runtime) == 0)
            let r = try d.runToExit()
            #expect(r.status != 0, "refused: \(r.stderr)")
            #expect(r.stderr.contains(runtime) && r.stderr.contains("symlink"), "a clear error: \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: target + "/control.sock"), "nothing was created through the symlink")
        }

        @Test func openRuntimeDirectoryOfOurOwnIsMadePrivate() throws {
            let d = try DaemonHarness()
            let runtime = d.dir + "/r/workoutd"
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
            #expect(chmod(runtime, 0o777) == 0)
            try d.start()
            defer { d.stop() }
            var st = stat()
            #expect(lstat(runtime, &st) == 0 && st.st_mode & 0o777 == 0o700, "mode \(String(st.st_mode & 0o777, radix: 8))")
            #expect(lstat(d.controlSocket, &st) == 0 && st.st_mode & 0o777 == 0o600)
        }
    }
}
