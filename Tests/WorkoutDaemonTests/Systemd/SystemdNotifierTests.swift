import Glibc
import Testing
@testable import WorkoutDaemon

@Suite struct SystemdNotifierTests {
    @Test func disabledWithoutNotifySocket() {
        let n = SystemdNotifier(environment: [:])
        #expect(!n.isEnabled)
        #expect(n.ready(status: "x") == .disabled)
        #expect(n.watchdogInterval == nil)
    }

    @Test func sendsToPathSocket() throws {
        let sock = TestSocket.datagramInTempDir()
        defer { sock.close() }
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": sock.path!])
        #expect(n.address == .path(sock.path!))

        #expect(n.ready(status: "idle, 3 workouts saved") == .sent)
        #expect(sock.receive() == "READY=1\nSTATUS=idle, 3 workouts saved")
        #expect(n.status("active: running\nsecond line") == .sent)
        #expect(sock.receive() == "STATUS=active: running second line")
        #expect(n.watchdogPing() == .sent)
        #expect(sock.receive() == "WATCHDOG=1")
        #expect(n.stopping(status: "saving") == .sent)
        #expect(sock.receive() == "STOPPING=1\nSTATUS=saving")
        #expect(n.extendTimeout(by: .milliseconds(2500)) == .sent)
        #expect(sock.receive() == "EXTEND_TIMEOUT_USEC=2500000")
        #expect(n.notify(["WATCHDOG=trigger", "STATUS=x"]) == .sent)
        #expect(sock.receive() == "WATCHDOG=trigger\nSTATUS=x")
    }

    @Test func reloadingCarriesMonotonicTimestamp() throws {
        let sock = TestSocket.datagramInTempDir()
        defer { sock.close() }
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": sock.path!])
        var before = timespec()
        clock_gettime(CLOCK_MONOTONIC, &before)
        #expect(n.reloading(status: "reloading") == .sent)
        let lines = try #require(sock.receive()).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == "RELOADING=1")
        #expect(lines[2] == "STATUS=reloading")
        let usec = try #require(lines[1].hasPrefix("MONOTONIC_USEC=") ? UInt64(lines[1].dropFirst(15)) : nil)
        let beforeUsec = UInt64(before.tv_sec) * 1_000_000 + UInt64(before.tv_nsec) / 1000
        #expect(usec >= beforeUsec)
        #expect(usec < beforeUsec + 5_000_000)
    }

    @Test func sendsToAbstractSocket() {
        let name = "workoutd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let sock = TestSocket.datagramAbstract(name: name)
        defer { sock.close() }
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + name])
        #expect(n.address == .abstract(name))
        #expect(n.ready() == .sent)
        #expect(sock.receive() == "READY=1")
    }

    @Test func reportsMissingReceiver() {
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/tmp/x.does-not-exist/notify"])
        #expect(n.ready() == .failed(errno: ENOENT))
    }

    @Test(arguments: ["relative/path", "vsock:2:1234", "@", "/" + String(repeating: "a", count: 107)])
    func refusesUnusableAddresses(_ raw: String) {
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": raw])
        #expect(n.address == nil)
        #expect(n.ready() == .invalidAddress)
    }

    @Test func acceptsLongestPath() {
        let raw = "/" + String(repeating: "a", count: 106)   // 107 bytes + NUL = 108
        #expect(SystemdNotifier.parseAddress(raw) == .path(raw))
    }

    @Test func watchdogIntervalIsHalfTheTimeout() {
        let n = SystemdNotifier(environment: ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "\(getpid())"])
        #expect(n.watchdogTimeoutMicroseconds == 10_000_000)
        #expect(n.watchdogInterval == 5)
        let noPID = SystemdNotifier(environment: ["WATCHDOG_USEC": "3000"])
        #expect(noPID.watchdogInterval == 0.0015)
    }

    @Test(arguments: [
        ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"],
        ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "abc"],
        ["WATCHDOG_USEC": "0"],
        ["WATCHDOG_USEC": "-5"],
        ["WATCHDOG_USEC": "ten"],
        ["WATCHDOG_PID": "1"],
    ])
    func watchdogOffWhenNotForUs(_ env: [String: String]) {
        #expect(SystemdNotifier(environment: env, pid: 4242).watchdogInterval == nil)
    }

    /// Issue 27 item 1: one identical `STATUS=` datagram per lap. A status is sent only when its
    /// text changed (also after a READY=1 that carried it).
    @Test func anUnchangedStatusIsNotSentAgain() {
        let sock = TestSocket.datagramInTempDir()
        defer { sock.close() }
        let n = SystemdNotifier(environment: ["NOTIFY_SOCKET": sock.path!])
        #expect(n.ready(status: "Running 0:01:00") == .sent)
        #expect(sock.receive() == "READY=1\nSTATUS=Running 0:01:00")
        for _ in 0..<5 { n.status("Running 0:01:00") }
        n.status("Running 0:02:00")
        for _ in 0..<5 { n.status("Running 0:02:00") }
        #expect(sock.receive() == "STATUS=Running 0:02:00", "the repeats were not sent")
        n.watchdogPing()
        #expect(sock.receive() == "WATCHDOG=1", "nothing else was queued")
    }
}
