import Testing
@testable import WorkoutCore

/// Issue 15 item 11: implausible values are rejected at decode time by documented bounds
/// (docs/gps-decoding.md) and counted, in gpsd JSON and NMEA alike.
@Suite struct FixBoundsTests {
    static func nmea(_ body: String) -> String {
        var sum: UInt8 = 0
        for b in body.utf8 { sum ^= b }
        let hex = String(sum, radix: 16, uppercase: true)
        return "$" + body + "*" + (hex.count == 1 ? "0" + hex : hex) + "\r\n"
    }

    @Test(arguments: ["1e15", "1e308", "-20000"])
    func gpsdAltitudeOutOfBoundsIsRejectedAndCounted(_ alt: String) {
        var r = GpsdReader()
        let lines = [
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:00.000Z","lat":48.1,"lon":11.5,"altHAE":\#(alt)}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:01.000Z","lat":48.1,"lon":11.5,"altHAE":520}"#,
        ].joined(separator: "\n") + "\n"
        var fixes = r.feed(Array(lines.utf8))
        fixes += r.flush()
        #expect(fixes.count == 1 && fixes.first?.altitude == 520)
        expectEqual(r.stats.implausible, ["altitude": 1])
        expectEqual(r.stats.rejectionCounts["gpsd_implausible_altitude"], 1)
    }

    @Test func gpsdSpeedOutOfBoundsIsRejected() {
        var r = GpsdReader()
        _ = r.feed(Array((#"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:00.000Z","lat":48.1,"lon":11.5,"speed":1e9}"# + "\n").utf8))
        #expect(r.flush().isEmpty)
        expectEqual(r.stats.implausible, ["speed": 1])
    }

    @Test func nmeaAltitudeOutOfBoundsIsRejectedAndCounted() {
        var d = NMEADecoder()
        let text = Self.nmea("GPRMC,100000.00,A,4806.000,N,01130.000,E,1.0,90.0,010524,,,A")
            + Self.nmea("GPGGA,100000.00,4806.000,N,01130.000,E,1,08,1.0,1000000000000000.0,M,47.0,M,,")
            + Self.nmea("GPRMC,100001.00,A,4806.000,N,01130.001,E,1.0,90.0,010524,,,A")
            + Self.nmea("GPGGA,100001.00,4806.000,N,01130.001,E,1,08,1.0,520.0,M,47.0,M,,")
        var fixes = d.feed(Array(text.utf8))
        fixes += d.flush()
        expectEqual(fixes.count, 1)
        expectEqual(fixes.first?.altitude, 567)
        expectEqual(d.stats.rejectionCounts["nmea_implausible_altitude"], 1)
    }

    @Test func boundsNameTheField() {
        let ok = Fix(time: 1, latitude: 48, longitude: 11, altitude: 8849, speed: 30, course: 360, hdop: 99.99)
        expectNil(FixBounds.violation(ok))
        expectEqual(FixBounds.violation(Fix(time: 1, latitude: 48, longitude: 11, course: 400)), "course")
        expectEqual(FixBounds.violation(Fix(time: .infinity, latitude: 48, longitude: 11)), "time")
        expectEqual(FixBounds.violation(Fix(time: 1, latitude: 48, longitude: 11, heartRate: 900)), "heart_rate")
    }
}
