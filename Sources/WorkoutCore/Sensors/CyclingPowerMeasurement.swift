/// One notification of the Bluetooth Cycling Power Measurement characteristic (0x2A63, Cycling
/// Power Service 1.1, section 3.2): 16-bit flags, instantaneous power (sint16, W), then the
/// optional fields in flag order, little-endian: pedal power balance (uint8, 1/2 %), accumulated
/// torque (uint16, 1/32 N m), wheel revolutions (uint32 + uint16 event time, 1/2048 s), crank
/// revolutions (uint16 + uint16 event time, 1/1024 s), extreme force magnitudes (2 x sint16, N),
/// extreme torque magnitudes (2 x sint16, 1/32 N m), extreme angles (2 x uint12 in 3 bytes,
/// degrees), top and bottom dead spot angles (uint16, degrees), accumulated energy (uint16, kJ).
public struct CyclingPowerMeasurement: Sendable, Equatable {
    /// Watts (may be negative: the spec's type is sint16).
    public var watts: Int
    /// Percent of the power from the reference pedal (0.5 % resolution), when present.
    public var pedalPowerBalancePercent: Double?
    /// Whether the balance refers to the left pedal (flags bit 1; false: unknown).
    public var balanceReferenceIsLeft: Bool
    /// In 1/32 N m, when present; `torqueSourceIsCrank` says where it was measured (bit 3).
    public var accumulatedTorque: UInt16?
    public var torqueSourceIsCrank: Bool
    public var wheel: RevolutionData?
    public var crank: RevolutionData?
    /// Newtons (max, min), when present.
    public var extremeForces: (max: Int, min: Int)?
    /// 1/32 N m (max, min), when present.
    public var extremeTorques: (max: Int, min: Int)?
    /// Degrees (max, min), 12 bits each, when present.
    public var extremeAngles: (max: Int, min: Int)?
    public var topDeadSpotAngle: Int?
    public var bottomDeadSpotAngle: Int?
    public var accumulatedEnergyKilojoules: Int?
    /// Flags bit 12.
    public var offsetCompensation: Bool
    /// Flags bits 13-15 (reserved for future use), kept as received.
    public var reservedFlags: UInt16

    public init(watts: Int) {
        self.watts = watts
        balanceReferenceIsLeft = false; torqueSourceIsCrank = false; offsetCompensation = false; reservedFlags = 0
    }

    public static func == (a: CyclingPowerMeasurement, b: CyclingPowerMeasurement) -> Bool {
        a.watts == b.watts && a.pedalPowerBalancePercent == b.pedalPowerBalancePercent && a.balanceReferenceIsLeft == b.balanceReferenceIsLeft
            && a.accumulatedTorque == b.accumulatedTorque && a.torqueSourceIsCrank == b.torqueSourceIsCrank && a.wheel == b.wheel
            && a.crank == b.crank && a.extremeForces.map { [$0.max, $0.min] } == b.extremeForces.map { [$0.max, $0.min] }
            && a.extremeTorques.map { [$0.max, $0.min] } == b.extremeTorques.map { [$0.max, $0.min] }
            && a.extremeAngles.map { [$0.max, $0.min] } == b.extremeAngles.map { [$0.max, $0.min] }
            && a.topDeadSpotAngle == b.topDeadSpotAngle && a.bottomDeadSpotAngle == b.bottomDeadSpotAngle
            && a.accumulatedEnergyKilojoules == b.accumulatedEnergyKilojoules && a.offsetCompensation == b.offsetCompensation
            && a.reservedFlags == b.reservedFlags
    }

    /// Parses a notification value. Every flag combination is accepted; a value shorter than its
    /// flags promise is an error naming the field; bytes after the last flagged field are ignored
    /// (fields of a later version of the spec).
    public static func parse(_ bytes: some Collection<UInt8>) throws(BikeSensorMeasurementError) -> CyclingPowerMeasurement {
        var r = try BikeSensorBytes(bytes)
        try r.need(2, "flags")
        let flags = r.u16()
        try r.need(2, "instantaneous power")
        var m = CyclingPowerMeasurement(watts: r.s16())
        m.balanceReferenceIsLeft = flags & 0x0002 != 0
        m.torqueSourceIsCrank = flags & 0x0008 != 0
        m.offsetCompensation = flags & 0x1000 != 0
        m.reservedFlags = flags & 0xE000
        if flags & 0x0001 != 0 {
            try r.need(1, "pedal power balance")
            m.pedalPowerBalancePercent = Double(r.u8()) / 2
        }
        if flags & 0x0004 != 0 {
            try r.need(2, "accumulated torque")
            m.accumulatedTorque = r.u16()
        }
        if flags & 0x0010 != 0 { m.wheel = try r.wheel(ticksPerSecond: 2048) }
        if flags & 0x0020 != 0 { m.crank = try r.crank() }
        if flags & 0x0040 != 0 {
            try r.need(4, "extreme force magnitudes")
            let mx = r.s16(); m.extremeForces = (mx, r.s16())
        }
        if flags & 0x0080 != 0 {
            try r.need(4, "extreme torque magnitudes")
            let mx = r.s16(); m.extremeTorques = (mx, r.s16())
        }
        if flags & 0x0100 != 0 {
            try r.need(3, "extreme angles")
            let v = r.u24()
            m.extremeAngles = (v & 0xFFF, v >> 12)
        }
        if flags & 0x0200 != 0 {
            try r.need(2, "top dead spot angle")
            m.topDeadSpotAngle = Int(r.u16())
        }
        if flags & 0x0400 != 0 {
            try r.need(2, "bottom dead spot angle")
            m.bottomDeadSpotAngle = Int(r.u16())
        }
        if flags & 0x0800 != 0 {
            try r.need(2, "accumulated energy")
            m.accumulatedEnergyKilojoules = Int(r.u16())
        }
        return m
    }

    /// The notification value for this measurement (what a power meter would send); values must
    /// be in their fields' ranges (balance a multiple of 0.5 up to 127.5, angles below 4096).
    public func encoded() -> [UInt8] {
        var flags = reservedFlags & 0xE000
        if pedalPowerBalancePercent != nil { flags |= 0x0001 }
        if balanceReferenceIsLeft { flags |= 0x0002 }
        if accumulatedTorque != nil { flags |= 0x0004 }
        if torqueSourceIsCrank { flags |= 0x0008 }
        if wheel != nil { flags |= 0x0010 }
        if crank != nil { flags |= 0x0020 }
        if extremeForces != nil { flags |= 0x0040 }
        if extremeTorques != nil { flags |= 0x0080 }
        if extremeAngles != nil { flags |= 0x0100 }
        if topDeadSpotAngle != nil { flags |= 0x0200 }
        if bottomDeadSpotAngle != nil { flags |= 0x0400 }
        if accumulatedEnergyKilojoules != nil { flags |= 0x0800 }
        if offsetCompensation { flags |= 0x1000 }
        var out: [UInt8] = []
        func u16(_ v: Int) { out += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }
        u16(Int(flags))
        u16(watts)
        if let p = pedalPowerBalancePercent { out.append(UInt8(truncatingIfNeeded: Int((p * 2).rounded()))) }
        if let t = accumulatedTorque { u16(Int(t)) }
        if let w = wheel { u16(Int(w.revolutions & 0xFFFF)); u16(Int(w.revolutions >> 16)); u16(Int(w.eventTime)) }
        if let c = crank { u16(Int(c.revolutions & 0xFFFF)); u16(Int(c.eventTime)) }
        if let f = extremeForces { u16(f.max); u16(f.min) }
        if let t = extremeTorques { u16(t.max); u16(t.min) }
        if let a = extremeAngles {
            let v = (a.max & 0xFFF) | (a.min & 0xFFF) << 12
            out += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)]
        }
        if let t = topDeadSpotAngle { u16(t) }
        if let t = bottomDeadSpotAngle { u16(t) }
        if let e = accumulatedEnergyKilojoules { u16(e) }
        return out
    }
}
