import Glibc
import Testing
@testable import WorkoutDaemon

/// Socket activation over real descriptors. The sockets are dup2'ed to free descriptor numbers
/// high above anything the test runner uses, then adopted with `firstDescriptor:` there.
@Suite(.serialized) struct SocketActivationTests {
    /// Two consecutive free descriptor numbers in a range private to each test.
    static func freeBase(_ seed: Int32) -> Int32 {
        var base = 600 + seed * 16
        while fcntl(base, F_GETFD) >= 0 || fcntl(base + 1, F_GETFD) >= 0 { base += 2 }
        return base
    }

    /// dup2 `sockets` to base, base+1, ... without FD_CLOEXEC (as systemd passes them).
    static func place(_ sockets: [TestSocket], at base: Int32) {
        for (i, s) in sockets.enumerated() {
            precondition(dup2(s.descriptor, base + Int32(i)) == base + Int32(i))
        }
    }

    static func release(_ base: Int32, _ count: Int) {
        for i in 0..<count { close(base + Int32(i)) }
    }

    let pid: pid_t = 4242

    @Test func notActivatedWithoutOrWithForeignPID() throws {
        #expect(try SocketActivation.adopt(environment: [:], pid: pid) == nil)
        #expect(try SocketActivation.adopt(environment: ["LISTEN_PID": "1", "LISTEN_FDS": "1"], pid: pid) == nil)
        #expect(try SocketActivation.adopt(environment: ["LISTEN_PID": "4242"], pid: pid) == nil)
        #expect(try SocketActivation.adopt(environment: ["LISTEN_PID": "4242", "LISTEN_FDS": "0"], pid: pid) == nil)
    }

    @Test func refusesMalformedVariables() {
        #expect(throws: SocketActivationError.malformedVariable(name: "LISTEN_PID", value: "x")) {
            try SocketActivation.adopt(environment: ["LISTEN_PID": "x", "LISTEN_FDS": "1"], pid: pid)
        }
        #expect(throws: SocketActivationError.malformedVariable(name: "LISTEN_FDS", value: "-1")) {
            try SocketActivation.adopt(environment: ["LISTEN_PID": "4242", "LISTEN_FDS": "-1"], pid: pid)
        }
        #expect(throws: SocketActivationError.nameCountMismatch(count: 2, names: "control")) {
            try SocketActivation.adopt(
                environment: ["LISTEN_PID": "4242", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "control"], pid: pid)
        }
    }

    @Test func adoptsNamedSocketsAndSetsCloexec() throws {
        let feed = TestSocket.unixInTempDir(type: Int32(SOCK_STREAM.rawValue), listen: true)
        let control = TestSocket.unixInTempDir(type: Int32(SOCK_STREAM.rawValue), listen: true)
        defer { feed.close(); control.close() }
        let base = Self.freeBase(1)
        Self.place([feed, control], at: base)
        defer { Self.release(base, 2) }
        #expect(fcntl(base, F_GETFD) & FD_CLOEXEC == 0)

        let env = ["LISTEN_PID": "4242", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "feed:control"]
        let a = try #require(try SocketActivation.adopt(environment: env, pid: pid, firstDescriptor: base))
        #expect(a.sockets.map(\.name) == ["feed", "control"])
        #expect(a.control == .init(descriptor: base + 1, name: "control"))
        #expect(a.feed == .init(descriptor: base, name: "feed"))
        #expect(fcntl(base, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(base + 1, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func firstSocketIsControlWhenUnnamed() throws {
        let s = TestSocket.unixInTempDir(type: Int32(SOCK_STREAM.rawValue), listen: true)
        defer { s.close() }
        let base = Self.freeBase(2)
        Self.place([s], at: base)
        defer { Self.release(base, 1) }
        let a = try #require(try SocketActivation.adopt(
            environment: ["LISTEN_PID": "4242", "LISTEN_FDS": "1"], pid: pid, firstDescriptor: base))
        #expect(a.control == .init(descriptor: base, name: "unknown"))
        #expect(a.feed == nil)
        let b = try #require(try SocketActivation.adopt(
            environment: ["LISTEN_PID": "4242", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "workoutd.socket"],
            pid: pid, firstDescriptor: base))
        #expect(b.control.name == "workoutd.socket")
    }

    @Test func refusesNonListeningAndWrongKindsOfSockets() throws {
        let dgram = TestSocket.unixInTempDir(type: Int32(SOCK_DGRAM.rawValue), listen: false)
        let idle = TestSocket.unixInTempDir(type: Int32(SOCK_STREAM.rawValue), listen: false)
        let tcp = TestSocket.tcpListening()
        defer { dgram.close(); idle.close(); tcp.close() }
        let base = Self.freeBase(3)
        let env = ["LISTEN_PID": "4242", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "control"]

        Self.place([dgram], at: base)
        #expect(throws: SocketActivationError.notStreamSocket(descriptor: base, name: "control", type: Int32(SOCK_DGRAM.rawValue))) {
            try SocketActivation.adopt(environment: env, pid: pid, firstDescriptor: base)
        }
        Self.place([idle], at: base)
        #expect(throws: SocketActivationError.notListening(descriptor: base, name: "control")) {
            try SocketActivation.adopt(environment: env, pid: pid, firstDescriptor: base)
        }
        Self.place([tcp], at: base)
        #expect(throws: SocketActivationError.notUnixSocket(descriptor: base, name: "control", domain: AF_INET)) {
            try SocketActivation.adopt(environment: env, pid: pid, firstDescriptor: base)
        }
        Self.release(base, 1)
        #expect(throws: SocketActivationError.badDescriptor(descriptor: base, name: "control", errno: EBADF)) {
            try SocketActivation.adopt(environment: env, pid: pid, firstDescriptor: base)
        }
        let message = SocketActivationError.notListening(descriptor: 3, name: "control").description
        #expect(message.contains("Accept=no"))
    }

    @Test func listenFDsReportsDescriptorsOrError() throws {
        // Real descriptor numbering from 3 is not ours to take in a test process, so the
        // non-throwing wrapper is checked on its "not activated" and error paths.
        let none = SocketActivation.listenFDs(environment: [:], unsetEnvironment: false)
        #expect(none == .init(control: nil, feed: nil, error: nil))
        let bad = SocketActivation.listenFDs(
            environment: ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "x"], unsetEnvironment: false)
        #expect(bad.control == nil)
        #expect(bad.error == .malformedVariable(name: "LISTEN_FDS", value: "x"))
    }

    @Test func adoptFromProcessUnsetsTheVariables() throws {
        // LISTEN_PID names another process, so nothing is adopted, but the variables must go.
        setenv("LISTEN_PID", "1", 1)
        setenv("LISTEN_FDS", "1", 1)
        setenv("LISTEN_FDNAMES", "control", 1)
        #expect(try SocketActivation.adoptFromProcess() == nil)
        #expect(getenv("LISTEN_PID") == nil)
        #expect(getenv("LISTEN_FDS") == nil)
        #expect(getenv("LISTEN_FDNAMES") == nil)
    }
}
