import Foundation
import Testing
import TestRequirements

/// Issue 18 against the real daemon: an imported track far faster than its activity keeps its
/// distance and the result, the log and `workoutctl import` say so; a file that names no activity
/// and too short to judge by its speeds takes the configured `defaultActivity`.
@Suite(.serialized, .offPool, .requires(.sharedData))
struct ImportWarningTests {
    static func shared(_ p: String) -> String { DaemonHarness.sharedRoot.appendingPathComponent("data/" + p).path }

    @Test func aRideImportedAsAHikeIsKeptAndWarned() throws {
        let d = try DaemonHarness(config: #"{"feeds":[{"kind":"socket"}],"defaultActivity":"walking","log":{"file":true}}"#)
        try d.start()
        defer { d.stop() }
        let oregon = Self.shared("gpx/garmin-oregon-700-output.gpx")
        let reply = try d.request(#"{"command":"import","files":["\#(oregon)"],"activity":"hiking"}"#)
        let r = try #require((reply["results"] as? [[String: Any]])?.first)
        #expect(r["result"] as? String == "imported" && r["activity"] as? String == "hiking", "\(r)")
        let warnings = r["warnings"] as? [String] ?? []
        #expect(warnings.count == 1 && (warnings.first ?? "").contains("likely cycling"), "\(r)")
        let id = try #require(r["id"] as? String)
        let show = try #require(try d.request(#"{"command":"show","id":"\#(id)"}"#)["workout"] as? [String: Any])
        #expect(abs((show["distanceMeters"] as? Double ?? 0) - 22_235.46) < 1, "\(show)")

        // The human client prints the warning under the file's line.
        let globalsat = Self.shared("gpx/globalsat_gh625XT.gpx")
        let out = try d.ctl(["import", "--activity", "hiking", globalsat, Self.shared("gpx/garmin-edge-800-output.gpx")])
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.contains("warning: moves at 25 km/h median, far faster than hiking allows"), "\(out.stdout)")
        #expect(out.stdout.components(separatedBy: "warning:").count == 2, "only the ride warns: \(out.stdout)")

        // An untyped 148 s clip (a sailing boat at 10 km/h) is too short to judge: it takes the
        // configured default activity (walking) with a warning saying so; a typed file its own.
        let plain = try d.request(#"{"command":"import","files":["\#(Self.shared("nmea/bundg_zeus_9.log"))","\#(Self.shared("gpx/garminconnect.gpx"))"]}"#)
        let results = plain["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["activity"] as? String ?? "?" } == ["walking", "cycling"], "\(plain)")
        #expect(results.first?["warnings"] as? [String] == ["no activity in the file and too little movement to tell: imported as walking (defaultActivity)"], "\(plain)")

        let lines = d.logFileLines { $0.filter { $0.contains("history.import_warning") }.count >= 3 }
            .filter { $0.contains("history.import_warning") }
        #expect(lines.count == 3 && lines.filter { $0.contains("far faster than hiking allows") }.count == 2, "\(lines)")
        #expect(lines.last?.contains("too little movement to tell") == true, "\(lines)")
    }
}
