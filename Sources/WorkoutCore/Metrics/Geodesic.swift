#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The result of an inverse geodesic problem: the shortest path between two points on the
/// ellipsoid.
public struct GeodesicInverse: Sendable, Equatable {
    /// Length of the geodesic in metres.
    public var distance: Double
    /// Forward azimuth at the first point, degrees clockwise from north, in [-180, 180].
    public var initialAzimuth: Double
    /// Forward azimuth at the second point, degrees clockwise from north, in [-180, 180].
    public var finalAzimuth: Double
}

/// Geodesics on an ellipsoid of revolution, by Karney's algorithm (C. F. F. Karney,
/// "Algorithms for geodesics", J. Geodesy 87, 43-55, 2013): a line-by-line transcription of
/// GeographicLib's `Geodesic.Inverse` (Python package geographiclib 2.x, series order 6),
/// restricted to what distance and azimuth need. Accurate to about 15 nm anywhere on WGS84,
/// including nearly antipodal points (no convergence failure, unlike Vincenty's method).
///
/// Pure and allocation-light; `Geodesic.wgs84` is the one instance the metrics use.
public struct Geodesic: Sendable {
    /// Equatorial radius in metres.
    public let a: Double
    /// Flattening.
    public let f: Double
    private let f1: Double
    private let e2: Double
    private let ep2: Double
    private let n: Double
    private let b: Double
    private let etol2: Double
    private let a3x: [Double]
    private let c3x: [Double]

    /// The WGS84 ellipsoid (a = 6378137 m, f = 1/298.257223563), as GPS reports positions.
    public static let wgs84 = Geodesic(a: 6378137, f: 1 / 298.257223563)

    private static let order = 6
    private static let nC3x = (order * (order - 1)) / 2
    private static let maxit1 = 20
    private static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10
    private static let tiny = Double.leastNormalMagnitude.squareRoot()
    private static let tol0 = Double.ulpOfOne
    private static let tol1 = 200 * tol0
    private static let tol2 = tol0.squareRoot()
    private static let tolb = tol0
    private static let xthresh = 1000 * tol2

    /// An ellipsoid with equatorial radius `a` (m) and flattening `f`.
    public init(a: Double, f: Double) {
        self.a = a
        self.f = f
        f1 = 1 - f
        e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        n = f / (2 - f)
        b = a * f1
        etol2 = 0.1 * Geodesic.tol2 / (max(0.001, Swift.abs(f)) * min(1.0, 1 - f / 2) / 2).squareRoot()
        // A3 coefficients
        let a3coeff: [Double] = [-3, 128, -2, -3, 64, -1, -3, -1, 16, 3, -1, -2, 8, 1, -1, 2, 1, 1]
        var a3 = [Double](repeating: 0, count: Geodesic.order)
        var o = 0, k = 0
        for j in stride(from: Geodesic.order - 1, through: 0, by: -1) {
            let m = min(Geodesic.order - j - 1, j)
            a3[k] = Geodesic.polyval(m, a3coeff, o, n) / a3coeff[o + m + 1]
            k += 1; o += m + 2
        }
        a3x = a3
        let c3coeff: [Double] = [
            3, 128, 2, 5, 128, -1, 3, 3, 64, -1, 0, 1, 8, -1, 1, 4,
            5, 256, 1, 3, 128, -3, -2, 3, 64, 1, -3, 2, 32,
            7, 512, -10, 9, 384, 5, -9, 5, 192,
            7, 512, -14, 7, 512,
            21, 2560,
        ]
        var c3 = [Double](repeating: 0, count: Geodesic.nC3x)
        o = 0; k = 0
        for l in 1..<Geodesic.order {
            for j in stride(from: Geodesic.order - 1, through: l, by: -1) {
                let m = min(Geodesic.order - j - 1, j)
                c3[k] = Geodesic.polyval(m, c3coeff, o, n) / c3coeff[o + m + 1]
                k += 1; o += m + 2
            }
        }
        c3x = c3
    }

    /// Geodesic distance in metres between two points given in degrees.
    ///
    /// Points less than `shortLineDegrees` apart in latitude and longitude (about 11 km; every
    /// pair of consecutive fixes) take `shortLineDistance`, a few trigonometric calls instead of
    /// Karney's series and Newton steps; it agrees with them to a few nanometres (GeodesicTests).
    /// Everything else, and anything within half a degree of a pole, is solved by Karney's method.
    public func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        var dlon = longitude2 - longitude1
        if Swift.abs(dlon) > 180 {
            // Across the antimeridian: keep the subtraction's rounding error (it is of the
            // order of a nanometre at 360 degrees) and add it back after the wrap.
            let (d, t) = Geodesic.sum(longitude2, -longitude1)
            dlon = (d > 0 ? d - 360 : d + 360) + t
        }
        if Swift.abs(latitude2 - latitude1) < Geodesic.shortLineDegrees, Swift.abs(dlon) < Geodesic.shortLineDegrees,
           Swift.abs(latitude1) < 89.5, Swift.abs(latitude2) < 89.5 {
            return shortLineDistance(latitude1: latitude1, latitude2: latitude2, longitudeDifference: dlon)
        }
        return solve(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2, azimuths: false).distance
    }

    /// sin and cos of an angle under 1e-3 rad (half of `shortLineDegrees`) by their Taylor
    /// series, nested: the first omitted terms (x^9/9!, x^10/10!) are below 1e-30.
    @inline(__always)
    static func smallSinCos(_ x: Double) -> (sin: Double, cos: Double) {
        let x2 = x * x
        let s = x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72))))
        let c = 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56)))
        return (s, c)
    }

    /// Largest latitude or longitude difference (degrees) `distance` measures as a short line.
    public static let shortLineDegrees = 0.1

    /// Length of a short geodesic from its chord. The chord between the two points on the
    /// ellipsoid is computed from differences only (half-angle identities, no subtraction of two
    /// Earth-sized coordinates, so a 1 m step keeps its full precision). A short geodesic is,
    /// to within terms of order c^5 * kappa^4 * e^2 (far below a nanometre at 11 km), an arc of a
    /// circle whose curvature is the normal curvature kappa of the ellipsoid in the line's
    /// direction at its midpoint (Euler: cos^2(alpha)/M + sin^2(alpha)/N), so the length is
    /// 2R asin(c / 2R) with R = 1/kappa, taken as its series in x = c * kappa / 2 (x < 1e-3).
    func shortLineDistance(latitude1: Double, latitude2: Double, longitudeDifference dlon: Double) -> Double {
        let rad = Double.pi / 180
        let h = (latitude2 - latitude1) * (rad / 2)           // half the latitude difference
        let phim = (latitude1 + latitude2) * (rad / 2)         // mid latitude
        let (sh, ch) = Geodesic.smallSinCos(h)
        let sm = sin(phim), cm = cos(phim)
        let (sl, cl) = Geodesic.smallSinCos(dlon * (rad / 2))
        let s1 = sm * ch - cm * sh, c1 = cm * ch + sm * sh     // latitude 1
        let s2 = sm * ch + cm * sh, c2 = cm * ch - sm * sh     // latitude 2
        let dsin = 2 * cm * sh                                 // sin(phi2) - sin(phi1)
        let dcos = -2 * sm * sh                                // cos(phi2) - cos(phi1)
        let w1 = (1 - e2 * s1 * s1).squareRoot(), w2 = (1 - e2 * s2 * s2).squareRoot()
        let dInvW = e2 * dsin * (s1 + s2) / (w1 * w2 * (w1 + w2))   // 1/w2 - 1/w1
        let a2 = a * c2 / w2                                   // radius of the parallel at point 2
        let dA = a * (dcos / w2 + c1 * dInvW)                  // its change from point 1
        // Chord in the frame of point 1's meridian (x outwards, y east, z north).
        let dx = dA - 2 * a2 * sl * sl
        let dy = 2 * a2 * sl * cl
        let dz = a * (1 - e2) * (dsin / w2 + s1 * dInvW)
        let c = (dx * dx + dy * dy + dz * dz).squareRoot()
        // Direction at the midpoint: east and north components of the chord there.
        let east = -sl * dx + cl * dy
        let north = -sm * (cl * dx + sl * dy) + cm * dz
        let wm2 = 1 - e2 * sm * sm
        let wm = wm2.squareRoot()
        let horizontal = north * north + east * east
        guard horizontal > 0 else { return c }
        let kappa = (north * north * wm * wm2 / (a * (1 - e2)) + east * east * wm / a) / horizontal
        let x = c * kappa / 2
        let x2 = x * x
        return c * (1 + x2 * (1.0 / 6 + x2 * (3.0 / 40)))
    }

    /// Solves the inverse problem: distance and azimuths between two points (degrees).
    /// Latitudes outside [-90, 90] give NaN, as in GeographicLib.
    public func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> GeodesicInverse {
        solve(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2, azimuths: true)
    }

    /// `inverse`; without `azimuths` the two final `atan2`s are skipped (the metrics only need
    /// the distance, which is the same either way).
    @inline(__always)
    private func solve(latitude1 lat1In: Double, longitude1 lon1: Double, latitude2 lat2In: Double, longitude2 lon2: Double,
                       azimuths: Bool) -> GeodesicInverse {
        typealias M = Geodesic
        var (lon12, lon12s) = M.angDiff(lon1, lon2)
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 = lonsign * lon12; lon12s = lonsign * lon12s
        let lam12 = lon12 * .pi / 180
        let (slam12, clam12) = M.sincosde(lon12, lon12s)
        lon12s = (180 - lon12) - lon12s
        var lat1 = M.angRound(M.latFix(lat1In))
        var lat2 = M.angRound(M.latFix(lat2In))
        let swapp: Double = (Swift.abs(lat1) < Swift.abs(lat2) || lat2.isNaN) ? -1 : 1
        if swapp < 0 {
            lonsign *= -1
            swap(&lat1, &lat2)
        }
        let latsign: Double = (-lat1).sign == .minus ? -1 : 1
        lat1 *= latsign
        lat2 *= latsign

        var (sbet1, cbet1) = M.sincosd(lat1); sbet1 *= f1
        (sbet1, cbet1) = M.norm(sbet1, cbet1); cbet1 = max(M.tiny, cbet1)
        var (sbet2, cbet2) = M.sincosd(lat2); sbet2 *= f1
        (sbet2, cbet2) = M.norm(sbet2, cbet2); cbet2 = max(M.tiny, cbet2)
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2.sign == .minus ? -Swift.abs(sbet1) : Swift.abs(sbet1) }
        } else {
            if Swift.abs(sbet2) == -sbet1 { cbet2 = cbet1 }
        }
        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0
        var s12x = 0.0, m12x = 0.0, sig12 = 0.0
        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            calp1 = clam12; salp1 = slam12
            calp2 = 1; salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            sig12 = atan2(max(0.0, csig1 * ssig2 - ssig1 * csig2) + 0.0, csig1 * csig2 + ssig1 * ssig2)
            let l = lengths(eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2, dn2: dn2, reduced: true)
            s12x = l.s12b; m12x = l.m12b
            if sig12 < M.tol2 || m12x >= 0 {
                if sig12 < 3 * M.tiny || (sig12 < M.tol0 && (s12x < 0 || m12x < 0)) {
                    sig12 = 0; m12x = 0; s12x = 0
                }
                m12x *= b
                s12x *= b
            } else {
                meridian = false
            }
        }
        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            calp1 = 0; calp2 = 0; salp1 = 1; salp2 = 1
            s12x = a * lam12
        } else if !meridian {
            let start = inverseStart(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                     lam12: lam12, slam12: slam12, clam12: clam12)
            sig12 = start.sig12; salp1 = start.salp1; calp1 = start.calp1
            salp2 = start.salp2; calp2 = start.calp2
            if sig12 >= 0 {
                s12x = sig12 * b * start.dnm
            } else {
                var numit = 0
                var tripn = false, tripb = false
                var salp1a = M.tiny, calp1a = 1.0
                var salp1b = M.tiny, calp1b = -1.0
                var r = Lambda12Result()
                while true {
                    r = lambda12(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                 salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12, diffp: numit < M.maxit1)
                    let v = r.lam12
                    salp2 = r.salp2; calp2 = r.calp2
                    if tripb || !(Swift.abs(v) >= (tripn ? 8 : 1) * M.tol0) || numit == M.maxit2 { break }
                    if v > 0 && (numit > M.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1; calp1b = calp1
                    } else if v < 0 && (numit > M.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1; calp1a = calp1
                    }
                    numit += 1
                    if numit < M.maxit1 && r.dlam12 > 0 {
                        let dalp1 = -v / r.dlam12
                        if Swift.abs(dalp1) < .pi {
                            let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                            let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                            if nsalp1 > 0 {
                                calp1 = calp1 * cdalp1 - salp1 * sdalp1
                                salp1 = nsalp1
                                (salp1, calp1) = M.norm(salp1, calp1)
                                tripn = Swift.abs(v) <= 16 * M.tol0
                                continue
                            }
                        }
                    }
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    (salp1, calp1) = M.norm(salp1, calp1)
                    tripn = false
                    tripb = Swift.abs(salp1a - salp1) + (calp1a - calp1) < M.tolb
                        || Swift.abs(salp1 - salp1b) + (calp1 - calp1b) < M.tolb
                }
                sig12 = r.sig12
                let l = lengths(eps: r.eps, sig12: sig12, ssig1: r.ssig1, csig1: r.csig1, dn1: dn1,
                                ssig2: r.ssig2, csig2: r.csig2, dn2: dn2, reduced: false)
                s12x = l.s12b * b
            }
        }
        let s12 = 0.0 + s12x
        guard azimuths else { return GeodesicInverse(distance: s12, initialAzimuth: .nan, finalAzimuth: .nan) }
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign; calp1 *= swapp * latsign
        salp2 *= swapp * lonsign; calp2 *= swapp * latsign
        return GeodesicInverse(distance: s12, initialAzimuth: M.atan2d(salp1, calp1), finalAzimuth: M.atan2d(salp2, calp2))
    }

    // MARK: - Internals (names follow GeographicLib)

    /// Series coefficients (index 0 unused), inline: no heap allocation per geodesic (the
    /// metrics solve one per pair of fixes).
    private typealias Series = InlineArray<7, Double>

    private struct Lambda12Result {
        var lam12 = 0.0, salp2 = 0.0, calp2 = 0.0, sig12 = 0.0
        var ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0
        var eps = 0.0, dlam12 = Double.nan
    }

    private func lambda12(sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
                          salp1: Double, calp1 calp1In: Double, slam120: Double, clam120: Double, diffp: Bool) -> Lambda12Result {
        typealias M = Geodesic
        var calp1 = calp1In
        if sbet1 == 0 && calp1 == 0 { calp1 = -M.tiny }
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = calp1 * cbet1
        let comg1 = csig1
        (ssig1, csig1) = M.norm(ssig1, csig1)
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2: Double
        if cbet2 != cbet1 || Swift.abs(sbet2) != -sbet1 {
            let t = cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            calp2 = ((calp1 * cbet1) * (calp1 * cbet1) + t).squareRoot() / cbet2
        } else {
            calp2 = Swift.abs(calp1)
        }
        var ssig2 = sbet2
        let somg2 = salp0 * sbet2
        var csig2 = calp2 * cbet2
        let comg2 = csig2
        (ssig2, csig2) = M.norm(ssig2, csig2)
        let sig12 = atan2(max(0.0, csig1 * ssig2 - ssig1 * csig2) + 0.0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0.0, comg1 * somg2 - somg1 * comg2) + 0.0
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3a = c3f(eps)
        let b312 = M.sinCosSeries(true, ssig2, csig2, c3a, count: M.order) - M.sinCosSeries(true, ssig1, csig1, c3a, count: M.order)
        let domg12 = -f * a3f(eps) * salp0 * (sig12 + b312)
        var r = Lambda12Result()
        r.lam12 = eta + domg12
        r.salp2 = salp2; r.calp2 = calp2; r.sig12 = sig12
        r.ssig1 = ssig1; r.csig1 = csig1; r.ssig2 = ssig2; r.csig2 = csig2; r.eps = eps
        if diffp {
            if calp2 == 0 {
                r.dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                let l = lengths(eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                                ssig2: ssig2, csig2: csig2, dn2: dn2, reduced: true, distance: false)
                r.dlam12 = l.m12b * f1 / (calp2 * cbet2)
            }
        }
        return r
    }

    private struct InverseStartResult {
        var sig12 = -1.0, salp1 = 0.0, calp1 = 0.0, salp2 = Double.nan, calp2 = Double.nan, dnm = Double.nan
    }

    private func inverseStart(sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
                              lam12: Double, slam12: Double, clam12: Double) -> InverseStartResult {
        typealias M = Geodesic
        var r = InverseStartResult()
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        var sbet12a = sbet2 * cbet1
        sbet12a += cbet2 * sbet1
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        if shortline {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            r.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * r.dnm)
            somg12 = sin(omg12); comg12 = cos(omg12)
        } else {
            somg12 = slam12; comg12 = clam12
        }
        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12
        if shortline && ssig12 < etol2 {
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            (salp2, calp2) = M.norm(salp2, calp2)
            r.salp2 = salp2; r.calp2 = calp2
            r.sig12 = atan2(ssig12, csig12)
        } else if Swift.abs(n) >= 0.1 || csig12 >= 0 || ssig12 >= 6 * Swift.abs(n) * .pi * cbet1 * cbet1 {
            // nothing: the first guess is good enough for Newton
        } else {
            // f >= 0 branch only (WGS84 and every oblate ellipsoid)
            let lam12x = atan2(-slam12, -clam12)
            let k2 = sbet1 * sbet1 * ep2
            let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
            let lamscale = f * cbet1 * a3f(eps) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -M.tol1 && x > -1 - M.xthresh {
                salp1 = min(1.0, -x); calp1 = -(1 - salp1 * salp1).squareRoot()
            } else {
                let k = M.astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a); comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        if !(salp1 <= 0) {
            (salp1, calp1) = M.norm(salp1, calp1)
        } else {
            salp1 = 1; calp1 = 0
        }
        r.salp1 = salp1; r.calp1 = calp1
        return r
    }

    private func lengths(eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
                         ssig2: Double, csig2: Double, dn2: Double, reduced: Bool, distance: Bool = true) -> (s12b: Double, m12b: Double) {
        typealias M = Geodesic
        var a1 = M.a1m1f(eps)
        let c1a = M.c1f(eps)
        var s12b = Double.nan, m12b = Double.nan
        var a2 = 0.0, m0x = 0.0
        var c2a = Series(repeating: 0)
        if reduced {
            a2 = M.a2m1f(eps)
            c2a = M.c2f(eps)
            m0x = a1 - a2
            a2 = 1 + a2
        }
        a1 = 1 + a1
        var j12 = 0.0
        if distance {
            let b1 = M.sinCosSeries(true, ssig2, csig2, c1a, count: M.order + 1) - M.sinCosSeries(true, ssig1, csig1, c1a, count: M.order + 1)
            s12b = a1 * (sig12 + b1)
            if reduced {
                let b2 = M.sinCosSeries(true, ssig2, csig2, c2a, count: M.order + 1) - M.sinCosSeries(true, ssig1, csig1, c2a, count: M.order + 1)
                j12 = m0x * sig12 + (a1 * b1 - a2 * b2)
            }
        } else if reduced {
            for l in 1..<M.order { c2a[l] = a1 * c1a[l] - a2 * c2a[l] }
            j12 = m0x * sig12 + (M.sinCosSeries(true, ssig2, csig2, c2a, count: M.order + 1) - M.sinCosSeries(true, ssig1, csig1, c2a, count: M.order + 1))
        }
        if reduced {
            m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        }
        return (s12b, m12b)
    }

    private func a3f(_ eps: Double) -> Double { Geodesic.polyval(Geodesic.order - 1, a3x, 0, eps) }

    private func c3f(_ eps: Double) -> Series {
        var c = Series(repeating: 0)
        var mult = 1.0
        var o = 0
        for l in 1..<Geodesic.order {
            let m = Geodesic.order - l - 1
            mult *= eps
            c[l] = mult * Geodesic.polyval(m, c3x, o, eps)
            o += m + 1
        }
        return c
    }

    private static func a1m1f(_ eps: Double) -> Double {
        let m = order / 2
        let t = polyval(m, a1coeff, 0, eps * eps) / a1coeff[m + 1]
        return (t + eps) / (1 - eps)
    }

    private static func a2m1f(_ eps: Double) -> Double {
        let m = order / 2
        let t = polyval(m, a2coeff, 0, eps * eps) / a2coeff[m + 1]
        return (t - eps) / (1 + eps)
    }

    private static let a1coeff: [Double] = [1, 4, 64, 0, 256]
    private static let a2coeff: [Double] = [-11, -28, -192, 0, 256]
    private static let c1coeff: [Double] = [-1, 6, -16, 32, -9, 64, -128, 2048, 9, -16, 768, 3, -5, 512, -7, 1280, -7, 2048]
    private static let c2coeff: [Double] = [1, 2, 16, 32, 35, 64, 384, 2048, 15, 80, 768, 7, 35, 512, 63, 1280, 77, 2048]

    private static func c1f(_ eps: Double) -> Series { seriesC(eps, c1coeff) }
    private static func c2f(_ eps: Double) -> Series { seriesC(eps, c2coeff) }

    private static func seriesC(_ eps: Double, _ coeff: [Double]) -> Series {
        var c = Series(repeating: 0)
        let eps2 = eps * eps
        var d = eps
        var o = 0
        for l in 1...order {
            let m = (order - l) / 2
            c[l] = d * polyval(m, coeff, o, eps2) / coeff[o + m + 1]
            o += m + 2
            d *= eps
        }
        return c
    }

    /// `count`: the series' length as GeographicLib has it (C3: order, C1 and C2: order + 1).
    private static func sinCosSeries(_ sinp: Bool, _ sinx: Double, _ cosx: Double, _ c: borrowing Series, count: Int) -> Double {
        var k = count
        var n = k - (sinp ? 1 : 0)
        let ar = 2 * (cosx - sinx) * (cosx + sinx)
        var y1 = 0.0
        var y0: Double
        if n & 1 != 0 {
            k -= 1; y0 = c[k]
        } else {
            y0 = 0
        }
        n /= 2
        while n > 0 {
            n -= 1
            k -= 1; y1 = ar * y0 - y1 + c[k]
            k -= 1; y0 = ar * y1 - y0 + c[k]
        }
        return sinp ? 2 * sinx * cosx * y0 : cosx * (y0 - y1)
    }

    private static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        if !(q == 0 && r <= 0) {
            let s = p * q / 4
            let r2 = r * r, r3 = r * r2
            let disc = s * (s + 2 * r3)
            var u = r
            if disc >= 0 {
                var t3 = s + r3
                t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
                let t = cbrt(t3)
                u += t + (t != 0 ? r2 / t : 0)
            } else {
                let ang = atan2((-disc).squareRoot(), -(s + r3))
                u += 2 * r * cos(ang / 3)
            }
            let v = (u * u + q).squareRoot()
            let uv = u < 0 ? q / (v - u) : u + v
            let w = (uv - q) / (2 * v)
            return uv / ((uv + w * w).squareRoot() + w)
        }
        return 0
    }

    private static func polyval(_ nIn: Int, _ p: [Double], _ sIn: Int, _ x: Double) -> Double {
        var n = nIn, s = sIn
        var y = n < 0 ? 0 : p[s]
        while n > 0 {
            n -= 1; s += 1
            y = y * x + p[s]
        }
        return y
    }

    /// Normalises a (sine, cosine) pair. `sqrt(x² + y²)` rather than libm's `hypot` (about 5x
    /// the instructions): the arguments are sines and cosines (|x|, |y| <= 1), so nothing
    /// overflows; `hypot` is kept for the tiny values (`tiny` ~ 1e-154) whose squares underflow.
    /// The result differs from `hypot`'s by an ulp at most.
    @inline(__always)
    private static func norm(_ x: Double, _ y: Double) -> (Double, Double) {
        let s = x * x + y * y
        let r = s >= 1e-200 && s.isFinite ? s.squareRoot() : hypot(x, y)
        return (x / r, y / r)
    }

    private static func sum(_ u: Double, _ v: Double) -> (Double, Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        let t = s == 0 ? s : 0.0 - (up + vpp)
        return (s, t)
    }

    private static func angRound(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = Swift.abs(x)
        if y < z { y = z - (z - y) }
        return x.sign == .minus ? -y : y
    }

    private static func latFix(_ x: Double) -> Double { Swift.abs(x) > 90 ? .nan : x }

    private static func ieeeRemainder(_ x: Double, _ y: Double) -> Double {
        x.isFinite ? remainder(x, y) : .nan
    }

    private static func angDiff(_ x: Double, _ y: Double) -> (Double, Double) {
        var (d, t) = sum(ieeeRemainder(-x, 360), ieeeRemainder(y, 360))
        (d, t) = sum(ieeeRemainder(d, 360), t)
        if d == 0 || Swift.abs(d) == 180 {
            let ref = t == 0 ? y - x : -t
            d = ref.sign == .minus ? -Swift.abs(d) : Swift.abs(d)
        }
        return (d, t)
    }

    private static func quadrant(_ q: Int, _ s: Double, _ c: Double, _ x: Double) -> (Double, Double) {
        var s = s, c = c
        switch ((q % 4) + 4) % 4 {
        case 1: (s, c) = (c, -s)
        case 2: (s, c) = (-s, -c)
        case 3: (s, c) = (-c, s)
        default: break
        }
        c = c + 0.0
        if s == 0 { s = x.sign == .minus ? -Swift.abs(s) : Swift.abs(s) }
        return (s, c)
    }

    private static func sincosd(_ x: Double) -> (Double, Double) {
        var r = x.isFinite ? fmod(x, 360) : .nan
        let q = r.isNaN ? 0 : Int((r / 90).rounded(.toNearestOrEven))
        r -= 90 * Double(q)
        r = r * .pi / 180
        return quadrant(q, sin(r), cos(r), x)
    }

    private static func sincosde(_ x: Double, _ t: Double) -> (Double, Double) {
        let q = x.isFinite ? Int((x / 90).rounded(.toNearestOrEven)) : 0
        var r = x - 90 * Double(q)
        r = angRound(r + t) * .pi / 180
        return quadrant(q, sin(r), cos(r), x)
    }

    private static func atan2d(_ yIn: Double, _ xIn: Double) -> Double {
        var x = xIn, y = yIn
        var q = 0
        if Swift.abs(y) > Swift.abs(x) { q = 2; swap(&x, &y) }
        if x < 0 { q += 1; x = -x }
        var ang = atan2(y, x) * 180 / .pi
        switch q {
        case 1: ang = (y.sign == .minus ? -180.0 : 180.0) - ang
        case 2: ang = 90 - ang
        case 3: ang = -90 + ang
        default: break
        }
        return ang
    }
}
