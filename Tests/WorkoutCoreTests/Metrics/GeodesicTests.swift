import Foundation
import Testing
@testable import WorkoutCore

/// Geodesic against GeographicLib (python3 geographiclib), the reference implementation.
@Suite struct GeodesicTests {
    /// A few pairs computed once with:
    /// python3 -c 'from geographiclib.geodesic import Geodesic as G
    /// for p in [(0,0,0,0),(52.5,13.4,48.1,11.6),(0,0,0.5,179.5),(-30,0,29.9,179.8),(89.9,0,-89.9,180),(0,0,0,180),(10,20,10,20.00001)]:
    ///     r=G.WGS84.Inverse(*p); print(p, repr(r["s12"]), repr(r["azi1"]), repr(r["azi2"]))'
    static let table: [(Double, Double, Double, Double, Double, Double, Double)] = [
        (0, 0, 0, 0, 0.0, 180.0, 180.0),
        (52.5, 13.4, 48.1, 11.6, 505912.8466989985, -164.61926405039802, -166.00525320443728),
        (0, 0, 0.5, 179.5, 19936288.578965314, 25.67187286829188, 154.3270854699416),
        (-30, 0, 29.9, 179.8, 19989832.82760953, 161.89052473632697, 18.0907372457395),
        (89.9, 0, -89.9, 180, 20003931.458625447, 0.0, 180.0),
        (0, 0, 0, 180, 20003931.458625447, 0.0, 180.0),
        (10, 20, 10, 20.00001, 1.0963936406400225, 89.99999913175911, 90.00000086824089),
    ]

    @Test func matchesHardCodedGeographicLibTable() {
        for (lat1, lon1, lat2, lon2, s12, azi1, azi2) in Self.table {
            let r = Geodesic.wgs84.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            #expect(Swift.abs(r.distance - s12) <= 1e-9 * max(1, s12), "s12 \(lat1),\(lon1) -> \(lat2),\(lon2): \(r.distance) vs \(s12)")
            #expect(Swift.abs(r.initialAzimuth - azi1) < 1e-7, "azi1 \(r.initialAzimuth) vs \(azi1)")
            #expect(Swift.abs(r.finalAzimuth - azi2) < 1e-7, "azi2 \(r.finalAzimuth) vs \(azi2)")
        }
    }

    /// 3000 seeded random pairs (global, short, nearly antipodal) checked against geographiclib
    /// run at test time.
    @Test(.enabled(if: SharedData.hasCommand("python3"))) func matchesGeographicLibOnRandomPairs() throws {
        let script = """
        import random, sys
        from geographiclib.geodesic import Geodesic as G
        rnd = random.Random(20261121)
        out = []
        for i in range(3000):
            k = i % 3
            lat1 = rnd.uniform(-90, 90); lon1 = rnd.uniform(-180, 180)
            if k == 0:
                lat2 = rnd.uniform(-90, 90); lon2 = rnd.uniform(-180, 180)
            elif k == 1:
                lat2 = max(-90, min(90, lat1 + rnd.uniform(-0.01, 0.01))); lon2 = lon1 + rnd.uniform(-0.01, 0.01)
            else:
                lat2 = max(-90, min(90, -lat1 + rnd.uniform(-0.5, 0.5))); lon2 = lon1 + 180 + rnd.uniform(-0.5, 0.5)
            r = G.WGS84.Inverse(lat1, lon1, lat2, lon2)
            out.append("%r %r %r %r %r %r %r" % (lat1, lon1, lat2, lon2, r["s12"], r["azi1"], r["azi2"]))
        print("\\n".join(out))
        """
        let run = try SharedData.run(["python3", "-c", script])
        try #require(run.status == 0, "python3/geographiclib failed: \(run.stderr)")
        var worst = 0.0, count = 0
        for line in run.stdout.split(separator: "\n") {
            let v = line.split(separator: " ").compactMap { Double($0) }
            guard v.count == 7 else { continue }
            let r = Geodesic.wgs84.inverse(latitude1: v[0], longitude1: v[1], latitude2: v[2], longitude2: v[3])
            let rel = Swift.abs(r.distance - v[4]) / max(v[4], 1)
            worst = max(worst, rel)
            count += 1
            #expect(rel < 1e-9, "pair \(line): \(r.distance)")
        }
        #expect(count == 3000)
        print("Geodesic vs geographiclib: \(count) pairs, worst relative error \(worst)")
    }

    /// Raw geodesic length of a file's points, summed inside each segment (as gpxstats does).
    static func rawLength(_ segments: [[TrackFileExtractor.Point]]) -> Double {
        var total = 0.0
        for seg in segments where seg.count > 1 {
            for i in 1..<seg.count {
                total += Geodesic.wgs84.distance(latitude1: seg[i - 1].lat, longitude1: seg[i - 1].lon, latitude2: seg[i].lat, longitude2: seg[i].lon)
            }
        }
        return total
    }

    /// Every GPX track in ../shared/data/gpx against `gpxstats.py --json` (geographiclib).
    @Test(.enabled(if: SharedData.usable)) func gpxTrackLengthsMatchGpxstats() throws {
        let files = SharedData.files(in: "data/gpx", ext: "gpx")
        try #require(!files.isEmpty, "no GPX files in ../shared/data/gpx")
        for file in files {
            let segments = try TrackFileExtractor.segments(of: file)
            let ours = Self.rawLength(segments)
            let run = try SharedData.run(["python3", SharedData.url("tools/gpxstats.py").path, "--json", file.path])
            try #require(run.status == 0, "gpxstats failed on \(file.lastPathComponent): \(run.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
            let ref = try #require(json?.first?["length_geodesic_wgs84_m"] as? Double)
            let refPoints = json?.first?["points"] as? Int
            #expect(refPoints == segments.reduce(0) { $0 + $1.count }, "\(file.lastPathComponent): point count")
            let rel = Swift.abs(ours - ref) / ref
            print("length \(file.lastPathComponent): ours \(ours) m, gpxstats \(ref) m, relative error \(rel)")
            #expect(rel < 1e-6, "\(file.lastPathComponent): \(ours) vs \(ref)")
        }
    }

    /// Every TCX track in ../shared/data/tcx (gpxstats cannot read TCX): the reference is
    /// geographiclib summed over the same points, fed to python on stdin, one segment per <Track>.
    @Test(.enabled(if: SharedData.usable)) func tcxTrackLengthsMatchGeographicLib() throws {
        let files = SharedData.files(in: "data/tcx", ext: "tcx")
        try #require(!files.isEmpty, "no TCX files in ../shared/data/tcx")
        let script = """
        import sys
        from geographiclib.geodesic import Geodesic as G
        t = 0.0
        for seg in sys.stdin.read().split("\\n\\n"):
            pts = [tuple(map(float, l.split())) for l in seg.splitlines() if l.strip()]
            t += sum(G.WGS84.Inverse(a[0], a[1], b[0], b[1])["s12"] for a, b in zip(pts, pts[1:]))
        print(repr(t))
        """
        for file in files {
            let segments = try TrackFileExtractor.segments(of: file)
            let input = segments.map { seg in seg.map { "\($0.lat) \($0.lon)" }.joined(separator: "\n") }.joined(separator: "\n\n")
            let run = try SharedData.run(["python3", "-c", script], stdin: Data(input.utf8))
            try #require(run.status == 0, "python failed on \(file.lastPathComponent): \(run.stderr)")
            let ref = try #require(Double(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
            let ours = Self.rawLength(segments)
            let rel = ref > 0 ? Swift.abs(ours - ref) / ref : Swift.abs(ours)
            print("length \(file.lastPathComponent): \(segments.reduce(0) { $0 + $1.count }) points, ours \(ours) m, geographiclib \(ref) m, relative error \(rel)")
            #expect(rel < 1e-6, "\(file.lastPathComponent): \(ours) vs \(ref)")
        }
    }
}
