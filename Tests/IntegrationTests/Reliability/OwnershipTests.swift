import Foundation
import Glibc
import Testing
import TestRequirements

extension ReliabilitySuite {
    /// Issue 15 items 12 and 13: workoutctl refuses a `/tmp/workoutd-$UID` (or its socket) that
    /// another user made; a root daemon refuses data and state directories that are symlinks into
    /// another user's directory.
    @Suite(.requires(.root)) struct OwnershipTests {
        static let nobody = 65534
        static let victim = 65533  // runs workoutctl without XDG_RUNTIME_DIR

        /// A listening socket at `path`, owned by `uid`; returns its descriptor.
        static func listener(_ path: String, owner uid: Int) throws -> Int32 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_un()
            addr.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
            let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
            try #require(rc == 0 && listen(fd, 8) == 0)
            _ = chmod(path, 0o666)
            _ = chown(path, uid_t(uid), gid_t(uid))
            return fd
        }

        /// Whether someone connected to `fd` (a pending connection makes it readable).
        static func connected(_ fd: Int32) -> Bool {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&p, 1, 200) == 1
        }

        /// workoutctl as `victim`, without XDG_RUNTIME_DIR.
        static func ctlAsVictim(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
            try Reliability.run(Reliability.asUser(victim) + [DaemonHarness.binary("workoutctl")] + args,
                                environment: ["PATH": "/usr/bin:/bin", "HOME": "/tmp"])
        }

        @Test func clientRefusesARuntimeDirectoryOrSocketOfAnotherUser() throws {
            guard Reliability.requireRoot() else { return }
            let dir = "/tmp/workoutd-\(Self.victim)"
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try? FileManager.default.removeItem(atPath: dir)

            // 1. nobody made the victim's directory first and listens in it, posing as workoutd.
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
            #expect(chown(dir, uid_t(Self.nobody), gid_t(Self.nobody)) == 0)
            var fd = try Self.listener(dir + "/control.sock", owner: Self.nobody)
            var r = try Self.ctlAsVictim(["status"])
            print("reliability: workoutctl with /tmp/workoutd-\(Self.victim) owned by \(Self.nobody): exit \(r.status): \(r.err)")
            #expect(r.status == 69, "\(r)")
            #expect(r.err.contains("refusing to use \(dir)/control.sock") && r.err.contains("owned by uid \(Self.nobody)"), "\(r.err)")
            #expect(!Self.connected(fd), "the client never connected to the impostor")
            close(fd)

            // 2. The directory is the victim's, but the socket in it is nobody's.
            try FileManager.default.removeItem(atPath: dir)
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            #expect(chown(dir, uid_t(Self.victim), gid_t(Self.victim)) == 0)
            fd = try Self.listener(dir + "/control.sock", owner: Self.nobody)
            r = try Self.ctlAsVictim(["status"])
            #expect(r.status == 69 && r.err.contains("owned by uid \(Self.nobody), not by you"), "\(r)")
            #expect(!Self.connected(fd))
            close(fd)

            // 3. A symlink in the directory's place (to a directory of the victim's).
            try FileManager.default.removeItem(atPath: dir)
            let elsewhere = "/tmp/wv.\(getpid())"
            try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(atPath: elsewhere) }
            #expect(chown(elsewhere, uid_t(Self.victim), gid_t(Self.victim)) == 0)
            #expect(symlink(elsewhere, dir) == 0)
            r = try Self.ctlAsVictim(["status"])
            #expect(r.status == 69 && r.err.contains("symlink"), "\(r)")
            #expect(lchown(dir, uid_t(Self.victim), gid_t(Self.victim)) == 0)
            try FileManager.default.removeItem(atPath: dir)

            // 4. The victim's own directory and socket: connected (nobody answers: refused, 69,
            //    but not the ownership message).
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            #expect(chown(dir, uid_t(Self.victim), gid_t(Self.victim)) == 0)
            fd = try Self.listener(dir + "/control.sock", owner: Self.victim)
            let lfd = fd
            let t = Thread {
                let c = accept(lfd, nil, nil)
                var buf = [UInt8](repeating: 0, count: 4096)
                _ = recv(c, &buf, buf.count, 0)
                let reply = #"{"ok":true,"state":"idle","workout":null}"# + "\n"
                _ = reply.withCString { send(c, $0, strlen($0), 0) }
                close(c)
            }
            t.start()
            r = try Self.ctlAsVictim(["--json", "status"])
            #expect(r.status == 0 && !r.err.contains("refusing"), "its own socket is used: \(r)")
            close(fd)
        }

        @Test(arguments: ["data", "state"])
        func rootDaemonRefusesADirectoryLinkedIntoAnotherUsers(_ which: String) throws {
            guard Reliability.requireRoot() else { return }
            let d = try DaemonHarness()
            // nobody's directory, and a link to it where the daemon keeps its data or state.
            let theirs = d.dir + "/theirs"
            try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            #expect(chown(theirs, uid_t(Self.nobody), gid_t(Self.nobody)) == 0)
            let ours = which == "data" ? d.dataDir : d.stateDir
            try FileManager.default.createDirectory(atPath: (ours as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(symlink(theirs, ours) == 0)
            let r = try d.runToExit()
            print("reliability: \(which) directory linked into uid \(Self.nobody)'s: exit \(r.status): \(r.stderr)")
            #expect(r.status != 0, "refused: \(r.stderr)")
            #expect(r.stderr.contains(ours) && r.stderr.contains("symlink into a directory of uid \(Self.nobody)"), "\(r.stderr)")
            #expect((try FileManager.default.contentsOfDirectory(atPath: theirs)).isEmpty, "nothing written through the link")

            // A link of ours to a directory of ours (another disk, say) is fine.
            try FileManager.default.removeItem(atPath: ours)
            let mine = d.dir + "/mine"
            try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            #expect(symlink(mine, ours) == 0)
            try d.start()
            #expect(d.stop() == 0)
        }
    }
}
