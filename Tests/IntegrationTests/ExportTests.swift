import Foundation
import Testing
import TestRequirements

/// Every export of a workout made from the shared captures and tracks validates against the
/// shared schemas and reads back in gpsbabel and gpxpy with the same points (the recorded track:
/// accepted and stationary fixes, issue 18) and distance (TCX DistanceMeters; the GPX path where
/// no stationary fix lengthens it).
@Suite(.serialized, .requires(.sharedData, .program(.xmllint), .program(.gpsbabel), .python(.gpxpy)))
struct ExportTests {
    static var inputs: [String] {
        let data = DaemonHarness.sharedRoot.appendingPathComponent("data")
        var out: [String] = []
        for dir in ["nmea", "gpx", "tcx"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent(dir).path)) ?? []
            out += names.filter { $0.hasSuffix(".log") || $0.hasSuffix(".gpx") || $0.hasSuffix(".tcx") }.sorted().map { "\(dir)/\($0)" }
        }
        return out
    }

    /// A peer tool found on PATH (xmllint, gpsbabel, python3).
    static func run(_ args: [String]) throws -> (Int32, String, String) {
        let r = try Reliability.run(["/usr/bin/env"] + args)
        return (r.status, r.out, r.err)
    }

    @Test func exportsValidateAndReadBack() throws {
        #expect(Self.inputs.count == 15, "8 captures, 4 GPX, 3 TCX: \(Self.inputs)")
        let d = try EmbeddedDaemon(config: #"{"feeds":[{"kind":"socket"}]}"#)
        try d.start()
        let schemas = DaemonHarness.sharedRoot.appendingPathComponent("schemas")
        var report: [String] = []
        for input in Self.inputs {
            let path = DaemonHarness.sharedRoot.appendingPathComponent("data/\(input)").path
            // A 52 MB capture imported and exported by the debug daemon on a loaded 2-core CI
            // machine outlasted the harness's 30 s read timeout (EAGAIN): a hang guard of 300 s.
            let reply = try d.request(#"{"command":"import","files":["\#(path)"],"activity":"cycling"}"#, timeoutSeconds: 300)
            let result = try #require((reply["results"] as? [[String: Any]])?.first)
            guard let id = result["id"] as? String else { Issue.record("\(input): \(result)"); continue }
            let show = try d.request(#"{"command":"show","id":"\#(id)"}"#, timeoutSeconds: 300)
            let summary = try #require(show["workout"] as? [String: Any])
            let stationary = (summary["rejected"] as? [String: Any])?["stationary_jitter"] as? Int ?? 0
            let accepted = (summary["acceptedCount"] as? Int ?? -1) + stationary
            let distance = summary["distanceMeters"] as? Double ?? -1
            // A TCX's distance is its device's (issue 39); its points' own length is kept beside.
            let gpsDistance = summary["gpsDistanceMeters"] as? Double ?? distance
            for format in ["gpx", "tcx"] {
                let ex = try d.request(#"{"command":"export","id":"\#(id)","format":"\#(format)"}"#, timeoutSeconds: 300)
                let content = try #require(ex["content"] as? String)
                let file = d.dir + "/\(id).\(format)"
                try content.write(toFile: file, atomically: true, encoding: .utf8)
                let schema = format == "gpx" ? "gpx11+garmin.xsd" : "tcx2+ax2.xsd"
                let lint = try Self.run(["xmllint", "--nonet", "--noout", "--schema", schemas.appendingPathComponent(schema).path, file])
                #expect(lint.0 == 0, "\(input) \(format): \(lint.2)")
                let babel = try Self.run(["gpsbabel", "-t", "-i", format == "gpx" ? "gpx" : "gtrnctr", "-f", file, "-o", "unicsv", "-F", "-"])
                let rows = babel.1.split(whereSeparator: \.isNewline).count - 1  // unicsv ends lines with CRLF
                #expect(babel.0 == 0 && max(rows, 0) == accepted, "\(input) \(format): gpsbabel read \(rows) points, workout has \(accepted)")
            }
            // The TCX's last DistanceMeters (Python's XML parser) is our measured distance.
            let tcxLast = try Self.run(["python3", "-c", """
            import sys, xml.etree.ElementTree as E
            ns = '{http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2}'
            d = [float(t.find(ns + 'DistanceMeters').text) for t in E.parse(sys.argv[1]).iter(ns + 'Trackpoint')]
            print(repr(d[-1] if d else 0.0))
            """, d.dir + "/\(id).tcx"])
            let last = Double(tcxLast.1.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            #expect(abs(last - distance) <= 0.006, "\(input): TCX last DistanceMeters \(last) vs workout \(distance) m \(tcxLast.2)")
            // gpxpy reads the GPX; geographiclib over its points per segment gives our distance.
            let py = """
            import gpxpy, sys
            from geographiclib.geodesic import Geodesic
            g = gpxpy.parse(open(sys.argv[1]))
            n = 0; d = 0.0
            for t in g.tracks:
                for s in t.segments:
                    n += len(s.points)
                    d += sum(Geodesic.WGS84.Inverse(a.latitude, a.longitude, b.latitude, b.longitude)['s12'] for a, b in zip(s.points, s.points[1:]))
            print(n, repr(d))
            """
            let r = try Self.run(["python3", "-c", py, d.dir + "/\(id).gpx"])
            let parts = r.1.split(separator: " ")
            let n = Int(parts.first ?? "") ?? -1
            let pd = Double(parts.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
            #expect(r.0 == 0 && n == accepted, "\(input): gpxpy read \(n) points, workout has \(accepted) \(r.2)")
            // 1e-6 relative, or 1 mm on short tracks (coordinates are written with 9 decimals: 0.1 mm).
            // Stationary fixes add nothing to our distance but lengthen the path through every point.
            if stationary == 0 {
                #expect(abs(pd - gpsDistance) <= max(1e-6 * gpsDistance, 0.001), "\(input): gpxpy+geographiclib \(pd) m vs workout \(gpsDistance) m")
            } else {
                #expect(pd >= gpsDistance - max(1e-6 * gpsDistance, 0.001), "\(input): gpxpy+geographiclib \(pd) m vs workout \(gpsDistance) m")
            }
            report.append("\(input): \(accepted) points (\(stationary) stationary), \(String(format: "%.3f", distance)) m, gpxpy \(n) / \(String(format: "%.3f", pd)) m, TCX last \(last) m")
        }
        print("export read-back:\n" + report.joined(separator: "\n"))
        d.stop()
    }
}
