import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// `WorkoutFile.savedForm(w)` must be exactly `decode(encode(w))`: every double bit for bit
/// (the sign of zero included), every other field equal, and the same bytes in every export
/// format. The daemon answers an export right after an import from it (`RecentWorkout`).
struct WorkoutFileSavedFormTests {
    static func bits(_ v: Double?) -> UInt64? { v?.bitPattern }

    static func expectSame(_ a: Workout, _ b: Workout, _ what: String, formats: [ExportFormat] = ExportFormat.allCases) {
        expectEqual(a.summary, b.summary, "\(what): summary")
        expectEqual(a.events, b.events, "\(what): events")
        expectEqual(a.source, b.source, "\(what): source")
        expectEqual(a.heartRate.samples.map { $0.time.bitPattern }, b.heartRate.samples.map { $0.time.bitPattern }, "\(what): heart-rate times")
        expectEqual(a.heartRate, b.heartRate, "\(what): heart rate")
        expectEqual(a.points.count, b.points.count, "\(what): point count")
        var differing = 0
        for (p, q) in zip(a.points, b.points) {
            let x = p.fix, y = q.fix
            let same = x.time.bitPattern == y.time.bitPattern && x.latitude.bitPattern == y.latitude.bitPattern
                && x.longitude.bitPattern == y.longitude.bitPattern && bits(x.altitude) == bits(y.altitude) && bits(x.speed) == bits(y.speed)
                && bits(x.course) == bits(y.course) && bits(x.hdop) == bits(y.hdop) && bits(x.horizontalAccuracy) == bits(y.horizontalAccuracy)
                && x == y && p == q
            if !same { differing += 1; if differing < 4 { Issue.record("\(what): \(p) != \(q)") } }
        }
        expectEqual(differing, 0, "\(what): \(differing) points differ")
        for format in formats where Exporter.refusal(b, format) == nil {
            expectEqual(Exporter.bytes(a, format), Exporter.bytes(b, format), "\(what): \(format) export")
        }
    }

    /// Random values of every kind the writer meets: negative, tiny, rounding to zero, ties,
    /// huge, not finite, absent; heart rate with gaps and RR intervals.
    @Test func randomWorkoutsReadBackAsTheirSavedForm() throws {
        var rng = SeededRandom(seed: 2026)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        func value() -> Double {
            switch rng.next() % 12 {
            case 0: return -0.0
            case 1: return (unit() - 0.5) * 1e-9
            case 2: return Double(Int(unit() * 2_000_000) - 1_000_000) / 2000 + 0.0005  // near ties
            case 3: return .nan
            case 4: return -.infinity
            case 5: return (unit() - 0.5) * 1e22
            case 6: return Double(Int(unit() * 1000)) / 1000
            default: return (unit() - 0.5) * 400
            }
        }
        func optional() -> Double? { rng.next() % 5 == 0 ? nil : value() }
        for k in 0..<40 {
            var s = WorkoutSummary(id: WorkoutID(start: 1_700_000_000 + Double(k) * 3600.25, suffix: UInt16(k)), activity: .running,
                                   startedAt: 1_700_000_000 + Double(k) * 3600.25)
            s.distanceMeters = unit() * 42_195.123456
            var points: [TrackPoint] = []
            for i in 0..<500 {
                var f = Fix(time: i % 50 == 7 ? value() : 1_700_000_000 + Double(i) * 0.1 + unit() * 1e-4,
                            latitude: i % 40 == 3 ? value() : unit() * 180 - 90, longitude: i % 40 == 5 ? value() : unit() * 360 - 180,
                            altitude: optional(), speed: optional(), course: optional(), mode: FixMode.allCases[i % FixMode.allCases.count])
                f.hdop = optional(); f.horizontalAccuracy = optional()
                f.satellites = i % 3 == 0 ? nil : i % 20
                f.heartRate = i % 4 == 0 ? nil : 60 + i % 100
                f.cadence = i % 5 == 0 ? nil : i % 90
                if i % 7 == 0 { f.power = i % 400 }
                if i % 11 == 0 { f.temperature = i % 40 - 10 }
                if i % 13 == 0 { f.quality = FixQuality.allCases[i % FixQuality.allCases.count] }
                points.append(TrackPoint(fix: f, rejection: i % 9 == 0 ? RejectionReason.allCases[i % RejectionReason.allCases.count] : nil, segment: i / 100))
            }
            var hr = HeartRateSeries()
            if k % 2 == 0 {
                for i in 0..<300 { hr.samples.append(HeartRateSample(time: i % 60 == 1 ? value() : 1_700_000_000 + Double(i) * 0.999_7, bpm: i % 17 == 0 ? nil : 90 + i % 80)) }
                for i in 0..<100 { hr.rrIntervals.append(RRInterval(time: 1_700_000_000 + Double(i) * 0.7771, interval1024: UInt16(600 + i))) }
            } else if k % 3 == 0 {
                hr.rrIntervals = [RRInterval(time: 1, interval1024: 700)]  // RR without samples: not written
            }
            let events = [WorkoutEvent(kind: .pause, time: 1_700_000_010.123_4, cause: .manual, text: nil)]
            let w = Workout(summary: s, points: points, events: events, source: "imported:x \"y\".gpx", heartRate: hr)
            let read = try WorkoutFile.decode(WorkoutFile.encode(w))
            // Not FIT: its writer cannot hold the absurd times drawn here (1e22 s); the shared tracks cover FIT.
            Self.expectSame(WorkoutFile.savedForm(w), read, "random workout \(k)", formats: [.gpx, .tcx, .json])
        }
    }

    /// Every shared track, imported as the daemon imports it.
    @Test(.requires(.sharedData))
    func importedSharedTracksReadBackAsTheirSavedForm() throws {
        var files = SharedData.files(in: "data/gpx", ext: "gpx") + SharedData.files(in: "data/tcx", ext: "tcx") + SharedData.files(in: "data/fit", ext: "fit")
        files += SharedData.files(in: "data/nmea", ext: "log")
        var checked = 0
        for url in files {
            guard let tracks = try? Importer.readAll(try SharedData.bytes(url), fileName: url.lastPathComponent) else { continue }
            for (k, track) in tracks.enumerated() {
                guard let w = try? Importer.workout(from: track, activity: nil, id: UInt16(k), settings: MetricsSettings(), source: "imported:" + url.lastPathComponent) else { continue }
                Self.expectSame(WorkoutFile.savedForm(w), try WorkoutFile.decode(WorkoutFile.encode(w)), url.lastPathComponent)
                checked += 1
            }
        }
        expectGreater(checked, 15)
    }
}
