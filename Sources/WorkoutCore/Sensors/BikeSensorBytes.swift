/// A little-endian reader over a bike sensor's notification value (Cycling Power 0x2A63, CSC
/// 0x2A5B): each field is checked for length before it is read, and a short value is an error
/// naming the field. The revolution fields both characteristics share are read here once.
struct BikeSensorBytes {
    private let bytes: [UInt8]
    private(set) var index = 0

    init(_ bytes: some Collection<UInt8>) throws(BikeSensorMeasurementError) {
        self.bytes = Array(bytes)
        guard !self.bytes.isEmpty else { throw .empty }
    }

    /// Throws unless `n` more bytes are there for `field`.
    func need(_ n: Int, _ field: String) throws(BikeSensorMeasurementError) {
        if bytes.count - index < n { throw .truncated(field: field, needed: n, remaining: bytes.count - index) }
    }

    mutating func u8() -> UInt8 { defer { index += 1 }; return bytes[index] }
    mutating func u16() -> UInt16 { let v = UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8; index += 2; return v }
    mutating func s16() -> Int { Int(Int16(bitPattern: u16())) }
    mutating func u24() -> Int { let v = Int(bytes[index]) | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2]) << 16; index += 3; return v }

    /// Wheel revolution data: uint32 cumulative revolutions and uint16 last event time.
    mutating func wheel(ticksPerSecond: Int) throws(BikeSensorMeasurementError) -> RevolutionData {
        try need(6, "wheel revolution data")
        let revs = UInt32(u16()) | UInt32(u16()) << 16
        return RevolutionData(revolutions: revs, eventTime: u16(), ticksPerSecond: ticksPerSecond)
    }

    /// Crank revolution data: uint16 cumulative revolutions and uint16 last event time (1/1024 s).
    mutating func crank() throws(BikeSensorMeasurementError) -> RevolutionData {
        try need(4, "crank revolution data")
        let revs = UInt32(u16())
        return RevolutionData(revolutions: revs, eventTime: u16(), ticksPerSecond: 1024)
    }
}
