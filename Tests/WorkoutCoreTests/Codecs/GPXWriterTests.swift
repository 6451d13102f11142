import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

@Suite struct GPXWriterTests {
    @Test func fastFixedFormatterMatchesFormatFixed() {
        var rng = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, 2.5, 0.05, 0.15, -0.00000001, 179.9999999995, -179.9999999995,
                                 89.99999999949, 1e-12, 123456789.123456789, 40.18894976936280727386474609375, -105.178360976278781890869140625]
        for _ in 0..<20_000 {
            let magnitude = Double.random(in: -7...9, using: &rng)
            values.append(Double.random(in: -1...1, using: &rng) * pow(10, magnitude))
        }
        for v in values {
            for d in [0, 1, 2, 3, 6, 7, 9] {
                var out = XMLOutput()
                out.appendFixed(v, decimals: d)
                let fast = String(decoding: out.bytes, as: UTF8.self)
                expectEqual(fast, formatFixed(v, decimals: d), "value \(v) decimals \(d)")
                if fast != formatFixed(v, decimals: d) { return }
            }
        }
    }

    @Test func fastTimeFormatterMatchesISO8601() {
        var times: [Double] = [0, -1, 951_782_400, 1_709_164_799.9996, 1_709_164_799.9994, 4_102_444_800.5]
        for _ in 0..<20_000 {
            times.append(Double(Int.random(in: -100_000_000...4_200_000_000)))
            times.append(Double(Int.random(in: 0...4_200_000_000_000)) / 1000)
        }
        for t in times {
            var out = XMLOutput()
            out.appendTime(t)
            let ms = (t * 1000).rounded(.toNearestOrAwayFromZero)
            let expected = ISO8601.format(t, fractionDigits: ms.truncatingRemainder(dividingBy: 1000) == 0 ? 0 : 3)
            let fast = String(decoding: out.bytes, as: UTF8.self)
            expectEqual(fast, expected, "time \(t)")
            if fast != expected { return }
            expectLessOrEqual(abs(ISO8601.parse(fast)! - t), 0.0005 + 1e-6)
        }
    }

    /// The buffer grows from the smallest room and hands over exactly what was written, the
    /// same text a `String` built piece by piece gives; the output is empty afterwards.
    @Test func outputGrowsAndHandsOverWhatWasWritten() {
        var out = XMLOutput(capacity: 0)
        var expected = ""
        for i in 0..<5_000 {
            out.append("<a x=\"")
            out.appendFixed(Double(i) / 7, decimals: 7)
            out.append("\">")
            out.appendInt(i - 2_500)
            out.appendEscaped("<&\"'>\u{01}é")
            out.appendTime(1_709_164_799.5 + Double(i) * 3_600)
            out.append("</a>\n")
            expected += "<a x=\"\(formatFixed(Double(i) / 7, decimals: 7))\">\(i - 2_500)&lt;&amp;&quot;&apos;&gt;é"
                + ISO8601.format(1_709_164_799.5 + Double(i) * 3_600, fractionDigits: 3) + "</a>\n"
        }
        out.appendFixed(1e300, decimals: 2)
        expected += formatFixed(1e300, decimals: 2)
        expectEqual(String(decoding: out.bytes, as: UTF8.self), expected)
        expectEqual(String(decoding: out.takeBytes(), as: UTF8.self), expected)
        #expect(out.takeBytes().isEmpty)
        // A copy is a value: writing to one leaves the other as it was.
        out.append("a")
        var copy = out
        copy.append("b")
        out.append("c")
        expectEqual(String(decoding: out.bytes, as: UTF8.self), "ac")
        expectEqual(String(decoding: copy.bytes, as: UTF8.self), "ab")
    }

    /// Export of every shared file: schema-valid, read back by gpsbabel, gpxpy and our reader
    /// with the same points; rejected fixes left out; lap and marker as waypoints.
    @Test(.requires(.sharedData),
          arguments: XMLTestSupport.gpxFiles.map { "data/gpx/" + $0 } + XMLTestSupport.tcxFiles.map { "data/tcx/" + $0 })
    func exportIsValidAndReadsBackTheSame(_ relative: String) throws {
        let workout = try XMLTestSupport.sharedWorkout(relative)
        let accepted = workout.points.filter(\.isAccepted)
        expectLess(accepted.count, workout.points.count)
        let dir = try XMLTestSupport.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("out.gpx")
        try Data(GPXWriter.write(workout)).write(to: url)

        let lint = try XMLTestSupport.xmllint(url.path, schema: "gpx11+garmin.xsd")
        expectEqual(lint.status, 0, "\(lint.output)")

        let babel = try XMLTestSupport.gpsbabelRows(url.path, format: "gpx")
        expectEqual(babel.count, accepted.count)
        let babelWaypoints = try XMLTestSupport.gpsbabelRows(url.path, format: "gpx", kind: "-w")
        expectEqual(babelWaypoints.count, 2)

        let py = try XMLTestSupport.gpxpy(url.path, lengthOf: accepted)
        expectEqual(py.count, accepted.count)
        expectEqual(py.waypoints, 2)
        let lengths = (file: py.length2d, points: try #require(py.pointsLength2d))
        // 1e-6 relative; for kona2013 (5 points, 15.5 m) the 9-decimal rounding (0.1 mm)
        // is larger than that: there 0.1 mm absolute.
        expectLessOrEqual(abs(lengths.file - lengths.points), max(1e-6 * lengths.points, 1e-4), "\(lengths)")
        print("GPX export \(relative): \(accepted.count) points, gpxpy length \(lengths.file) m vs \(lengths.points) m, relative difference \(abs(lengths.file - lengths.points) / lengths.points)")
        if relative.hasSuffix(".gpx") {
            let original = try XMLTestSupport.gpxpyShared(SharedData.url(relative).path)
            expectLessOrEqual(abs(py.length2d - original.length2d), 1e-6 * original.length2d)
        }

        // Our reader: the same fixes to the written precision, same segments, the waypoints.
        let back = try GPXReader.read(try SharedData.bytes(url))
        let read = back.trackPoints
        expectEqual(read.count, accepted.count)
        expectEqual(XMLTestSupport.segmentBreaks(read), XMLTestSupport.segmentBreaks(accepted))
        expectEqual(back.activity, workout.activity)
        expectEqual(back.tracks[0].type, workout.activity.gpxType)
        expectEqual(back.time, workout.summary.startedAt)
        var worst = (lat: 0.0, ele: 0.0, time: 0.0)
        for (a, b) in zip(accepted.map(\.fix), read.map(\.fix)) {
            worst.lat = max(worst.lat, abs(a.latitude - b.latitude), abs(a.longitude - b.longitude))
            if let x = a.altitude, let y = b.altitude { worst.ele = max(worst.ele, abs(x - y)) } else { #expect(a.altitude == nil && b.altitude == nil) }
            worst.time = max(worst.time, abs(a.time - b.time))
            #expect(a.heartRate == b.heartRate && a.cadence == b.cadence)
        }
        expectLessOrEqual(worst.lat, 5e-10 + 1e-12)
        expectLessOrEqual(worst.ele, 0.005 + 1e-9)
        expectLessOrEqual(worst.time, 0.0005 + 1e-6)
        expectEqual(back.waypoints.map(\.type), ["lap", "marker"])
        expectEqual(back.waypoints[1].name, "Water & <snacks> \"here\"")
    }

    @Test(.requires(.sharedData))
    func emptyWorkoutIsValid() throws {
        let w = XMLTestSupport.workout([TrackPoint(fix: Fix(time: 1e9, latitude: 0, longitude: 0), rejection: .nullIsland)], activity: .yoga,
                                       events: [WorkoutEvent(kind: .marker, time: 1e9)])
        let dir = try XMLTestSupport.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("empty.gpx")
        try Data(GPXWriter.write(w)).write(to: url)
        let lint = try XMLTestSupport.xmllint(url.path, schema: "gpx11+garmin.xsd")
        expectEqual(lint.status, 0, "\(lint.output)")
        // Readable by us only as "no track points": nothing to import.
        let bytes = try SharedData.bytes(url)
        #expect(throws: TrackFileError(format: .gpx, reason: .noTrackPoints, line: bytes.filter { $0 == 10 }.count + 1, offset: bytes.count)) {
            try GPXReader.read(try SharedData.bytes(url))
        }
    }

    @Test func writesOutOfRangeSensorValuesNowhere() {
        let f = Fix(time: 1e9, latitude: -33.8688, longitude: 151.2093, altitude: nil, heartRate: 0, cadence: 255)
        let text = GPXWriter.string(XMLTestSupport.workout([TrackPoint(fix: f)], activity: .running))
        #expect(!text.contains("<extensions>"))
        #expect(text.contains("<trkpt lat=\"-33.868800000\" lon=\"151.209300000\"><time>2001-09-09T01:46:40Z</time></trkpt>"))
    }

    /// 86,400 points (a day at 1 Hz) are all written. Speed is workoutbench's business
    /// (BENCHMARKS.md), never a timed assertion here.
    @Test func writesADayOfPoints() {
        let w = XMLTestSupport.dayLongWorkout()
        let kept = w.points.filter { $0.rejection == nil }.count
        expectEqual(XMLTestSupport.occurrences(of: "<trkpt ", in: GPXWriter.write(w)), kept, "every kept point is a trkpt")
    }

    /// Written a piece at a time (what an export into a file does), the document is the one
    /// written whole, byte for byte, whatever the piece size, drained as it goes; `Exporter.write` gives GPX the same way and the other formats whole.
    @Test func streamedIsTheWholeDocument() {
        let w = XMLTestSupport.dayLongWorkout()
        // The small pieces over two hours of it (a closure call per byte over the whole day was
        // 1.3 s of CPU in the unoptimized test build); the large ones over the whole day.
        let twoHours = XMLTestSupport.dayLongWorkout(seconds: 7200)
        for (chunk, workout) in [(1, twoHours), (700, twoHours), (4096, w), (1 << 20, w), (Int.max / 4, w)] {
            let whole = GPXWriter.write(workout)
            var streamed: [UInt8] = []
            var largest = 0
            let n = GPXWriter.write(workout, chunk: chunk) { streamed.append(contentsOf: $0); largest = max(largest, $0.count) }
            expectEqual(n, whole.count)
            #expect(SharedData.same(streamed, whole), "chunk \(chunk)")
            if chunk == 700 { #expect(largest < whole.count / 4, "drained as it goes") }
        }
        for format in ExportFormat.allCases where Exporter.refusal(w, format) == nil {
            var streamed: [UInt8] = []
            let n = Exporter.write(w, format) { streamed.append(contentsOf: $0) }
            #expect(SharedData.same(streamed, Exporter.bytes(w, format)) && n == streamed.count, "\(format)")
        }
    }
}
