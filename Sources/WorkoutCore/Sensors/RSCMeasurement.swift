/// One notification of the Bluetooth RSC Measurement characteristic (0x2A53, Running Speed and
/// Cadence Service 1.0, section 3.1): 8-bit flags, instantaneous speed (uint16, 1/256 m/s),
/// instantaneous cadence (uint8, steps per minute), then instantaneous stride length (uint16,
/// 1/100 m) when bit 0 is set and total distance (uint32, 1/10 m) when bit 1 is set,
/// little-endian. Bit 2 says running (set) or walking.
public struct RSCMeasurement: Sendable, Equatable {
    /// Speed in 1/256 m/s, as sent.
    public var speed256: UInt16
    /// Steps per minute.
    public var cadence: UInt8
    /// Centimetres, when present.
    public var strideLengthCentimetres: UInt16?
    /// Decimetres since the footpod was reset, when present (wraps at 2^32).
    public var totalDistanceDecimetres: UInt32?
    /// Flags bit 2: running (true) or walking.
    public var isRunning: Bool
    /// Flags bits 3-7 (reserved for future use), kept as received.
    public var reservedFlags: UInt8

    public init(speed256: UInt16, cadence: UInt8, strideLengthCentimetres: UInt16? = nil, totalDistanceDecimetres: UInt32? = nil,
                isRunning: Bool = false, reservedFlags: UInt8 = 0) {
        self.speed256 = speed256; self.cadence = cadence; self.strideLengthCentimetres = strideLengthCentimetres
        self.totalDistanceDecimetres = totalDistanceDecimetres; self.isRunning = isRunning; self.reservedFlags = reservedFlags & 0xF8
    }

    /// Metres per second.
    public var speed: Double { Double(speed256) / 256 }

    /// Parses a notification value: every flag combination; a value shorter than its flags
    /// promise is an error naming the field; extra bytes are ignored.
    public static func parse(_ bytes: some Collection<UInt8>) throws(BikeSensorMeasurementError) -> RSCMeasurement {
        var r = try BikeSensorBytes(bytes)
        let flags = r.u8()
        try r.need(2, "instantaneous speed")
        let speed = r.u16()
        try r.need(1, "instantaneous cadence")
        var m = RSCMeasurement(speed256: speed, cadence: r.u8(), isRunning: flags & 0x04 != 0, reservedFlags: flags)
        if flags & 0x01 != 0 {
            try r.need(2, "instantaneous stride length")
            m.strideLengthCentimetres = r.u16()
        }
        if flags & 0x02 != 0 {
            try r.need(4, "total distance")
            m.totalDistanceDecimetres = UInt32(r.u16()) | UInt32(r.u16()) << 16
        }
        return m
    }

    /// The notification value (what a footpod would send).
    public func encoded() -> [UInt8] {
        var flags = reservedFlags & 0xF8
        if strideLengthCentimetres != nil { flags |= 0x01 }
        if totalDistanceDecimetres != nil { flags |= 0x02 }
        if isRunning { flags |= 0x04 }
        var out: [UInt8] = [flags]
        func u16(_ v: UInt32) { out += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
        u16(UInt32(speed256))
        out.append(cadence)
        if let s = strideLengthCentimetres { u16(UInt32(s)) }
        if let d = totalDistanceDecimetres { u16(d); u16(d >> 16) }
        return out
    }
}
