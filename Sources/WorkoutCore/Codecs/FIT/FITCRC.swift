/// The FIT protocol's CRC-16 (polynomial 0xA001, reflected, initial 0). `update` is the
/// protocol's own nibble-at-a-time form with its 16-entry table; `checksum` gives the same
/// value eight bytes at a time from tables derived from it (a file is checked whole before its
/// messages are read: the nibble form cost ~8 instructions a byte). A file's last two bytes are
/// the CRC of everything before them (header and data); a 14-byte header carries the CRC of its
/// first 12 bytes.
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

    /// Slicing-by-8: entry `256 * k + x` is the CRC register after byte `x` followed by `k`
    /// zero bytes, from a register of 0 (k = 0 is the classic byte-at-a-time table).
    static let slices: [UInt16] = {
        var t = [UInt16](repeating: 0, count: 8 * 256)
        for x in 0..<256 { t[x] = update(0, UInt8(x)) }
        for k in 1..<8 {
            for x in 0..<256 {
                let prev = t[256 * (k - 1) + x]
                t[256 * k + x] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        return t
    }()

    public static func checksum(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, initial: UInt16 = 0) -> UInt16 {
        precondition(from >= 0 && to <= bytes.count, "FITCRC: range outside the buffer")
        var c = initial
        var i = from
        guard i < to, let b = bytes.baseAddress else { return c }
        slices.withUnsafeBufferPointer { tb in
            let t = tb.baseAddress!
            while to - i >= 8 {
                let x = c ^ (UInt16(b[i]) | UInt16(b[i + 1]) << 8)
                c = t[7 * 256 + Int(x & 0xFF)] ^ t[6 * 256 + Int(x >> 8)]
                    ^ t[5 * 256 + Int(b[i + 2])] ^ t[4 * 256 + Int(b[i + 3])]
                    ^ t[3 * 256 + Int(b[i + 4])] ^ t[2 * 256 + Int(b[i + 5])]
                    ^ t[1 * 256 + Int(b[i + 6])] ^ t[Int(b[i + 7])]
                i += 8
            }
            while i < to {
                c = (c >> 8) ^ t[Int((c ^ UInt16(b[i])) & 0xFF)]
                i += 1
            }
        }
        return c
    }

    public static func checksum(_ bytes: [UInt8], initial: UInt16 = 0) -> UInt16 {
        bytes.withUnsafeBufferPointer { checksum($0, from: 0, to: $0.count, initial: initial) }
    }
}
