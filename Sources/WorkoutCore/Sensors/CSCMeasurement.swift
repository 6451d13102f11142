/// One notification of the Bluetooth CSC Measurement characteristic (0x2A5B, Cycling Speed and
/// Cadence Service 1.0, section 3.1): 8-bit flags, then wheel revolutions (uint32 + uint16 event
/// time, 1/1024 s) when bit 0 is set and crank revolutions (uint16 + uint16 event time, 1/1024 s)
/// when bit 1 is set, little-endian.
public struct CSCMeasurement: Sendable, Equatable {
    public var wheel: RevolutionData?
    public var crank: RevolutionData?
    /// Flags bits 2-7 (reserved for future use), kept as received.
    public var reservedFlags: UInt8

    public init(wheel: RevolutionData? = nil, crank: RevolutionData? = nil, reservedFlags: UInt8 = 0) {
        self.wheel = wheel; self.crank = crank; self.reservedFlags = reservedFlags & 0xFC
    }

    /// Parses a notification value: every flag combination; a value shorter than its flags
    /// promise is an error naming the field; extra bytes are ignored.
    public static func parse(_ bytes: some Collection<UInt8>) throws(BikeSensorMeasurementError) -> CSCMeasurement {
        var r = try BikeSensorBytes(bytes)
        let flags = r.u8()
        var m = CSCMeasurement(reservedFlags: flags & 0xFC)
        if flags & 0x01 != 0 { m.wheel = try r.wheel(ticksPerSecond: 1024) }
        if flags & 0x02 != 0 { m.crank = try r.crank() }
        return m
    }

    /// The notification value (crank revolutions must fit 16 bits).
    public func encoded() -> [UInt8] {
        var flags = reservedFlags & 0xFC
        if wheel != nil { flags |= 0x01 }
        if crank != nil { flags |= 0x02 }
        var out: [UInt8] = [flags]
        func u16(_ v: UInt32) { out += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
        if let w = wheel { u16(w.revolutions); u16(w.revolutions >> 16); u16(UInt32(w.eventTime)) }
        if let c = crank { u16(c.revolutions); u16(UInt32(c.eventTime)) }
        return out
    }
}
