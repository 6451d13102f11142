import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Title, notes, gear and effort: kept through JSON, edits, recomputation and exports, taken
/// from files that name themselves, and summed per gear in `totals`.
struct WorkoutAnnotationTests {
    static let annotation = WorkoutAnnotation(title: "Hill reps <Tuesday> & more", notes: "windy\nlegs heavy", gear: "Pegasus 40", effort: 8)

    func run(_ id: UInt16 = 7) throws -> Workout {
        let fixes = TrackSynth().run(start: 1_800_000_000, seconds: 300, speed: 3)
        return try Importer.workout(from: Importer.Track(fixes: fixes, activity: .running, origin: .device), activity: nil, id: id,
                                    settings: MetricsSettings(), source: "imported:run.gpx")
    }

    @Test func summaryJSONCarriesTheFieldsAndNullWhenUnset() throws {
        var s = try run().summary
        var o = s.json()
        for key in ["title", "notes", "gear", "effort"] { expectEqual(o[key], .null, "\(key) null when unset") }
        s.annotation = Self.annotation
        o = s.json()
        expectEqual(o["title"]?.stringValue, "Hill reps <Tuesday> & more")
        expectEqual(o["effort"]?.intValue, 8)
        expectEqual(WorkoutSummary(json: o)?.annotation, s.annotation)
        var w = JSONWriter()
        var cache = SummaryJSONCache()
        s.writeJSON(to: &w, cache: &cache)
        expectEqual(String(decoding: w.bytes, as: UTF8.self), o.serialized(), "the byte writer writes the same keys")
    }

    @Test func editSetsClearsAndSurvivesARecompute() throws {
        let w = try run()
        var edited = Importer.edited(w, applying: WorkoutEdit(title: .set("Hill reps"), gear: .set("Pegasus 40"), effort: .set(8)), settings: MetricsSettings())
        expectEqual(edited.summary.annotation, WorkoutAnnotation(title: "Hill reps", gear: "Pegasus 40", effort: 8))
        expectEqual(edited.summary.distanceMeters, w.summary.distanceMeters, "no activity: nothing recomputed")
        edited = Importer.edited(edited, applying: WorkoutEdit(activity: .hiking, gear: .clear), settings: MetricsSettings())
        expectEqual(edited.activity, .hiking)
        expectEqual(edited.summary.annotation, WorkoutAnnotation(title: "Hill reps", effort: 8), "kept through the recompute; gear cleared")
        var settings = MetricsSettings()
        settings.autoPauseDelay = nil
        expectEqual(Recomputation(edited, settings: settings).after.summary.title, "Hill reps")
        expectNotNil(WorkoutEdit(effort: .set(11)).problem)
        expectNotNil(WorkoutEdit(title: .set(String(repeating: "x", count: 201))).problem)
    }

    @Test func recordsOffKeepsTheWorkoutOutOfRecordsAndBests() throws {
        let w = try run()
        expectEqual(w.summary.json()["records"]?.stringValue, "counted")
        let excluded = Importer.edited(w, applying: WorkoutEdit(records: .excluded), settings: MetricsSettings())
        expectEqual(excluded.summary.records, .excluded)
        expectEqual(excluded.summary.bestEfforts, w.summary.bestEfforts, "its own efforts are still listed")
        let o = excluded.summary.json()
        expectEqual(o["records"]?.stringValue, "excluded")
        expectEqual(WorkoutSummary(json: o)?.records, .excluded)
        var writer = JSONWriter()
        var cache = SummaryJSONCache()
        excluded.summary.writeJSON(to: &writer, cache: &cache)
        expectEqual(String(decoding: writer.bytes, as: UTF8.self), o.serialized(), "the byte writer writes the same key")
        // Kept through a recompute as another activity.
        let hike = Importer.edited(excluded, applying: WorkoutEdit(activity: .hiking), settings: MetricsSettings())
        expectEqual(hike.summary.records, .excluded)
        // It sets no personal best, and is no previous best for a slower workout after it.
        #expect(!w.summary.bestEfforts.isEmpty)
        #expect(PersonalRecords.bests(of: excluded.summary, among: []).isEmpty)
        var later = w.summary
        later.id = WorkoutID(rawValue: "20270101T000000Z-0001")!
        later.startedAt += 86_400
        later.bestEfforts = later.bestEfforts.map { var e = $0; e.seconds += 10; return e }
        #expect(PersonalRecords.bests(of: later, among: [w.summary]).isEmpty, "slower than a counted workout: no best")
        expectEqual(PersonalRecords.bests(of: later, among: [excluded.summary]).count, later.bestEfforts.count,
                    "the excluded workout is no previous best")
        // Counted again.
        expectEqual(Importer.edited(excluded, applying: WorkoutEdit(records: .counted), settings: MetricsSettings()).summary.records, .counted)
    }

    @Test func exportsNameAndDescribeTheWorkout() throws {
        var w = try run()
        w.summary.annotation = Self.annotation
        let gpx = String(decoding: GPXWriter.write(w), as: UTF8.self)
        #expect(gpx.contains("<metadata>\n  <name>Hill reps &lt;Tuesday&gt; &amp; more</name>\n  <desc>windy\nlegs heavy</desc>\n  <time>"))
        #expect(gpx.contains("<trk>\n  <name>Hill reps &lt;Tuesday&gt; &amp; more</name>\n  <desc>windy\nlegs heavy</desc>\n  <type>"))
        let tcx = String(decoding: TCXWriter.write(w), as: UTF8.self)
        #expect(tcx.contains("<Notes>Hill reps &lt;Tuesday&gt; &amp; more\n\nwindy\nlegs heavy</Notes>\n  </Activity>"))
        // Read back: the GPX names the workout again.
        let back = try Importer.read(GPXWriter.write(w), fileName: "x.gpx")
        expectEqual(back.annotation, WorkoutAnnotation(title: "Hill reps <Tuesday> & more", notes: "windy\nlegs heavy"))
        let plain = String(decoding: GPXWriter.write(try run()), as: UTF8.self)
        #expect(!plain.contains("<desc>"))
    }

    @Test func aFileNamesItselfOnlyWithAPersonsWords() {
        expectEqual(WorkoutAnnotation.fromFile("Boulder Cycling"), "Boulder Cycling")
        expectEqual(WorkoutAnnotation.fromFile(" Morning Run 5k "), "Morning Run 5k")
        for device in ["16-01-15_21:58:59", "LAP001", "ACTIVE LOG 003", "Track 2", "GH625XT GPS tracklog data", "", "  ", "2019-02-17 06:26"] {
            expectNil(WorkoutAnnotation.fromFile(device), "\(device)")
        }
    }

    @Test(.requires(.sharedData)) func sharedFilesThatNameThemselves() throws {
        let connect = try Importer.read(SharedData.bytes(SharedData.url("data/gpx/garminconnect.gpx")), fileName: "garminconnect.gpx")
        expectEqual(connect.annotation.title, "Boulder Cycling")
        let globalsat = try Importer.read(SharedData.bytes(SharedData.url("data/gpx/globalsat_gh625XT.gpx")), fileName: "g.gpx")
        #expect(globalsat.annotation.isEmpty, "a device's timestamp and description are no title")
    }

    @Test func totalsSumDistancePerGearOverAllTime() throws {
        var a = try run(1).summary, b = try run(2).summary, c = try run(3).summary
        a.gear = "Pegasus 40"; b.gear = "Pegasus 40"; c.gear = "Trail shoes"
        b.startedAt -= 400 * 86400  // long before this period: still counted for the shoes
        let cal = HabitCalendar(zone: .utc)
        let t = PeriodTotals(summaries: [a, b, c], per: .week, activity: nil, now: a.startedAt, calendar: cal)
        expectEqual(t.gear.map(\.name), ["Pegasus 40", "Trail shoes"])
        expectEqual(t.gear[0].count, 2)
        expectLess(abs(t.gear[0].distanceMeters - (rounded(a.distanceMeters, 3) + rounded(b.distanceMeters, 3))), 1e-6)
        expectEqual(t.current.count, 2)
        expectEqual(t.json()["gear"]?.arrayValue?.first?["name"]?.stringValue, "Pegasus 40")
    }
}
