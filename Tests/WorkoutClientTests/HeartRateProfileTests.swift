import Foundation
import Testing
import WorkoutCore
@testable import WorkoutClient

@Suite struct HeartRateProfileTests {
    @Test func parsesConstantsAndRamps() {
        #expect(HeartRateProfile(argument: "140") == .constant(140))
        #expect(HeartRateProfile(argument: "100-160") == .ramp(low: 100, high: 160))
        for bad in ["", "fast", "160-100", "100-100", "10", "100-300", "1-2-3", "-5", "140.5"] {
            #expect(HeartRateProfile(argument: bad) == nil, "\(bad)")
        }
        let r = HeartRateProfile.ramp(low: 100, high: 160)
        #expect(r.bpm(atElapsed: 0) == 100)
        #expect(r.bpm(atElapsed: 150) == 130)
        #expect(r.bpm(atElapsed: 300) == 160)
        #expect(r.bpm(atElapsed: 450) == 130)
        #expect(r.bpm(atElapsed: 600) == 100)
    }

    @Test func addsOneHRLinePerSecondReplacingTheFilesOwn() throws {
        let t0 = ISO8601.parse("2026-11-21T09:30:00Z")!
        let fixes = (0..<4).map { k in
            TimedLine(time: t0 + Double(k) * 0.5, line: SimulationFeed.fixLine(Fix(time: t0 + Double(k) * 0.5, latitude: 48, longitude: 11)))
        }
        let old = TimedLine(time: t0, line: HeartRateReading(time: t0, bpm: 99).line)
        let feed = SimulationFeed(kind: .jsonLines, lines: [fixes[0], old] + fixes.dropFirst()).withHeartRate(.constant(140))
        let hr = feed.lines.filter { $0.line.contains(#""class":"HR""#) }
        #expect(hr.map(\.line) == [HeartRateReading(time: t0, bpm: 140).line, HeartRateReading(time: t0 + 1, bpm: 140).line])
        #expect(feed.lines.count == 6)
    }

    @Test func gpxHeartRateBecomesHRLines() throws {
        let gpx = #"""
        <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"
         xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><trkseg>
        <trkpt lat="48.1" lon="11.5"><time>2026-11-21T09:30:00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>131</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
        <trkpt lat="48.1001" lon="11.5"><time>2026-11-21T09:30:01Z</time></trkpt>
        </trkseg></trk></gpx>
        """#
        let feed = try SimulationFeed.parse(gpx).get()
        #expect(feed.kind == .gpx)
        #expect(feed.lines.count == 3)
        #expect(!feed.lines[0].line.contains("\"hr\""))
        #expect(feed.lines[1].line == HeartRateReading(time: ISO8601.parse("2026-11-21T09:30:00Z")!, bpm: 131).line)
    }

    /// A real TCX with heart rate (../shared/data/tcx): every trackpoint's heart rate is sent once.
    @Test func tcxFileSendsItsHeartRate() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("shared/data/tcx/gtrnctr_power.tcx")
        guard let bytes = try? Data(contentsOf: url) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("missing \(url.path)") }
            return  // ../shared absent: nothing to compare with
        }
        let feed = try SimulationFeed.parse(bytes: Array(bytes)).get()
        #expect(feed.kind == .tcx)
        let file = try TCXReader.read(Array(bytes))
        let expected = file.activities.flatMap(\.laps).flatMap(\.trackpoints).compactMap(\.heartRate).filter { $0 > 0 }
        let sent = feed.lines.filter { $0.line.contains(#""class":"HR""#) }.compactMap { try? HeartRateReading.decode(JSON.parse($0.line)).get().bpm }
        #expect(!expected.isEmpty)
        #expect(sent == expected)
    }
}
