@testable import WorkoutCore

/// FIT files a device would write, for the cases the shared data lack: a multisport event
/// (legs and transitions), a pool swim (lengths, no positions), records with bad timestamps.
/// Built with our encoder; the tests check each against Garmin's SDK (`FITOracle`).
enum FITTestFiles {
    typealias F = FITEncoder.FieldDefinition
    /// FIT seconds: 2021-09-08T01:46:40Z.
    static let t0: Int64 = 1_000_000_000
    static let semicircles = 2_147_483_648.0 / 180

    /// One leg of a multisport file: `seconds` of 1 Hz records moving north at `speed` m/s
    /// (positions unless `indoor`), each with the device's distance.
    struct Leg {
        var sport: Int64
        var subSport: Int64 = 0
        var seconds: Int
        var speed: Double
        var indoor = false
        var calories: Int64?
    }

    /// file_id, then per leg: records, a lap and a session (as a multisport watch writes them:
    /// records restart their distance at each session), then the activity. Legs follow each
    /// other without a gap.
    static func multisport(_ legs: [Leg]) -> [UInt8] {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration), F(1, .uint16), F(2, .uint16)])
        e.message(local: 0, [4, 1, 2])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(5, .uint32), F(3, .uint8)])
        e.define(local: 2, global: 19, [F(253, .uint32), F(2, .uint32), F(7, .uint32), F(8, .uint32), F(9, .uint32), F(25, .enumeration)])
        e.define(local: 3, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(6, .enumeration), F(7, .uint32),
                                        F(8, .uint32), F(9, .uint32), F(11, .uint16)])
        e.define(local: 4, global: 21, [F(253, .uint32), F(0, .enumeration), F(1, .enumeration)])
        var t = t0
        var lat = 47.0
        e.message(local: 4, [t, 0, 0])
        var sessions: [[Int64?]] = []
        for leg in legs {
            let start = t
            var meters = 0.0
            for k in 0...leg.seconds {
                if k > 0 { meters += leg.speed; lat += leg.speed / 111_195 }
                e.message(local: 1, [start + Int64(k), leg.indoor ? nil : Int64((lat * semicircles).rounded()),
                                     leg.indoor ? nil : Int64((8.5 * semicircles).rounded()), Int64((meters * 100).rounded()), 130])
            }
            let ms = Int64(leg.seconds) * 1000, cm = Int64((meters * 100).rounded())
            e.message(local: 2, [start + Int64(leg.seconds), start, ms, ms, cm, leg.sport])
            sessions.append([start + Int64(leg.seconds), start, leg.sport, leg.subSport, ms, ms, cm, leg.calories])
            t = start + Int64(leg.seconds) + 1
        }
        e.message(local: 4, [t - 1, 0, 4])
        for s in sessions { e.message(local: 3, s) }
        return e.file()
    }

    /// The shared red team's triathlon: 4 legs and 3 transitions (swim, T1, bike, T2, run, T3,
    /// run), the last a 2.2 km run.
    static var triathlon: [UInt8] {
        multisport([Leg(sport: 5, subSport: 18, seconds: 900, speed: 1.2, calories: 250), Leg(sport: 3, seconds: 120, speed: 1.5),
                    Leg(sport: 2, seconds: 1800, speed: 9, calories: 600), Leg(sport: 3, seconds: 60, speed: 1.5),
                    Leg(sport: 1, seconds: 1200, speed: 3.5, calories: 400), Leg(sport: 3, seconds: 60, speed: 1),
                    Leg(sport: 1, seconds: 600, speed: 3.67, calories: 200)])
    }

    /// A pool swim as a watch writes it: no positions, records with heart rate, `length`
    /// messages (`active` of them swum, the others rests), session with the pool's length and
    /// unit (statute: yards), `num_lengths`, the total distance and strokes.
    static func poolSwim(active: Int, rests: Int, poolLengthCm: Int64 = 2286, statute: Bool = true) -> [UInt8] {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration), F(1, .uint16)])
        e.message(local: 0, [4, 1])
        e.define(local: 1, global: 20, [F(253, .uint32), F(3, .uint8)])
        e.define(local: 2, global: 101, [F(253, .uint32), F(254, .uint16), F(2, .uint32), F(3, .uint32), F(4, .uint32), F(5, .uint16),
                                         F(7, .enumeration), F(12, .enumeration)])
        var t = t0
        var strokes: Int64 = 0
        // Active lengths of 20 s (16 strokes, freestyle); every third length a 30 s rest.
        var activeLeft = active, restsLeft = rests
        for k in 0..<(active + rests) {
            if restsLeft > 0 && (k % 3 == 2 || activeLeft == 0) {
                e.message(local: 2, [t + 30, Int64(k), t, 30_000, 30_000, nil, nil, 0])
                t += 30
                restsLeft -= 1
            } else {
                for s in 0..<20 { e.message(local: 1, [t + Int64(s), 120 + Int64(s % 7)]) }
                e.message(local: 2, [t + 20, Int64(k), t, 20_000, 20_000, 16, 0, 1])
                strokes += 16
                t += 20
                activeLeft -= 1
            }
        }
        let k = active + rests
        let ms = (t - t0) * 1000
        e.define(local: 3, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(6, .enumeration), F(7, .uint32),
                                        F(8, .uint32), F(9, .uint32), F(10, .uint32), F(11, .uint16), F(33, .uint16), F(44, .uint16),
                                        F(46, .enumeration), F(47, .uint16)])
        e.message(local: 3, [t, t0, 5, 17, ms, ms, Int64(active) * poolLengthCm, strokes, 420, Int64(k), poolLengthCm, statute ? 1 : 0,
                             Int64(active)])
        return e.file()
    }

    /// `n` one-second records moving north at 3 m/s (positions and distance), a session (or
    /// none), and the timestamps of the records at `stamped` replaced (FIT seconds: 0 is the
    /// FIT epoch).
    static func run(records n: Int, stamped: [Int: Int64] = [:], session: Bool = true) -> [UInt8] {
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration)])
        e.message(local: 0, [4])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(5, .uint32)])
        for k in 0..<n {
            let lat = 47.0 + Double(k) * 3 / 111_195
            e.message(local: 1, [stamped[k] ?? t0 + Int64(k), Int64((lat * semicircles).rounded()), Int64((8.5 * semicircles).rounded()),
                                 Int64(k * 300)])
        }
        guard session else { return e.file() }
        e.define(local: 2, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(7, .uint32), F(8, .uint32), F(9, .uint32)])
        let ms = Int64(n - 1) * 1000
        e.message(local: 2, [t0 + Int64(n - 1), t0, 1, ms, ms, Int64((n - 1) * 300)])
        return e.file()
    }
}
