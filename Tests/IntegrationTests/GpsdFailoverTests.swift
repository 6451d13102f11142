import Foundation
import Glibc
import Testing
import TestRequirements

/// Issue 18: after gpsd failed and the feed socket took over, `status` showed the socket's
/// fixes with gpsd's stale satellite count, and gpsd's retries reset the fix shown to "no fix".
/// The real gpsd (gpsd-replay) feeds first, is killed, and the feed socket takes over. The daemon
/// is embedded (on the system's clocks: gpsd and the feeder work in real time). The test waits on
/// gpsd's retries for seconds, suspended (`awaitStatus`): it holds no pool thread.
@Suite(.peerBound, .serialized, .requires(.sharedData, .program(.gpsd)))
struct GpsdFailoverTests {
    @Test func theFeedSocketTakingOverFromGpsdIsShownAsItself() async throws {
        let gpsd = try GpsdReplay(capture: "bundg_zeus_9.log", port: 2987, rate: 10)
        defer { gpsd.stop() }
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"gpsd","address":"127.0.0.1:2987"},{"kind":"socket"}],"statusLogSeconds":0}"#)
        try d.start()
        defer { d.stop() }
        _ = try d.request(#"{"command":"start","activity":"sailing"}"#)
        func gps(_ s: [String: Any]) -> [String: Any] { s["gps"] as? [String: Any] ?? [:] }
        let fromGpsd = try await d.awaitStatus(seconds: 15) { gps($0)["satellites"] is Int && (gps($0)["source"] as? String)?.hasPrefix("gpsd") == true }
        #expect(gps(fromGpsd)["source"] as? String == "gpsd at 127.0.0.1:2987", "\(gps(fromGpsd))")
        gpsd.killGpsd()
        _ = try await d.awaitStatus(seconds: 10) { (gps($0)["problem"] as? String)?.contains("gpsd at 127.0.0.1:2987") == true }
        let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 5)
        defer { feeder.stop() }
        let socketLabel = "feed socket \(d.feedSocket)"
        _ = try await d.awaitStatus(seconds: 10) { gps($0)["source"] as? String == socketLabel }
        // Over gpsd's next retry (the one that failed doubles its backoff): every status shows
        // the socket's own figures and gpsd's problem (a retry reset the fix shown to "no fix").
        func backoff(_ g: [String: Any]) -> Int {
            ((g["problem"] as? String)?.components(separatedBy: "retrying in ").dropFirst().last).flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        }
        var backoffs = [backoff(gps(try d.request(#"{"command":"status"}"#)))]
        var wrong: [[String: Any]] = [], polled = 0
        try await d.awaitStatus(seconds: 20) { s in
            let g = gps(s)
            polled += 1
            let right = g["source"] as? String == socketLabel && g["satellites"] is NSNull && g["fix"] as? String == "3D"
                && (g["problem"] as? String)?.contains("gpsd at 127.0.0.1:2987") == true
            if !right { wrong.append(g) }
            if backoff(g) != backoffs.last { backoffs.append(backoff(g)) }
            return backoffs.count >= 2
        }
        #expect(backoffs.count >= 2, "gpsd did not retry: backoffs \(backoffs)")
        // (The socket's own source, fix and no satellites; gpsd's problem: `satellites` not null
        // was gpsd's count shown for the feed socket.)
        #expect(wrong.isEmpty, "\(wrong.count) of \(polled) statuses wrong, the first: \(wrong.first ?? [:])")
        print("gpsd failover: \(polled) statuses over gpsd's next retry (backoffs \(backoffs) s), \(wrong.count) wrong")
    }
}
