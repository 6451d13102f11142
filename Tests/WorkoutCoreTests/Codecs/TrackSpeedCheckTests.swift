import Foundation
import Testing
@testable import WorkoutCore

/// The import's speed warning takes a shortcut (`SpeedBounds`) when cheap bounds prove the
/// median moving speed is within the activity's limit: the bounds must hold against Karney's
/// geodesic, and the warning must be exactly the one the step-by-step check gives.
struct TrackSpeedCheckTests {
    /// The bounds enclose the geodesic, anywhere on the earth (poles, the antimeridian, the
    /// equator where the ellipsoid curves most) and for hops from millimetres to ~1,000 km.
    @Test func boundsEncloseTheGeodesic() {
        var rng = SeededRandom(seed: 16)
        func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(rng.next() >> 11) / Double(1 << 53) }
        for k in 0..<40_000 {
            let lat1 = k % 10 == 0 ? uniform(-90, 90) : (k % 10 == 1 ? uniform(85, 90) : (k % 10 == 2 ? uniform(-1, 1) : uniform(-80, 80)))
            let lon1 = k % 7 == 0 ? uniform(179, 180) : uniform(-180, 180)
            let scale = [1e-8, 1e-5, 1e-3, 0.1, 0.9, 9][k % 6]  // degrees
            let lat2 = min(90, max(-90, lat1 + uniform(-scale, scale)))
            var lon2 = lon1 + uniform(-scale, scale)
            if lon2 > 180 { lon2 -= 360 }
            let geodesic = Geodesic.wgs84.distance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            #expect(SpeedBounds.lower(lat1, lat2) <= geodesic, "lower bound \(lat1),\(lon1) -> \(lat2),\(lon2)")
            #expect(geodesic <= SpeedBounds.upper(lat1, lon1, lat2, lon2), "upper bound \(lat1),\(lon1) -> \(lat2),\(lon2)")
            if scale <= 1e-3, abs(lat1) < 60 {  // tight where people train: within 5 %
                #expect(SpeedBounds.upper(lat1, lon1, lat2, lon2) <= geodesic * 1.05 + 1e-5, "upper bound loose")
            }
        }
    }

    /// Synthetic tracks whose median sits on, just below and just above each GPS activity's
    /// limit (and near the 0.5 m/s moving threshold), with pauses, bad fixes and segment
    /// changes: the shortcut's warning equals the full check's, and both kinds occur.
    @Test func shortcutGivesTheFullChecksWarning() {
        var rng = SeededRandom(seed: 7)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        var warned = 0, quiet = 0
        for activity in ActivityType.allCases where activity.supportsGPS {
            let limit = activity.maxPlausibleSpeed
            for center in [limit * 0.5, limit * 0.999, limit, limit * 1.001, limit * 1.5, 0.5, 0.5001, 0.4999] {
                for n in [5, 12, 40, 41] {
                    var fixes: [Fix] = []
                    var segments: [Int] = []
                    var t = 1_700_000_000.0, lat = unit() * 120 - 60, lon = unit() * 360 - 180, seg = 0
                    for i in 0..<n {
                        let dt = [1.0, 1.0, 2.0, 0.5][i % 4]
                        let spread = [0.0, 1e-4, 0.05, 0.3][i % 4]
                        let v = max(0, center * (1 + (unit() * 2 - 1) * spread))
                        let bearing = unit() * 2 * .pi
                        let meters = v * dt
                        lat += meters * cos(bearing) / 111_320
                        lon += meters * sin(bearing) / (111_320 * max(0.1, cos(lat * .pi / 180)))
                        t += dt
                        if i % 17 == 16 { seg += 1 }
                        var f = Fix(time: i % 13 == 12 ? t - 5 : t, latitude: lat, longitude: lon, mode: i % 11 == 10 ? .noFix : .threeD)
                        if i % 19 == 18 { f.horizontalAccuracy = 500 }
                        fixes.append(f)
                        segments.append(seg)
                    }
                    let full = TrackSpeedCheck(fixes: fixes, segments: segments).warning(activity: activity, distance: 1234)
                    let fast = TrackSpeedCheck.warning(fixes: fixes, segments: segments, activity: activity, distance: 1234)
                    #expect(fast == full, "\(activity) around \(center) m/s, \(n) fixes")
                    if full == nil { quiet += 1 } else { warned += 1 }
                }
            }
        }
        #expect(warned > 20 && quiet > 20)
    }

    /// Every shared track, as every GPS activity: the same warning (or none) both ways.
    @Test(.enabled(if: SharedData.usable, "needs ../shared/data"))
    func sharedTracksGiveTheSameWarningBothWays() throws {
        var files = SharedData.files(in: "data/gpx", ext: "gpx") + SharedData.files(in: "data/tcx", ext: "tcx") + SharedData.files(in: "data/fit", ext: "fit")
        files += SharedData.files(in: "data/nmea", ext: "nmea")
        var checked = 0, shortcut = 0
        for url in files {
            guard let tracks = try? Importer.readAll(try SharedData.bytes(url), fileName: url.lastPathComponent) else { continue }
            for track in tracks where !track.fixes.isEmpty {
                for activity in ActivityType.allCases where activity.supportsGPS {
                    let full = TrackSpeedCheck(fixes: track.fixes, segments: track.segments).warning(activity: activity, distance: 1)
                    let fast = TrackSpeedCheck.warning(fixes: track.fixes, segments: track.segments, activity: activity, distance: 1)
                    #expect(fast == full, "\(url.lastPathComponent) as \(activity)")
                    checked += 1
                    if SpeedBounds.medianCannotExceed(activity.maxPlausibleSpeed, fixes: track.fixes, segments: track.segments) { shortcut += 1 }
                }
            }
        }
        #expect(checked > 100)
        #expect(shortcut * 10 > checked * 8, "the shortcut decided \(shortcut) of \(checked)")  // most tracks need no exact pass
    }
}
