import Foundation
import Testing
import TestRequirements

/// Issue 18 against the embedded daemon: an imported track far faster than its activity keeps its
/// distance and the result, the log and `workoutctl import` say so (with its implausible
/// stretches, issue 39); a file that names no activity is judged by its speeds.
@Suite(.serialized, .requires(.sharedData))
struct ImportWarningTests {
    static func shared(_ p: String) -> String { DaemonHarness.sharedRoot.appendingPathComponent("data/" + p).path }

    @Test func aRideImportedAsAHikeIsKeptAndWarned() throws {
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}],"defaultActivity":"walking","log":{"file":true}}"#)
        try d.start()
        defer { d.stop() }
        let oregon = Self.shared("gpx/garmin-oregon-700-output.gpx")
        let reply = try d.request(#"{"command":"import","files":["\#(oregon)"],"activity":"hiking"}"#)
        let r = try #require((reply["results"] as? [[String: Any]])?.first)
        #expect(r["result"] as? String == "imported" && r["activity"] as? String == "hiking", "\(r)")
        let warnings = r["warnings"] as? [String] ?? []
        #expect((warnings.first ?? "").contains("likely cycling"), "\(r)")
        #expect(warnings.count > 1 && warnings.dropFirst().allSatisfy { $0.contains("implausible stretch") }, "the ride's stretches: \(warnings)")
        let id = try #require(r["id"] as? String)
        let show = try #require(try d.request(#"{"command":"show","id":"\#(id)"}"#)["workout"] as? [String: Any])
        #expect(abs((show["distanceMeters"] as? Double ?? 0) - 22_235.46) < 1, "\(show)")

        // The human client prints the warning under the file's line.
        let globalsat = Self.shared("gpx/globalsat_gh625XT.gpx")
        let out = try d.ctl(["import", "--activity", "hiking", globalsat, Self.shared("gpx/garmin-edge-800-output.gpx")])
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.contains("warning: moves at 25 km/h median, far faster than hiking allows"), "\(out.stdout)")
        let speedWarnings = out.stdout.split(separator: "\n").filter { $0.contains("warning:") && !$0.contains("implausible stretch") }
        #expect(speedWarnings.count == 1, "only the ride warns of its speed: \(out.stdout)")

        // An untyped 148 s clip at 10 km/h (a sailing boat) is judged by its speeds, with the
        // reason in a warning (the default activity is for a few points only); a typed file
        // keeps its own.
        let plain = try d.request(#"{"command":"import","files":["\#(Self.shared("nmea/bundg_zeus_9.log"))","\#(Self.shared("gpx/garminconnect.gpx"))"]}"#)
        let results = plain["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["activity"] as? String ?? "?" } == ["running", "cycling"], "\(plain)")
        #expect((results.first?["warnings"] as? [String])?.first?.contains("no activity in the file; it moves at 10 km/h") == true, "\(plain)")

        let lines = d.logFileLines { $0.contains { $0.contains("history.import_warning") && $0.contains("no activity in the file") } }
            .filter { $0.contains("history.import_warning") }
        #expect(lines.filter { $0.contains("far faster than hiking allows") }.count == 2, "\(lines)")
        #expect(lines.last?.contains("no activity in the file") == true, "\(lines)")
    }
}
