import Foundation
@testable import WorkoutCore

extension SeededRandom {
    /// Standard normal (Box-Muller).
    mutating func gaussian() -> Double {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let v = Double.random(in: 0..<1, using: &self)
        return (-2 * Foundation.log(u)).squareRoot() * Foundation.cos(2 * .pi * v)
    }
}

/// Builds synthetic fixes by walking on a local tangent plane (metres north/east of an origin).
struct TrackSynth {
    var lat0 = 48.137, lon0 = 11.575

    /// Metres per degree north and east at `lat0` on WGS84 (meridian and prime-vertical radii),
    /// so synthetic distances agree with the geodesic to ~1e-7 over a few km.
    var scale: (north: Double, east: Double) {
        let a = 6378137.0, f = 1 / 298.257223563, e2 = f * (2 - f)
        let phi = lat0 * .pi / 180
        let w = 1 - e2 * Foundation.sin(phi) * Foundation.sin(phi)
        let m = a * (1 - e2) / Foundation.pow(w, 1.5), n = a / w.squareRoot()
        return (m * .pi / 180, n * Foundation.cos(phi) * .pi / 180)
    }

    func position(north: Double, east: Double) -> (Double, Double) {
        let s = scale
        return (lat0 + north / s.north, lon0 + east / s.east)
    }

    func fix(t: Double, north: Double, east: Double, alt: Double? = nil, acc: Double? = 4, hr: Int? = nil) -> Fix {
        let (la, lo) = position(north: north, east: east)
        return Fix(time: t, latitude: la, longitude: lo, altitude: alt, mode: .threeD, horizontalAccuracy: acc, heartRate: hr)
    }

    /// A straight run east at `speed` m/s, one fix per `dt` s, from `start` (time) and `from` (m east).
    func run(start: Double, seconds: Double, speed: Double, dt: Double = 1, from east0: Double = 0, north: Double = 0) -> [Fix] {
        stride(from: 0.0, through: seconds, by: dt).map { s in fix(t: start + s, north: north, east: east0 + speed * s) }
    }
}

extension Array where Element == TrackPoint {
    /// Geodesic length over accepted points, summed inside each segment.
    var acceptedLength: Double {
        var total = 0.0
        var prev: TrackPoint?
        for p in self where p.isAccepted {
            if let q = prev, q.segment == p.segment {
                total += Geodesic.wgs84.distance(latitude1: q.fix.latitude, longitude1: q.fix.longitude, latitude2: p.fix.latitude, longitude2: p.fix.longitude)
            }
            prev = p
        }
        return total
    }
}

let testID = WorkoutID(start: 1_800_000_000, suffix: 0xbeef)
