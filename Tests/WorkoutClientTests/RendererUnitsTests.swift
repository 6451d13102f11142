import Testing
import WorkoutCore
@testable import WorkoutClient

/// Every command's human output follows the reply's `units` (config `units`): distances, paces,
/// speeds and climbs in mi, /mi, mph and ft when imperial; JSON stays SI.
@Suite struct RendererUnitsTests {
    let r = Renderer(clock: .utc)

    static let run = RendererTests.runSummary  // 2134.6 m, 2.9586 m/s moving, 3.125 m/s now, max 4.1 m/s, +12.4 m

    /// The text with every run of spaces made one (table columns are padded to their widths).
    func squeeze(_ s: String) -> String {
        var out = ""
        for c in s where !(c == " " && out.last == " ") { out.append(c) }
        return out
    }

    static func reply(_ units: String?, _ pairs: [(String, JSON)]) -> JSON {
        var o = JSONObject([("ok", true)] + pairs)
        if let units { o["units"] = .string(units) }
        return .object(o)
    }

    static func status(_ units: String?) -> JSON {
        reply(units, [("state", "active"), ("workout", run), ("gps", ["fix": "3D", "source": "feed"])])
    }

    @Test func statusAndWatch() {
        let metric = r.status(Self.status("metric"))
        #expect(metric.contains("Distance:  2.13 km"))
        #expect(metric.contains("Pace:      5:38 /km avg, 5:20 /km now"))
        #expect(r.status(Self.status(nil)) == metric, "an older daemon without the key: metric")
        let imperial = r.status(Self.status("imperial"))
        #expect(imperial.contains("Distance:  1.33 mi"))
        #expect(imperial.contains("Pace:      9:04 /mi avg, 8:35 /mi now"))
        #expect(!imperial.contains("km"))
        // watch, piped: one line per update.
        #expect(r.statusLine(Self.status("imperial")) == "active  Running  0:12:34  1.33 mi  8:35 /mi now  GPS 3D")
        #expect(r.statusLine(Self.status("metric")) == "active  Running  0:12:34  2.13 km  5:20 /km now  GPS 3D")
    }

    @Test func statusBarFormats() {
        let c = StatusBar.content(status: Self.status("imperial"), streak: nil)
        #expect(c.text == "Running 0:12:34 1.33 mi")
        #expect(StatusBar.line(c, format: .waybar).contains("\"text\":\"Running 0:12:34 1.33 mi\""))
        #expect(StatusBar.line(c, format: .i3bar).contains("\"full_text\":\"Running 0:12:34 1.33 mi\""))
        #expect(StatusBar.content(status: Self.status("metric"), streak: nil).text == "Running 0:12:34 2.13 km")
    }

    @Test func stopSummary() {
        var w = Self.run.objectValue!
        w["endedAt"] = "2026-11-21T09:42:34.000Z"
        w["elevationLossMeters"] = 30.48
        let stop = Self.reply("imperial", [("state", "saving"), ("workout", .object(w))])
        let text = r.stopped(stop)
        #expect(text.contains("Distance:  1.33 mi\n"))
        #expect(text.contains("Pace:      9:04 /mi (moving average)\n"))
        #expect(text.contains("Max speed: 9.2 mph\n"))
        #expect(text.contains("Climb:     +41 ft / -100 ft\n"))
        let metric = r.stopped(Self.reply("metric", [("state", "saving"), ("workout", .object(w))]))
        #expect(metric.contains("Distance:  2.13 km\n") && metric.contains("Max speed: 14.8 km/h\n") && metric.contains("Climb:     +12 m / -30 m\n"))
    }

    static let mileSplitRun: JSON = {
        var w = run.objectValue!
        w["distanceMeters"] = 3218.688
        let split: (Int, Double, Double) -> JSON = { i, d, s in
            ["index": .int(i), "trigger": "distance", "startTime": "2026-11-21T09:30:00.000Z", "endTime": "2026-11-21T09:39:00.000Z",
             "elapsedSeconds": .number(s), "movingSeconds": .number(s), "distanceMeters": .number(d), "elevationGainMeters": 10]
        }
        w["splits"] = [split(0, 1609.344, 540), split(1, 1609.344, 500)]
        w["bestEfforts"] = [["distanceMeters": 1000, "seconds": 320, "startTime": "2026-11-21T09:31:00.000Z"],
                            ["distanceMeters": 1609.344, "seconds": 520, "startTime": "2026-11-21T09:31:00.000Z"]]
        return .object(w)
    }()

    @Test func showSplitsAndBestEfforts() {
        let text = squeeze(r.show(Self.reply("imperial", [("workout", Self.mileSplitRun)])))
        #expect(text.contains("Distance: 2.00 mi\n"))
        #expect(text.contains("\n1 9:00 9:00 1.00 mi 9:00 /mi +33 ft\n"), "\(text)")
        #expect(text.contains("\n2 8:20 8:20 1.00 mi 8:20 /mi +33 ft\n"), "\(text)")
        #expect(text.contains(" 1 km 5:20\n"))
        #expect(text.contains(" 1 mile 8:40\n"), "the mile is named, not 1.6 km")
        #expect(!text.contains("km/h") && !text.contains("/km"))
        let metric = squeeze(r.show(Self.reply("metric", [("workout", Self.mileSplitRun)])))
        #expect(metric.contains("\n1 9:00 9:00 1.61 km 5:36 /km +10 m\n"), "\(metric)")
    }

    @Test func listOfRunsAndRides() {
        var ride = Self.run.objectValue!
        ride["activity"] = "cycling"; ride["id"] = "20261122T080000Z-0001"; ride["startedAt"] = "2026-11-22T08:00:00.000Z"
        ride["distanceMeters"] = 24140.16; ride["movingAverageSpeed"] = 6.7056
        let items: JSON = [Self.run, .object(ride)]
        let imperial = r.list(Self.reply("imperial", [("workouts", items)]))
        let lines = imperial.split(separator: "\n")
        #expect(lines[1].contains("1.33 mi") && lines[1].contains("9:04 /mi"), "\(imperial)")
        #expect(lines[2].contains("15.00 mi") && lines[2].contains("15.0 mph"), "\(imperial)")
        let metric = r.list(Self.reply("metric", [("workouts", items)]))
        #expect(metric.contains("24.14 km") && metric.contains("24.1 km/h"))
    }

    @Test func totals() {
        let period: (Double, Double) -> JSON = { d, c in
            ["start": "2026-11-16", "end": "2026-11-22", "count": 3, "distanceMeters": .number(d), "movingSeconds": 7200, "elevationGainMeters": .number(c)]
        }
        let t: JSON = ["per": "week", "activity": nil, "current": period(16093.44, 152.4), "previous": period(8046.72, 30.48)]
        let imperial = squeeze(r.totals(Self.reply("imperial", [("totals", t)])))
        #expect(imperial.contains("Distance 10.00 mi 5.00 mi\n"), "\(imperial)")
        #expect(imperial.contains("Climb 500 ft 100 ft\n"), "\(imperial)")
        let metric = squeeze(r.totals(Self.reply("metric", [("totals", t)])))
        #expect(metric.contains("Distance 16.09 km 8.05 km\n") && metric.contains("Climb 152 m 30 m\n"), "\(metric)")
    }
}
