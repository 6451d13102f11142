import Dispatch
import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// A configured host name is looked up off the event loop (issue 26 item 5): `getaddrinfo`
/// waiting on DNS must not stall the loop (and trip the watchdog).
@Suite struct NetworkFeedTests {
    /// A lookup that answers only once the loop has run a timer: it can finish only if it runs
    /// off the loop. On the loop it would wait out its 10 s and fail, and so would the test.
    @Test func theLookupRunsOffTheLoopWhileTheLoopGoesOn() throws {
        let server = FeedHubFailoverTests.TCPServer()
        defer { server.shut() }
        let loop = try EventLoop()
        let loopRan = DispatchSemaphore(value: 0)
        let port = UInt16(server.port)
        let resolver = NameResolver { host, _ in
            guard loopRan.wait(timeout: .now() + .seconds(10)) == .success else {
                return .failure(NameResolverError(host: host, reason: "the loop never ran while looking up"))
            }
            var a = sockaddr_in()
            a.sin_family = sa_family_t(AF_INET)
            a.sin_addr.s_addr = inet_addr("127.0.0.1")
            a.sin_port = port.bigEndian
            var storage = sockaddr_storage()
            withUnsafeMutableBytes(of: &storage) { dst in withUnsafeBytes(of: a) { dst.copyMemory(from: $0) } }
            return .success(NameResolver.Address(family: AF_INET, storage: storage, length: socklen_t(MemoryLayout<sockaddr_in>.size)))
        }
        let feed = NetworkFeed(.nmea(host: "gps.example", port: port), loop: loop, resolver: resolver)
        var outcome = "none"
        feed.onConnected = { outcome = "connected"; loop.stop() }
        feed.onFailure = { reason in outcome = reason; loop.stop() }
        loop.after(0) { loopRan.signal() }  // a turn of the loop while the lookup is waiting
        loop.after(30) { outcome = "timed out"; loop.stop() }
        feed.connect()
        try loop.run()
        #expect(outcome == "connected")
        feed.close()
    }

    @Test func aLateAnswerForAClosedFeedIsDropped() throws {
        let loop = try EventLoop()
        let release = DispatchSemaphore(value: 0)
        let resolver = NameResolver { host, _ in
            release.wait()
            return .failure(NameResolverError(host: host, reason: "no such host"))
        }
        let feed = NetworkFeed(.gpsd(host: "gone.example", port: 2947), loop: loop, resolver: resolver)
        var failures: [String] = []
        feed.onFailure = { failures.append($0) }
        feed.connect()
        feed.close()  // GPS closed while the lookup was out
        release.signal()
        // Lookups run one at a time and post in order: this one's answer comes after the first's.
        NameResolver { h, _ in .failure(NameResolverError(host: h, reason: "-")) }.resolve("after", port: 1, on: loop) { _ in loop.stop() }
        try loop.run()
        #expect(failures.isEmpty, "\(failures)")
    }
}
