import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// `FeedHub.catchUp` (run before every control request) and `SEGMENT` lines (issue 18).
@Suite(.serialized) struct FeedHubCatchUpTests {
    static func fix(_ k: Int) -> String {
        let t = 1_795_000_000 + k
        return #"{"class":"FIX","time":"\#(ISO8601.format(Double(t)))","lat":48.1,"lon":\#(11.0 + Double(k) * 0.00004),"mode":3}"#
    }

    /// Lines written (and the connection closed) before a request are all read by `catchUp`,
    /// whatever the 1 ms read budget, even before the loop has accepted the connection.
    @Test func catchUpReadsEveryQueuedLineAndTheHangUp() throws {
        let rig = try FeedHubTests.Rig()
        rig.hub.open()
        let a = try rig.connect()
        rig.send(a, [#"{"class":"SIMULATION","speed":0}"#] + (0..<600).map(Self.fix))  // ~60 KB: fits the socket buffer unread
        close(a)
        rig.hub.catchUp()  // the loop never ran: nothing was accepted or read before this
        #expect(rig.fixes.count == 600)
        #expect(rig.reports.contains { if case .replayEnded = $0 { return true } else { return false } })
    }

    /// A break is reported in its place among the feeding source's fixes, and never from a
    /// connection that does not feed the workout.
    @Test func segmentBreaksComeFromTheFeedingSourceInOrder() throws {
        let rig = try FeedHubTests.Rig()
        rig.hub.open()
        let a = try rig.connect()
        defer { close(a) }
        rig.send(a, [Self.fix(0), Self.fix(1), #"{"class":"SEGMENT"}"#, Self.fix(2)])
        rig.hub.catchUp()
        let b = try rig.connect()
        defer { close(b) }
        rig.send(b, [#"{"class":"SEGMENT"}"#, Self.fix(3)])
        rig.hub.catchUp()
        let kinds = rig.reports.compactMap { r -> String? in
            switch r {
            case .fix: return "f"
            case .segmentBreak: return "|"
            case .sourceChanged, .replayEnded, .readTurnEnded, .heartRate, .log: return nil
            }
        }
        #expect(kinds == ["f", "f", "|", "f"])
        #expect(rig.hub.status.otherSourceFixes == 1)
    }
}
