import Foundation
import Glibc
import Testing
import TestRequirements

/// Issue 18: after gpsd failed and the feed socket took over, `status` showed the socket's
/// fixes with gpsd's stale satellite count, and gpsd's retries reset the fix shown to "no fix".
/// The real gpsd (gpsd-replay) feeds first, is killed, and the feed socket takes over.
@Suite(.serialized, .offPool, .requires(.sharedData, .program(.gpsd)))
struct GpsdFailoverTests {
    @Test func theFeedSocketTakingOverFromGpsdIsShownAsItself() throws {
        let gpsd = try GpsdReplay(capture: "bundg_zeus_9.log", port: 2987, rate: 10)
        defer { gpsd.stop() }
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"gpsd","address":"127.0.0.1:2987"},{"kind":"socket"}],"statusLogSeconds":0}"#)
        try d.start()
        defer { d.stop() }
        _ = try d.request(#"{"command":"start","activity":"sailing"}"#)
        func gps(_ s: [String: Any]) -> [String: Any] { s["gps"] as? [String: Any] ?? [:] }
        let fromGpsd = try d.waitForStatus(seconds: 15) { gps($0)["satellites"] is Int && (gps($0)["source"] as? String)?.hasPrefix("gpsd") == true }
        #expect(gps(fromGpsd)["source"] as? String == "gpsd at 127.0.0.1:2987", "\(gps(fromGpsd))")
        gpsd.killGpsd()
        _ = try d.waitForStatus(seconds: 10) { (gps($0)["problem"] as? String)?.contains("gpsd at 127.0.0.1:2987") == true }
        let feeder = FixFeeder(socket: d.feedSocket, start: Date().timeIntervalSince1970, rate: 5)
        defer { feeder.stop() }
        let socketLabel = "feed socket \(d.feedSocket)"
        _ = try d.waitForStatus(seconds: 10) { gps($0)["source"] as? String == socketLabel }
        // Over the next gpsd retries (1, 2 s backoff): the socket's own figures, gpsd's problem.
        for _ in 0..<6 {
            usleep(500_000)
            let g = gps(try d.request(#"{"command":"status"}"#))
            #expect(g["source"] as? String == socketLabel, "\(g)")
            #expect(g["satellites"] is NSNull, "gpsd's satellite count shown for the feed socket: \(g)")
            #expect(g["fix"] as? String == "3D", "\(g)")
            #expect((g["problem"] as? String)?.contains("gpsd at 127.0.0.1:2987") == true, "\(g)")
        }
    }
}
