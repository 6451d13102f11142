import Foundation
import Glibc
import Testing

/// Issue 15, item 10, through the daemon: two feeds 12 m apart were merged into one track (a
/// 40 m ride came out 160-190 m). One source feeds the workout; the other is counted in status.
/// (The daemon embedded, on the system's clocks: the fixes carry today's times.)
@Suite(.serialized) struct FeedSourceTests {
    static func line(_ t: Double, north: Double) -> String {
        let lat = 48.1 + north / 111_320
        return #"{"class":"FIX","time":"\#(FixFeeder.iso(t))","lat":\#(String(format: "%.8f", lat)),"lon":11.5,"mode":3,"eph":3}"# + "\n"
    }

    @Test func aSecondFeedIsCountedNotMixedIn() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0}"#)
        try d.start()
        _ = try d.request(#"{"command":"start","activity":"cycling"}"#)
        let a = try UnixClient(path: d.feedSocket)
        let t0 = Date().timeIntervalSince1970 + 1
        // A delivers first; then both deliver the same 20 s ride at 2 m/s, B 12 m north of A.
        try a.send(Self.line(t0, north: 0))
        try d.waitForStatus(seconds: 5) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0) >= 1 }
        let b = try UnixClient(path: d.feedSocket)
        for i in 1...20 {
            let t = t0 + Double(i)
            try a.send(Self.line(t, north: 2 * Double(i)))
            try b.send(Self.line(t, north: 2 * Double(i) + 12))
        }
        // The daemon may read all of B's lines before the rest of A's: wait for both.
        let s = try d.waitForStatus(seconds: 10) {
            (($0["gps"] as? [String: Any])?["otherSourceFixes"] as? Int ?? 0) >= 20
                && (($0["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0) >= 21
        }
        let w = s["workout"] as? [String: Any] ?? [:]
        let gps = s["gps"] as? [String: Any] ?? [:]
        #expect(w["pointCount"] as? Int == 21)
        #expect((w["distanceMeters"] as? Double ?? 0) <= 41, "distance \(w["distanceMeters"] ?? "nil")")
        #expect(gps["otherSources"] as? Int == 1)
        #expect(gps["otherSourceFixes"] as? Int == 20)
        a.close(); b.close()
        _ = d.stop()
    }

    /// A new workout chooses its source afresh: a connection that fed the last workout and went
    /// quiet (open, or closed with its hang-up not yet read) does not keep the next workout's
    /// sender out for the handover delay. Before, all of B's fixes were dropped as another
    /// source's for 5 s (seen as a ride of 300 fixes recorded as 0 m in ReceiverClockFeedTests).
    @Test func aNewConnectionFeedsTheNextWorkout() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"statusLogSeconds":0,"metrics":{"autoPauseSeconds":0}}"#)
        try d.start()
        defer { d.stop() }
        _ = try d.request(#"{"command":"start","activity":"cycling"}"#)
        let a = try UnixClient(path: d.feedSocket)
        defer { a.close() }
        let t0 = Date().timeIntervalSince1970
        for i in 0..<5 { try a.send(Self.line(t0 + Double(i), north: 2 * Double(i))) }
        try d.waitForStatus(seconds: 5) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0) >= 5 }
        _ = try d.request(#"{"command":"stop"}"#)
        try d.waitForStatus(seconds: 5) { $0["state"] as? String == "idle" }
        // A stays connected and silent; the next workout is fed by B at once.
        _ = try d.request(#"{"command":"start","activity":"cycling"}"#)
        let b = try UnixClient(path: d.feedSocket)
        defer { b.close() }
        let t1 = Date().timeIntervalSince1970
        for i in 0..<5 { try b.send(Self.line(t1 + Double(i), north: 2 * Double(i))) }
        let s = try d.waitForStatus(seconds: 3) { (($0["workout"] as? [String: Any])?["pointCount"] as? Int ?? 0) >= 5 }
        let w = s["workout"] as? [String: Any] ?? [:]
        let gps = s["gps"] as? [String: Any] ?? [:]
        #expect(w["pointCount"] as? Int == 5, "\(w)")
        #expect(gps["otherSourceFixes"] as? Int ?? 0 == 0, "\(gps)")
    }
}
