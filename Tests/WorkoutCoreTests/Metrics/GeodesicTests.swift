import Foundation
import Testing
import TestRequirements
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
            expectLessOrEqual(Swift.abs(r.distance - s12), 1e-9 * max(1, s12), "s12 \(lat1),\(lon1) -> \(lat2),\(lon2): \(r.distance) vs \(s12)")
            expectLess(Swift.abs(r.initialAzimuth - azi1), 1e-7, "azi1 \(r.initialAzimuth) vs \(azi1)")
            expectLess(Swift.abs(r.finalAzimuth - azi2), 1e-7, "azi2 \(r.finalAzimuth) vs \(azi2)")
        }
    }

    /// 3000 seeded random pairs (global, short, nearly antipodal) checked against geographiclib
    /// run at test time.
    @Test(.requires(.python(.geographiclib))) func matchesGeographicLibOnRandomPairs() throws {
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
            expectLess(rel, 1e-9, "pair \(line): \(r.distance)")
        }
        expectEqual(count, 3000)
        print("Geodesic vs geographiclib: \(count) pairs, worst relative error \(worst)")
    }

    /// `distance` on short lines (the chord path, up to `shortLineDegrees` apart) against
    /// geographiclib on 4,000 seeded pairs from 1 mm to 11 km, at every latitude below 89.5
    /// degrees and across the antimeridian: within 3 nm, as Karney's own solution is (15 nm).
    @Test(.requires(.python(.geographiclib))) func shortLinesMatchGeographicLib() throws {
        let script = """
        import random
        from geographiclib.geodesic import Geodesic as G
        rnd = random.Random(20261123)
        out = []
        for i in range(4000):
            lat1 = rnd.uniform(-89.49, 89.49); lon1 = rnd.choice([rnd.uniform(-180, 180), 179.99, -179.99])
            span = 10 ** rnd.uniform(-8, -1.01)
            lat2 = max(-89.49, min(89.49, lat1 + rnd.uniform(-span, span))); lon2 = lon1 + rnd.uniform(-span, span)
            if lon2 > 180: lon2 -= 360
            if lon2 < -180: lon2 += 360
            r = G.WGS84.Inverse(lat1, lon1, lat2, lon2)
            out.append("%r %r %r %r %r" % (lat1, lon1, lat2, lon2, r["s12"]))
        print("\\n".join(out))
        """
        let run = try SharedData.run(["python3", "-c", script])
        try #require(run.status == 0, "python3/geographiclib failed: \(run.stderr)")
        var worst = 0.0, worstRelative = 0.0, count = 0
        for line in run.stdout.split(separator: "\n") {
            let v = line.split(separator: " ").compactMap { Double($0) }
            guard v.count == 5 else { continue }
            let d = Geodesic.wgs84.distance(latitude1: v[0], longitude1: v[1], latitude2: v[2], longitude2: v[3])
            let karney = Geodesic.wgs84.inverse(latitude1: v[0], longitude1: v[1], latitude2: v[2], longitude2: v[3]).distance
            worst = max(worst, Swift.abs(d - v[4]))
            worstRelative = max(worstRelative, Swift.abs(d - v[4]) / max(v[4], 1e-3))
            count += 1
            expectLessOrEqual(Swift.abs(d - v[4]), 3e-9, "pair \(line): \(d)")
            expectLessOrEqual(Swift.abs(d - karney), 3e-9, "pair \(line): \(d) vs Karney \(karney)")
        }
        expectEqual(count, 4000)
        print("Geodesic short lines vs geographiclib: \(count) pairs, worst \(worst) m, worst relative \(worstRelative)")
    }

    /// The series sine and cosine the short-line path uses agree with libm to an ulp or two
    /// over their whole range (|x| <= 1e-3 rad).
    @Test func smallSinCosMatchesLibm() {
        var x = -1e-3
        while x <= 1e-3 {
            let (s, c) = Geodesic.smallSinCos(x)
            expectLessOrEqual(Swift.abs(s - sin(x)), 2 * sin(Swift.abs(x)).ulp, "sin \(x)")
            expectLessOrEqual(Swift.abs(c - cos(x)), 2 * cos(x).ulp, "cos \(x)")
            x += 1.37e-6
        }
    }

    /// The short-line path is taken exactly where documented: a pair 0.1 degree apart or a
    /// pole-side pair goes to Karney's solution (the same number as `inverse`).
    @Test func shortLineBoundary() {
        let g = Geodesic.wgs84
        let far = g.distance(latitude1: 10, longitude1: 20, latitude2: 10.1001, longitude2: 20)
        expectEqual(far, g.inverse(latitude1: 10, longitude1: 20, latitude2: 10.1001, longitude2: 20).distance)
        let polar = g.distance(latitude1: 89.6, longitude1: 0, latitude2: 89.6, longitude2: 0.01)
        expectEqual(polar, g.inverse(latitude1: 89.6, longitude1: 0, latitude2: 89.6, longitude2: 0.01).distance)
        let near = g.distance(latitude1: 10, longitude1: 20, latitude2: 10.0999, longitude2: 20)
        expectLess(Swift.abs(near - g.inverse(latitude1: 10, longitude1: 20, latitude2: 10.0999, longitude2: 20).distance), 3e-9)
        expectEqual(g.distance(latitude1: 10, longitude1: 20, latitude2: 10, longitude2: 20), 0)
        #expect(g.distance(latitude1: .nan, longitude1: 20, latitude2: 10, longitude2: 20).isNaN)
        #expect(g.distance(latitude1: 91, longitude1: 20, latitude2: 91, longitude2: 20).isNaN)
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
    @Test(.requires(.sharedData)) func gpxTrackLengthsMatchGpxstats() throws {
        let files = SharedData.files(in: "data/gpx", ext: "gpx")
        try #require(!files.isEmpty, "no GPX files in ../shared/data/gpx")
        // One gpxstats for every file: a list of one object per file, in the order given.
        let run = try SharedData.run(["python3", SharedData.url("tools/gpxstats.py").path, "--json"] + files.map(\.path))
        try #require(run.status == 0, "gpxstats failed: \(run.stderr)")
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        try #require(stats.count == files.count, "gpxstats: \(stats.count) results for \(files.count) files")
        for (file, json) in zip(files, stats) {
            let segments = try TrackFileExtractor.segments(of: file)
            let ours = Self.rawLength(segments)
            let ref = try #require(json["length_geodesic_wgs84_m"] as? Double, "\(file.lastPathComponent)")
            let refPoints = json["points"] as? Int
            expectEqual(refPoints, segments.reduce(0) { $0 + $1.count }, "\(file.lastPathComponent): point count")
            let rel = Swift.abs(ours - ref) / ref
            print("length \(file.lastPathComponent): ours \(ours) m, gpxstats \(ref) m, relative error \(rel)")
            expectLess(rel, 1e-6, "\(file.lastPathComponent): \(ours) vs \(ref)")
        }
    }

    /// Every TCX track in ../shared/data/tcx (gpxstats cannot read TCX): the reference is
    /// geographiclib summed over the same points, fed to python on stdin, one segment per <Track>.
    @Test(.requires(.sharedData)) func tcxTrackLengthsMatchGeographicLib() throws {
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
            expectLess(rel, 1e-6, "\(file.lastPathComponent): \(ours) vs \(ref)")
        }
    }
}
