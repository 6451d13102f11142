import Foundation
import Testing
import TestRequirements
import WorkoutCore
@testable import WorkoutDaemon

/// workoutd against the real gpsd (Debian's gpsd 3.22 through ../shared/tools/gpsd-replay). The
/// peer is the real process; the daemon is embedded (on the system's clocks: gpsd serves in real
/// time). The tests wait on gpsd for seconds, suspended (`awaitStatus`): they hold no pool thread.
@Suite(.peerBound, .serialized, .requires(.sharedData, .program(.gpsd)))
struct GpsdIntegrationTests {
    @Test func recordsTheSameFixesGpsdServes() async throws {
        let gpsd = try GpsdReplay(capture: "nmea-rtk.log", port: 2961, rate: 0)
        defer { gpsd.stop() }
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"gpsd","address":"127.0.0.1:2961"}]}"#)
        try d.start()
        // gpsd's own TPV reports for this capture (mode >= 2 with a time), deduplicated by time.
        let chk = try String(contentsOf: DaemonHarness.sharedRoot.appendingPathComponent("data/nmea/nmea-rtk.log.chk"), encoding: .utf8)
        var times: [String] = []
        for line in chk.split(whereSeparator: \.isNewline) where line.contains(#""class":"TPV""#) {
            guard let o = try? JSON.parse(String(line)), let mode = o["mode"]?.intValue, mode >= 2,
                  let t = o["time"]?.stringValue else { continue }
            if times.last != t { times.append(t) }
        }
        let id = (try d.request(#"{"command":"start","activity":"cycling"}"#)["workout"] as? [String: Any])?["id"] as? String ?? "?"
        // Wait until the whole capture has arrived: every epoch but the last, which stays pending
        // (below).
        try await d.awaitStatus(seconds: 30) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0) >= times.count - 1 }
        _ = try d.request(#"{"command":"stop"}"#)
        try await d.awaitStatus(seconds: 30) { $0["state"] as? String == "idle" }
        let saved = try WorkoutFile.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: d.dataDir + "/workouts/\(id).json"))))
        // The capture is from 2020: its fixes are placed on the workout's clock (docs/time.md),
        // spaced exactly as gpsd's times. Sent as fast as possible, its 10-minute gap (fix 104)
        // is a step of the receiver's clock, confirmed by 3 fixes: from there on, the spacing
        // is the receiver's again.
        let recorded = saved.points.map(\.fix.time)
        let expected = times.map { ISO8601.parse($0)! }
        // gpsd repeats a TPV several times per epoch; the reader merges them and emits an epoch when
        // the next one begins, so the capture's very last epoch stays pending when gpsd goes quiet.
        #expect(expected.count == 122)
        #expect(recorded.count >= expected.count - 1, "recorded \(recorded.count) fixes, gpsd served \(expected.count)")
        let gap = (1..<expected.count).first { expected[$0] - expected[$0 - 1] > 60 } ?? expected.count
        for i in 1..<min(recorded.count, expected.count) where i < gap || i > gap + 2 {
            #expect(abs((recorded[i] - recorded[i - 1]) - (expected[i] - expected[i - 1])) < 0.0005, "interval \(i)")
        }
        #expect(abs(recorded[0] - Date().timeIntervalSince1970) < 60, "placed on today's clock, not 2020")
        d.stop()
    }

    @Test func recordingContinuesAfterGpsdRestarts() async throws {
        let gpsd = try GpsdReplay(capture: "bundg_zeus_9.log", port: 2962, rate: 10)
        defer { gpsd.stop() }
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"gpsd","address":"127.0.0.1:2962"}]}"#)
        // The product's backoff (1, 2, 4 ... s) shortened: gpsd is back within 0.4 s of retries.
        d.ports.feedBackoff = .init(nextSource: 0.05, firstRound: 0.1, longest: 0.4)
        try d.start()
        _ = try d.request(#"{"command":"start","activity":"sailing"}"#)
        func points() throws -> Int { ((try d.request(#"{"command":"status"}"#)["workout"] as? [String: Any])?["pointCount"] as? Int) ?? 0 }
        try await d.awaitStatus(seconds: 10) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0) >= 10 }
        gpsd.killGpsd()
        let down = try await d.awaitStatus(seconds: 10) { (($0["gps"] as? [String: Any])?["problem"] as? String) != nil }
        let problem = (down["gps"] as? [String: Any])?["problem"] as? String ?? ""
        #expect(problem.contains("gpsd at 127.0.0.1:2962"), "problem in words: \(problem); status: \(down)")
        #expect(problem.contains("retrying in"))
        let before = try points()
        try gpsd.restartGpsd()
        let after = try await d.awaitStatus(seconds: 40) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0) > before + 10 }
        #expect((after["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0 > before + 10, "recording continued after gpsd came back")
        // No network problem any more; the capture's 2018 dates remain a clock problem (docs/time.md:
        // "receiver clock ..." or, when the replay's time stood still, "the receiver's clock ...").
        let problemAfter = (after["gps"] as? [String: Any])?["problem"] as? String
        #expect(problemAfter.map { !$0.contains("gpsd at") && $0.contains("clock") } ?? true, "problem: \(problemAfter ?? "none")")
        #expect(d.isRunning)
        d.stop()
    }
}
