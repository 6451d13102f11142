/// The FIT protocol's CRC-16 (polynomial 0xA001, reflected, initial 0), computed a nibble at a
/// time with the protocol's 16-entry table. A file's last two bytes are the CRC of everything
/// before them (header and data); a 14-byte header carries the CRC of its first 12 bytes.
public enum FITCRC {
    static let table: [UInt16] = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
                                  0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]

    @inline(__always)
    static func update(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        var c = crc
        var tmp = table[Int(c & 0xF)]
        c = (c >> 4) & 0x0FFF
        c = c ^ tmp ^ table[Int(byte & 0xF)]
        tmp = table[Int(c & 0xF)]
        c = (c >> 4) & 0x0FFF
        return c ^ tmp ^ table[Int((byte >> 4) & 0xF)]
    }

    public static func checksum(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, initial: UInt16 = 0) -> UInt16 {
        var c = initial
        var i = from
        while i < to { c = update(c, bytes[i]); i += 1 }
        return c
    }

    public static func checksum(_ bytes: [UInt8], initial: UInt16 = 0) -> UInt16 {
        bytes.withUnsafeBufferPointer { checksum($0, from: 0, to: $0.count, initial: initial) }
    }
}
