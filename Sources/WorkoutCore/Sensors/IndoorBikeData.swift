/// One notification of the Bluetooth FTMS Indoor Bike Data characteristic (0x2AD2, Fitness
/// Machine Service 1.0, section 4.9): 16-bit flags, then the fields the flags announce, in this
/// order, little-endian. Bit 0 ("More Data") clear means the instantaneous speed is present.
///
/// | bit | field | unit |
/// |---|---|---|
/// | 0 clear | instantaneous speed uint16 | 0.01 km/h |
/// | 1 | average speed uint16 | 0.01 km/h |
/// | 2 | instantaneous cadence uint16 | 0.5 rpm |
/// | 3 | average cadence uint16 | 0.5 rpm |
/// | 4 | total distance uint24 | m |
/// | 5 | resistance level sint16 | |
/// | 6 | instantaneous power sint16 | W |
/// | 7 | average power sint16 | W |
/// | 8 | expended energy: total uint16, per hour uint16, per minute uint8 | kcal |
/// | 9 | heart rate uint8 | bpm |
/// | 10 | metabolic equivalent uint8 | 0.1 |
/// | 11 | elapsed time uint16 | s |
/// | 12 | remaining time uint16 | s |
public struct IndoorBikeData: Sendable, Equatable {
    /// 0.01 km/h, when present.
    public var speedCentiKmh: UInt16?
    /// 0.5 rpm, when present.
    public var cadenceHalfRpm: UInt16?
    /// Metres since the machine started, when present.
    public var totalDistance: Int?
    /// Watts, when present (negative: braking).
    public var watts: Int?
    /// The machine's own heart-rate reading, when present (not recorded: a strap is read as such).
    public var heartRate: UInt8?

    public init(speedCentiKmh: UInt16? = nil, cadenceHalfRpm: UInt16? = nil, totalDistance: Int? = nil, watts: Int? = nil, heartRate: UInt8? = nil) {
        self.speedCentiKmh = speedCentiKmh; self.cadenceHalfRpm = cadenceHalfRpm; self.totalDistance = totalDistance
        self.watts = watts; self.heartRate = heartRate
    }

    /// Metres per second.
    public var speed: Double? { speedCentiKmh.map { Double($0) / 100 / 3.6 } }
    /// Revolutions per minute.
    public var cadence: Double? { cadenceHalfRpm.map { Double($0) / 2 } }

    /// Parses a notification value: every flag combination; a value shorter than its flags
    /// promise is an error naming the field; extra bytes are ignored.
    public static func parse(_ bytes: some Collection<UInt8>) throws(BikeSensorMeasurementError) -> IndoorBikeData {
        var r = try BikeSensorBytes(bytes)
        try r.need(2, "flags")
        let flags = r.u16()
        var d = IndoorBikeData()
        func bit(_ n: Int) -> Bool { flags & (1 << n) != 0 }
        if !bit(0) { try r.need(2, "instantaneous speed"); d.speedCentiKmh = r.u16() }
        if bit(1) { try r.need(2, "average speed"); _ = r.u16() }
        if bit(2) { try r.need(2, "instantaneous cadence"); d.cadenceHalfRpm = r.u16() }
        if bit(3) { try r.need(2, "average cadence"); _ = r.u16() }
        if bit(4) { try r.need(3, "total distance"); d.totalDistance = r.u24() }
        if bit(5) { try r.need(2, "resistance level"); _ = r.u16() }
        if bit(6) { try r.need(2, "instantaneous power"); d.watts = r.s16() }
        if bit(7) { try r.need(2, "average power"); _ = r.u16() }
        if bit(8) { try r.need(5, "expended energy"); _ = r.u16(); _ = r.u16(); _ = r.u8() }
        if bit(9) { try r.need(1, "heart rate"); d.heartRate = r.u8() }
        return d
    }

    /// The notification value (what a trainer would send): speed, cadence, distance, power and
    /// heart rate as present.
    public func encoded() -> [UInt8] {
        var flags: UInt16 = speedCentiKmh == nil ? 0x0001 : 0
        if cadenceHalfRpm != nil { flags |= 0x0004 }
        if totalDistance != nil { flags |= 0x0010 }
        if watts != nil { flags |= 0x0040 }
        if heartRate != nil { flags |= 0x0200 }
        var out: [UInt8] = [UInt8(flags & 0xFF), UInt8(flags >> 8)]
        func u16(_ v: Int) { out += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
        if let s = speedCentiKmh { u16(Int(s)) }
        if let c = cadenceHalfRpm { u16(Int(c)) }
        if let t = totalDistance { u16(t); out.append(UInt8(truncatingIfNeeded: t >> 16)) }
        if let w = watts { u16(w) }
        if let h = heartRate { out.append(h) }
        return out
    }
}
