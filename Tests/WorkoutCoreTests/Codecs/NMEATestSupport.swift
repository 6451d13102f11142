import Foundation
import WorkoutCore

/// gpsd's own answer for a capture: the TPV lines of `<name>.log.chk` (gpsd 3.22), read with our
/// JSON parser independently of `GpsdReader`.
struct GpsdOracleTPV: Equatable {
    var time: Double
    var timeText: String
    var mode: Int
    var lat: Double?
    var lon: Double?
    var altHAE: Double?
    var altMSL: Double?
    var speed: Double?
}

enum NMEAOracle {
    static let captures = ["bt451", "bundg_zeus_9", "haicom-305N", "humminbird-M37", "nl2008u", "nmea-rtk", "rst39", "ublox-lea-4h"]

    static func logBytes(_ name: String) throws -> [UInt8] {
        try SharedData.bytes(SharedData.url("data/nmea/\(name).log"))
    }

    static func chkLines(_ name: String) throws -> [String] {
        // Split on bytes: "\r\n" is one Character in Swift, so String.split("\n") would not split it.
        let bytes = try SharedData.bytes(SharedData.url("data/nmea/\(name).log.chk"))
        return bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    /// TPVs with mode >= 2 and a time, one per run of consecutive TPVs with the same time: the
    /// last one of the run, which is gpsd's accumulated state for that epoch (gpsd re-reports the
    /// whole epoch after every sentence, each report a superset of the one before).
    static func tpvs(_ name: String) throws -> [GpsdOracleTPV] {
        var out: [GpsdOracleTPV] = []
        for line in try chkLines(name) where line.hasPrefix("{") {
            let j = try JSON.parse(line)
            guard j["class"]?.stringValue == "TPV", let mode = j["mode"]?.intValue, mode >= 2,
                  let t = j["time"]?.stringValue, let time = ISO8601.parse(t) else { continue }
            let tpv = GpsdOracleTPV(time: time, timeText: t, mode: mode, lat: j["lat"]?.doubleValue, lon: j["lon"]?.doubleValue,
                                    altHAE: j["altHAE"]?.doubleValue, altMSL: j["altMSL"]?.doubleValue,
                                    speed: j["speed"]?.doubleValue)
            if let last = out.last, last.time == time { out[out.count - 1] = tpv } else { out.append(tpv) }
        }
        return out
    }

    static func decode(_ bytes: [UInt8], chunk: Int? = nil, options: NMEADecoder.Options = .init()) -> (fixes: [NMEAFix], stats: NMEADecoder.Stats) {
        var d = NMEADecoder(options: options)
        var out: [NMEAFix] = []
        bytes.withUnsafeBufferPointer { buf in
            if let chunk {
                var i = 0
                while i < buf.count {
                    let j = min(buf.count, i + chunk)
                    d.feed(UnsafeBufferPointer(rebasing: buf[i..<j])) { out.append($0) }
                    i = j
                }
            } else {
                d.feed(buf) { out.append($0) }
            }
        }
        d.flush { out.append($0) }
        return (out, d.stats)
    }

    enum Kind: String, CaseIterable, Comparable {
        case onlyOurs, onlyGpsd, dayShift, latlon, altitude, speedDerived, speedValue, speedOnlyOurs, mode
        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    struct Difference: CustomStringConvertible {
        var kind: Kind
        var time: String
        var detail: String
        var description: String { "\(kind.rawValue) @\(time): \(detail)" }
    }

    /// Compares our fixes (moved by gpsd's week rollover) with gpsd's TPVs, epoch by epoch.
    static func compare(ours raw: [NMEAFix], gpsd: [GpsdOracleTPV]) -> (matched: Int, diffs: [Difference]) {
        let rollover = GPSWeekRollover.gpsd322
        let ours = raw.map { f -> NMEAFix in var f = f; f.fix.time = rollover.apply(f.fix.time); return f }
        var diffs: [Difference] = []
        var matched = 0
        var i = 0, j = 0
        func t(_ x: Double) -> String { ISO8601.format(x, fractionDigits: 3) }
        while i < ours.count || j < gpsd.count {
            guard i < ours.count else { diffs.append(.init(kind: .onlyGpsd, time: gpsd[j].timeText, detail: "")); j += 1; continue }
            guard j < gpsd.count else { diffs.append(.init(kind: .onlyOurs, time: t(ours[i].fix.time), detail: "")); i += 1; continue }
            let o = ours[i], g = gpsd[j]
            let dt = (o.fix.time - g.time)
            if abs(dt) > 0.0005 {
                let days = (dt / 86400).rounded()
                if days != 0, abs(dt - days * 86400) < 0.0005, near(o.fix.latitude, g.lat, 1e-7), near(o.fix.longitude, g.lon, 1e-7) {
                    diffs.append(.init(kind: .dayShift, time: g.timeText, detail: "ours \(t(o.fix.time))"))
                    i += 1; j += 1; continue
                }
                // Which side has the extra epoch? Look ahead a little on each side.
                let gAhead = gpsd[j..<min(gpsd.count, j + 4)].contains { abs($0.time - o.fix.time) < 0.0005 }
                if gAhead { diffs.append(.init(kind: .onlyGpsd, time: g.timeText, detail: "")); j += 1 }
                else { diffs.append(.init(kind: .onlyOurs, time: t(o.fix.time), detail: "")); i += 1 }
                continue
            }
            matched += 1
            if !near(o.fix.latitude, g.lat, 1e-7) || !near(o.fix.longitude, g.lon, 1e-7) {
                diffs.append(.init(kind: .latlon, time: g.timeText, detail: "ours \(o.fix.latitude),\(o.fix.longitude) gpsd \(g.lat ?? .nan),\(g.lon ?? .nan)"))
            }
            // Altitude: HAE when the receiver sent a geoid separation, else MSL (gpsd fills in
            // its own geoid model then, which we do not have).
            let (ourAlt, theirAlt): (Double?, Double?) = o.geoidSeparation != nil ? (o.fix.altitude, g.altHAE) : (o.altitudeMSL, g.altMSL)
            if !sameRounded(ourAlt, theirAlt, 4) {
                diffs.append(.init(kind: .altitude, time: g.timeText, detail: "ours \(String(describing: ourAlt)) gpsd \(String(describing: theirAlt)) (HAE \(String(describing: g.altHAE)))"))
            }
            switch (o.fix.speed, g.speed) {
            case (nil, nil): break
            case (nil, let s?): diffs.append(.init(kind: .speedDerived, time: g.timeText, detail: "gpsd \(s)"))
            case (let s?, nil): diffs.append(.init(kind: .speedOnlyOurs, time: g.timeText, detail: "ours \(s)"))
            case (let a?, let b?):
                if !sameRounded(a, b, 3) { diffs.append(.init(kind: .speedValue, time: g.timeText, detail: "ours \(a) gpsd \(b)")) }
            }
            if o.fix.mode.rawValue != g.mode {
                diffs.append(.init(kind: .mode, time: g.timeText, detail: "ours \(o.fix.mode.rawValue) gpsd \(g.mode)"))
            }
            i += 1; j += 1
        }
        return (matched, diffs)
    }

    static func near(_ a: Double, _ b: Double?, _ tol: Double) -> Bool {
        guard let b else { return false }
        return abs(a - b) <= tol
    }

    /// Equal at gpsd's printed precision (`decimals` digits, allowing one unit of float noise).
    static func sameRounded(_ a: Double?, _ b: Double?, _ decimals: Int) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?):
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            return abs(x - y) <= 0.5 / scale + 1e-9
        default: return false
        }
    }
}
