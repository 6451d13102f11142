import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

@Suite("gpsd JSON reader")
struct GpsdReaderTests {
    static func read(_ lines: [String], chunk: Int? = nil) -> (fixes: [Fix], reader: GpsdReader) {
        var r = GpsdReader()
        var out: [Fix] = []
        let bytes = Array(lines.joined(separator: "\n").utf8) + [0x0A]
        bytes.withUnsafeBufferPointer { buf in
            var i = 0
            let step = chunk ?? buf.count
            while i < buf.count {
                let j = min(buf.count, i + step)
                r.feed(UnsafeBufferPointer(rebasing: buf[i..<j])) { out.append($0) }
                i = j
            }
        }
        r.flush { out.append($0) }
        return (out, r)
    }

    @Test("the watch request is gpsd's JSON watch command")
    func watchRequest() {
        expectEqual(GpsdReader.watchRequest, "?WATCH={\"enable\":true,\"json\":true};\n")
    }

    @Test("a .chk file through GpsdReader gives gpsd's epochs, and agrees with our NMEA decoder",
          .requires(.sharedData), arguments: NMEAOracle.captures)
    func crossCheck(_ name: String) throws {
        let lines = try NMEAOracle.chkLines(name)
        let (fixes, reader) = Self.read(lines)
        let oracle = try NMEAOracle.tpvs(name)
        // Same epochs and values as the independent reading of the TPVs (last TPV of each run).
        expectEqual(fixes.map(\.time), oracle.map(\.time))
        for (f, o) in zip(fixes, oracle) {
            #expect(f.latitude == o.lat && f.longitude == o.lon && f.speed == o.speed, "\(name) \(o.timeText)")
            expectEqual(f.altitude, (o.altHAE ?? o.altMSL), "\(name) \(o.timeText)")
        }
        // Echoed NMEA lines in the .chk are not JSON and are counted, never fatal.
        expectEqual(reader.stats.invalidJSON, lines.filter { !$0.hasPrefix("{") && !$0.isEmpty && $0 != "\r" }.count)
        #expect(reader.stats.wrongType == 0 && reader.stats.notAnObject == 0)

        // Cross-check against the NMEA decoder on the raw log, epoch by epoch (same time).
        let rollover = GPSWeekRollover.gpsd322
        let nmea = NMEAOracle.decode(try NMEAOracle.logBytes(name)).fixes
        // Queues per time, consumed in order: humminbird-M37 repeats 13 s of times after its clock jumps back.
        var byTime: [Double: [NMEAFix]] = [:]
        for f in nmea { byTime[rollover.apply(f.fix.time), default: []].append(f) }
        var compared = 0, positionDiffers = 0, speedDiffers = 0, altitudeDiffers = 0
        for g in fixes {
            guard let n = byTime[g.time]?.first else { continue }
            byTime[g.time]?.removeFirst()
            compared += 1
            if abs(n.fix.latitude - g.latitude) > 1e-7 || abs(n.fix.longitude - g.longitude) > 1e-7 { positionDiffers += 1 }
            if let a = n.fix.speed, let b = g.speed, !NMEAOracle.sameRounded(a, b, 3) { speedDiffers += 1 }
            // HAE is comparable only when the receiver sent a geoid separation (gpsd uses its
            // own geoid model otherwise).
            if n.geoidSeparation != nil, !NMEAOracle.sameRounded(n.fix.altitude, g.altitude, 4) { altitudeDiffers += 1 }
        }
        // The differences are exactly the documented ones of the oracle test: bundg_zeus_9's 25
        // epochs closed early by a GLL stamped one second ahead (gpsd: RMC position, no altitude),
        // humminbird-M37's 7 GLL epochs whose speed we take from the following VTG.
        let expectedPosition = ["bundg_zeus_9": 25][name] ?? 0
        let expectedSpeed = ["humminbird-M37": 7][name] ?? 0
        let expectedAltitude = ["bundg_zeus_9": 25][name] ?? 0
        expectEqual(positionDiffers, expectedPosition, "\(name)")
        expectEqual(speedDiffers, expectedSpeed, "\(name)")
        expectEqual(altitudeDiffers, expectedAltitude, "\(name)")
        expectGreaterOrEqual(compared, fixes.count - 1, "\(name): \(compared) of \(fixes.count)")
        print("gpsd cross-check \(name): gpsd fixes \(fixes.count), compared with NMEA \(compared)")
    }

    @Test("chunked feeding equals line feeding", .requires(.sharedData))
    func chunks() throws {
        let lines = try NMEAOracle.chkLines("bt451")
        let whole = Self.read(lines).fixes
        for size in [1, 2, 3, 7, 64, 1000] { expectEqual(Self.read(lines, chunk: size).fixes, whole) }
    }

    @Test("TPV fields: altitude preference, eph from epx/epy, dedupe merge, SKY")
    func fields() throws {
        let lines = [
            #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0"}]}"#,
            #"{"class":"WATCH","enable":true,"json":true}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:00.000Z","lat":1.5,"lon":2.5,"alt":10.0,"epx":3.0,"epy":4.0}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:00.000Z","lat":1.5,"lon":2.5,"speed":1.25,"track":90}"#,
            #"{"class":"SKY","hdop":0.9,"satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false},{"PRN":3,"used":true}]}"#,
            #"{"class":"TPV","mode":2,"time":"2024-05-01T10:00:01.000Z","lat":1.6,"lon":2.6,"altMSL":11.0,"altHAE":50.0,"eph":7.0,"status":2}"#,
            #"{"class":"TPV","mode":1,"time":"2024-05-01T10:00:02.000Z"}"#,
            #"{"class":"TPV","mode":3,"lat":1.0,"lon":2.0}"#,
            #"{"class":"ATT","heading":12.0}"#,
            #"{"class":"ERROR","message":"unrecognized request"}"#,
        ]
        let (fixes, r) = Self.read(lines)
        expectEqual(fixes.count, 2)
        let a = fixes[0]
        expectEqual(a.time, ISO8601.parse("2024-05-01T10:00:00Z"))
        expectEqual(a.altitude, 10.0)                 // only the deprecated alt was sent
        expectEqual(a.horizontalAccuracy, 5.0)        // sqrt(3² + 4²)
        #expect(a.speed == 1.25 && a.course == 90)  // merged from the second TPV of the epoch
        #expect(a.satellites == 2 && a.hdop == 0.9) // count of used:true
        let b = fixes[1]
        #expect(b.altitude == 50.0 && b.horizontalAccuracy == 7.0 && b.mode == .twoD && b.quality == .dgps)
        #expect(r.release == "3.22" && r.devices == ["/dev/ttyACM0"] && r.lastError == "unrecognized request")
        #expect(r.stats.tpvNoFix == 1 && r.stats.tpvWithoutTime == 1 && r.stats.otherClass == 1)
    }

    @Test("wrong-shaped JSON is counted by reason, never fatal")
    func wrongShapes() {
        let good = #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:05.000Z","lat":1.5,"lon":2.5}"#
        let lines = [
            "not json",
            "{\"class\":\"TPV\",",                                    // truncated
            "{\"class\":\"TPV\",\"mode\":3,\"lat\":\"\u{FFFD}\"}x",  // trailing junk
            "[1,2,3]",
            "{\"mode\":3}",                                           // no class
            "{\"class\":7}",
            "42",
            #"{"class":"TPV","mode":"3","time":"2024-05-01T10:00:00Z","lat":1,"lon":2}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:00Z","lat":"1","lon":2}"#,
            #"{"class":"TPV","mode":3,"time":"yesterday","lat":1,"lon":2}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:00Z","lat":95,"lon":2}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:00Z","lat":null,"lon":2}"#,
            #"{"class":"SKY","satellites":{"PRN":1}}"#,
            #"{"class":"SKY","satellites":[{"PRN":1,"used":"yes"}]}"#,
            #"{"class":"DEVICES","devices":{}}"#,
            #"{"class":"TPV","mode":3,"time":"2024-05-01T10:00:00Z"}"#,  // no position
            String(repeating: "[", count: 500),                          // deeper than the parser allows
            good,
        ]
        var (fixes, r) = Self.read(lines)
        #expect(fixes.count == 1 && fixes.first?.latitude == 1.5)
        expectEqual(r.stats.invalidJSON, 4)
        expectEqual(r.stats.notAnObject, 4)
        expectEqual(r.stats.wrongType, 8)
        expectEqual(r.stats.tpvWithoutPosition, 1)
        // A 300 KB line is dropped as too long and the next line still decodes.
        let big = Array(String(repeating: "x", count: 300_000).utf8) + [0x0A] + Array(good.utf8) + [0x0A]
        big.withUnsafeBufferPointer { r.feed($0) { fixes.append($0) } }
        _ = r.flush()
        expectEqual(r.stats.tooLong, 1)
    }
}
