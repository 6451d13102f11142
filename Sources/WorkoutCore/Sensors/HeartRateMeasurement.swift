/// Whether a strap can tell that it touches the skin, and whether it does (Heart Rate
/// Measurement flags bits 1-2).
public enum SensorContact: String, Sendable, Equatable, CaseIterable {
    /// The strap has no contact detection (bit 2 clear; bit 1 means nothing then).
    case notSupported = "not_supported"
    /// Supported and not detected: the strap is off the skin, its value is not a heart rate.
    case notDetected = "not_detected"
    /// Supported and detected.
    case detected

    /// Whether the value may be recorded as a heart rate.
    public var allowsReading: Bool {
        switch self {
        case .notSupported, .detected: return true
        case .notDetected: return false
        }
    }
}

/// Why bytes are not a Heart Rate Measurement.
public enum HeartRateMeasurementError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    /// The flags promise a field the value is too short for (field name, bytes needed, bytes left).
    case truncated(field: String, needed: Int, remaining: Int)
    /// RR intervals are 2 bytes each; one byte was left over.
    case oddRRBytes(Int)

    public var description: String {
        switch self {
        case .empty: return "empty heart rate measurement"
        case .truncated(let f, let n, let r): return "heart rate measurement too short for \(f) (needs \(n) bytes, \(r) left)"
        case .oddRRBytes(let n): return "heart rate measurement has \(n) bytes of RR intervals (not a multiple of 2)"
        }
    }
}

/// One notification of the Bluetooth Heart Rate Measurement characteristic (0x2A37, Heart Rate
/// Service 1.0, section 3.1): flags, an 8- or 16-bit heart rate, optional energy expended (kJ,
/// 16 bit) and any number of RR intervals (16 bit, units of 1/1024 s), little-endian.
public struct HeartRateMeasurement: Sendable, Equatable {
    /// Beats per minute. 0 is what many straps send while they have no reading.
    public var bpm: Int
    /// Whether the 16-bit format was used (kept so `encoded()` reproduces the value).
    public var sixteenBit: Bool
    public var contact: SensorContact
    /// Cumulative energy expended in kilojoules since the strap's last reset, when present.
    public var energyExpendedKilojoules: Int?
    /// RR intervals in 1/1024 s as sent, oldest first; empty when the strap sent none.
    public var rrIntervals1024: [UInt16]
    /// Flags bits 5-7 (reserved for future use), kept as received.
    public var reservedFlags: UInt8

    public init(bpm: Int, sixteenBit: Bool = false, contact: SensorContact = .notSupported,
                energyExpendedKilojoules: Int? = nil, rrIntervals1024: [UInt16] = [], reservedFlags: UInt8 = 0) {
        self.bpm = bpm; self.sixteenBit = sixteenBit; self.contact = contact
        self.energyExpendedKilojoules = energyExpendedKilojoules; self.rrIntervals1024 = rrIntervals1024
        self.reservedFlags = reservedFlags & 0xE0
    }

    /// RR intervals in seconds.
    public var rrSeconds: [Double] { rrIntervals1024.map { Double($0) / 1024 } }

    /// Whether this notification carries a heart rate to record: contact not lost and a value
    /// above zero.
    public var isReading: Bool { contact.allowsReading && bpm > 0 }

    /// Parses a notification value. Every flag combination is accepted; a value shorter than its
    /// flags promise, or RR bytes that are not pairs, is an error. Extra bytes cannot occur: with
    /// the RR flag they are RR intervals, without it they are ignored (future fields).
    public static func parse(_ bytes: some Collection<UInt8>) throws(HeartRateMeasurementError) -> HeartRateMeasurement {
        let b = Array(bytes)
        guard let flags = b.first else { throw .empty }
        var i = 1
        func need(_ n: Int, _ field: String) throws(HeartRateMeasurementError) {
            if b.count - i < n { throw .truncated(field: field, needed: n, remaining: b.count - i) }
        }
        func u16() -> Int { let v = Int(b[i]) | Int(b[i + 1]) << 8; i += 2; return v }
        let sixteen = flags & 0x01 != 0
        let bpm: Int
        if sixteen {
            try need(2, "16-bit heart rate")
            bpm = u16()
        } else {
            try need(1, "8-bit heart rate")
            bpm = Int(b[i]); i += 1
        }
        let contact: SensorContact = flags & 0x04 == 0 ? .notSupported : (flags & 0x02 != 0 ? .detected : .notDetected)
        var energy: Int?
        if flags & 0x08 != 0 {
            try need(2, "energy expended")
            energy = u16()
        }
        var rr: [UInt16] = []
        if flags & 0x10 != 0 {
            let left = b.count - i
            if left % 2 != 0 { throw .oddRRBytes(left) }
            rr.reserveCapacity(left / 2)
            while i < b.count { rr.append(UInt16(u16())) }
        }
        return HeartRateMeasurement(bpm: bpm, sixteenBit: sixteen, contact: contact, energyExpendedKilojoules: energy,
                                    rrIntervals1024: rr, reservedFlags: flags & 0xE0)
    }

    /// The notification value for this measurement (what a strap would send). With `sixteenBit`
    /// false, `bpm` must be below 256; RR intervals are flagged only when there are some.
    public func encoded() -> [UInt8] {
        var flags = reservedFlags & 0xE0
        if sixteenBit { flags |= 0x01 }
        switch contact {
        case .notSupported: break
        case .notDetected: flags |= 0x04
        case .detected: flags |= 0x06
        }
        if energyExpendedKilojoules != nil { flags |= 0x08 }
        if !rrIntervals1024.isEmpty { flags |= 0x10 }
        var out: [UInt8] = [flags]
        if sixteenBit { out += [UInt8(bpm & 0xFF), UInt8(bpm >> 8 & 0xFF)] } else { out.append(UInt8(bpm & 0xFF)) }
        if let e = energyExpendedKilojoules { out += [UInt8(e & 0xFF), UInt8(e >> 8 & 0xFF)] }
        for r in rrIntervals1024 { out += [UInt8(r & 0xFF), UInt8(r >> 8)] }
        return out
    }
}
