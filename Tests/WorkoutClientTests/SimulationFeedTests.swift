import Glibc
import Testing
import WorkoutCore
@testable import WorkoutClient

@Suite struct SimulationFeedTests {
    static func sentence(_ body: String) -> String { "$" + body + "*" + NMEASentence.checksum(body) }

    @Test func nmeaIsTimedByItsSentences() throws {
        let text = [
            Self.sentence("GPGSV,1,1,00"),
            Self.sentence("GPRMC,235959.00,A,5230.000,N,01320.000,E,5.0,90.0,211126,,,A"),
            Self.sentence("GPGGA,235959.00,5230.000,N,01320.000,E,1,08,1.0,35.0,M,0.0,M,,"),
            Self.sentence("GPRMC,000000.00,A,5230.001,N,01320.000,E,5.0,90.0,221126,,,A"),
        ].joined(separator: "\r\n")
        let feed = try SimulationFeed.parse(text).get()
        #expect(feed.kind == .nmea)
        #expect(feed.lines.count == 4)
        #expect(feed.lines[0].time == nil)
        let t0 = ISO8601.parse("2026-11-21T23:59:59Z")!
        #expect(feed.lines[1].time == t0)
        #expect(feed.lines[2].time == t0)
        #expect(feed.lines[3].time == t0 + 1)  // across midnight
        #expect(feed.period == 2)
    }

    @Test func loopingRetimesNMEAWithAValidChecksum() throws {
        let text = [
            Self.sentence("GPRMC,093000.00,A,5230.000,N,01320.000,E,5.0,90.0,211126,,,A"),
            Self.sentence("GPGGA,093001.00,5230.000,N,01320.000,E,1,08,1.0,35.0,M,0.0,M,,"),
        ].joined(separator: "\n")
        let feed = try SimulationFeed.parse(text).get()
        let second = feed.lines(pass: 1)
        #expect(second[0].time == ISO8601.parse("2026-11-21T09:30:02Z"))
        #expect(second[0].line == Self.sentence("GPRMC,093002.00,A,5230.000,N,01320.000,E,5.0,90.0,211126,,,A"))
        #expect(second[1].line == Self.sentence("GPGGA,093003.00,5230.000,N,01320.000,E,1,08,1.0,35.0,M,0.0,M,,"))
        // Far enough to roll the date over.
        let later = NMEASentence.retimed(feed.lines[0].line, to: ISO8601.parse("2026-12-31T23:59:59.5Z")!)
        #expect(later == Self.sentence("GPRMC,235959.50,A,5230.000,N,01320.000,E,5.0,90.0,311226,,,A"))
    }

    @Test func jsonLinesKeepTheirTimesAndLoopForward() throws {
        let text = """
        {"class":"SIMULATION","speed":3}
        {"class":"FIX","time":"2026-11-21T09:30:00Z","lat":1,"lon":2}
        {"class":"FIX","time":"2026-11-21T09:30:02Z","lat":1,"lon":2}
        """
        let feed = try SimulationFeed.parse(text).get()
        #expect(feed.kind == .jsonLines)
        #expect(feed.lines.count == 2)  // the file's own header is dropped
        #expect(feed.period == 4)
        let next = feed.lines(pass: 1)
        #expect(try JSON.parse(next[0].line)["time"]?.stringValue == "2026-11-21T09:30:04Z")
        #expect(try JSON.parse(next[1].line)["lat"]?.doubleValue == 1)
    }

    @Test func refusesWhatItCannotSimulate() {
        #expect(throws: SimulationError.self) { try SimulationFeed.parse("").get() }
        #expect(throws: SimulationError.self) { try SimulationFeed.parse("hello\n").get() }
        #expect(throws: SimulationError.self) { try SimulationFeed.parse("{\"a\":1}\nnot json\n").get() }
        #expect(throws: SimulationError.self) { try SimulationFeed.parse("<?xml version=\"1.0\"?>\n<gpx></gpx>").get() }
        #expect(throws: SimulationError.self) { try SimulationFeed.parse("<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkpt></trkseg></trk></gpx>").get() }
    }

    @Test func gpxPointsBecomeJSONFixLines() throws {
        let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><type>running</type><trkseg>
            <trkpt lat="52.5" lon="13.4"><ele>35.5</ele><time>2026-11-21T09:30:00Z</time></trkpt>
            <trkpt lat="52.50002" lon="13.4"><ele>35.7</ele><time>2026-11-21T09:30:01Z</time></trkpt>
          </trkseg></trk>
        </gpx>
        """
        let feed = try SimulationFeed.parse(gpx).get()
        #expect(feed.kind == .gpx)
        #expect(feed.lines.count == 2)
        #expect(feed.lines[0].line == #"{"class":"FIX","time":"2026-11-21T09:30:00Z","lat":52.5,"lon":13.4,"alt":35.5}"#)
        #expect(feed.lines[1].time == ISO8601.parse("2026-11-21T09:30:01Z"))
        #expect(feed.period == 2)
        #expect(try JSON.parse(feed.lines(pass: 1)[0].line)["time"]?.stringValue == "2026-11-21T09:30:02Z")
    }

    @Test func header() {
        #expect(SimulationFeed.header(speed: 10) == #"{"class":"SIMULATION","speed":10}"#)
        #expect(SimulationFeed.header(speed: 2.5) == #"{"class":"SIMULATION","speed":2.5}"#)
    }

    @Test(arguments: ActivityType.allCases)
    func builtInRouteIsPlausible(_ activity: ActivityType) throws {
        var route = BuiltInRoute(activity: activity, start: 1_800_000_000)
        let lines = route.fixes(fromSecond: 0, count: 120)
        #expect(lines.count == 120)
        var previous: (Double, Double, Double)?
        for l in lines {
            let j = try JSON.parse(l.line)
            let t = try #require(j["time"]?.stringValue.flatMap { ISO8601.parse($0) })
            let lat = try #require(j["lat"]?.doubleValue), lon = try #require(j["lon"]?.doubleValue)
            #expect(l.time == t)
            if let (pt, plat, plon) = previous {
                #expect(t - pt == 1)
                let dn = (lat - plat) * 111_320, de = (lon - plon) * 111_320 * cos(lat * .pi / 180)
                #expect((dn * dn + de * de).squareRoot() < activity.maxPlausibleSpeed)
            }
            previous = (t, lat, lon)
        }
        #expect(BuiltInRoute.typicalSpeed(activity) > (activity.autoPauseSpeed ?? 0))
        // Reproducible: the same seed gives the same route.
        var again = BuiltInRoute(activity: activity, start: 1_800_000_000)
        #expect(again.fixes(fromSecond: 0, count: 120) == lines)
    }

    /// `simulate` of a file with power sends power and cadence on its fix lines, and the feed
    /// socket's decoder reads them back.
    @Test func powerAndCadenceReachTheFeedSocketDecoder() {
        var fix = Fix(time: 1_800_000_000, latitude: 48.1, longitude: 11.5)
        fix.power = 250; fix.cadence = 90
        let line = SimulationFeed.fixLine(fix)
        #expect(line.contains("\"power\":250") && line.contains("\"cad\":90"), "simulate sends them: \(line)")
        var d = FeedSocketDecoder()
        #expect(Array(line.utf8).withUnsafeBufferPointer { d.decode(line: $0) }.first?.power == 250)
    }
}
