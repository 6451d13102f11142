/// Builds a FIT file message by message: definitions (little-endian) and data messages, then the
/// 14-byte header with its CRC and the file CRC. What `FITWriter` writes with (and what tests
/// use to build files a device would write, such as multisport ones).
public struct FITEncoder {
    /// Base types of the FIT protocol.
    public enum BaseType: UInt8, Sendable {
        case enumeration = 0x00, sint8 = 0x01, uint8 = 0x02, sint16 = 0x83, uint16 = 0x84, sint32 = 0x85, uint32 = 0x86
        case uint32z = 0x8C

        var size: UInt8 {
            switch self {
            case .enumeration, .sint8, .uint8: return 1
            case .sint16, .uint16: return 2
            case .sint32, .uint32, .uint32z: return 4
            }
        }

        /// The "invalid" (absent) value of the type, as raw bits.
        var invalid: UInt64 {
            switch self {
            case .enumeration, .uint8: return 0xFF
            case .sint8: return 0x7F
            case .sint16: return 0x7FFF
            case .uint16: return 0xFFFF
            case .sint32: return 0x7FFF_FFFF
            case .uint32: return 0xFFFF_FFFF
            case .uint32z: return 0
            }
        }
    }

    public struct FieldDefinition: Sendable {
        public var number: UInt8
        public var type: BaseType
        public init(_ number: UInt8, _ type: BaseType) { self.number = number; self.type = type }
    }

    public private(set) var data: [UInt8] = []
    private var layouts = [[FieldDefinition]](repeating: [], count: 16)
    private var bigEndian = [Bool](repeating: false, count: 16)

    public init(capacity: Int = 4096) { data.reserveCapacity(capacity) }

    /// A definition message for `local` (0-15): data messages of that local type carry `fields`
    /// (little-endian unless `bigEndian`).
    public mutating func define(local: UInt8, global: UInt16, _ fields: [FieldDefinition], bigEndian big: Bool = false) {
        precondition(local < 16 && fields.count < 256)
        data.append(0x40 | local)
        data.append(0)  // reserved
        data.append(big ? 1 : 0)
        if big {
            data.append(UInt8(global >> 8))
            data.append(UInt8(global & 0xFF))
        } else {
            data.append(UInt8(global & 0xFF))
            data.append(UInt8(global >> 8))
        }
        data.append(UInt8(fields.count))
        for f in fields {
            data.append(f.number)
            data.append(f.type.size)
            data.append(f.type.rawValue)
        }
        layouts[Int(local)] = fields
        bigEndian[Int(local)] = big
    }

    /// Appends bytes as they are (tests: hand-made messages).
    public mutating func appendRaw(_ bytes: [UInt8]) { data += bytes }

    /// A data message of `local`: one value per field of its definition, in order; nil (or a
    /// value outside the type's range) is written as the type's invalid value.
    public mutating func message(local: UInt8, _ values: [Int64?]) {
        let fields = layouts[Int(local)]
        let big = bigEndian[Int(local)]
        precondition(values.count == fields.count, "FIT message: \(values.count) values for \(fields.count) fields")
        data.append(local)
        for (f, v) in zip(fields, values) {
            var bits = f.type.invalid
            if let v {
                switch f.type {
                case .enumeration, .uint8: if v >= 0 && v < 0xFF { bits = UInt64(v) }
                case .sint8: if v >= -128 && v < 0x7F { bits = UInt64(bitPattern: v) }
                case .uint16: if v >= 0 && v < 0xFFFF { bits = UInt64(v) }
                case .sint16: if v >= -32768 && v < 0x7FFF { bits = UInt64(bitPattern: v) }
                case .uint32: if v >= 0 && v < 0xFFFF_FFFF { bits = UInt64(v) }
                case .uint32z: if v > 0 && v <= 0xFFFF_FFFF { bits = UInt64(v) }
                case .sint32: if v >= -2_147_483_648 && v < 0x7FFF_FFFF { bits = UInt64(bitPattern: v) }
                }
            }
            let n = Int(f.type.size)
            for k in 0..<n { data.append(UInt8(truncatingIfNeeded: bits >> UInt64(8 * (big ? n - 1 - k : k)))) }
        }
    }

    /// The whole file: 14-byte header (protocol 2.0, profile 21.40, header CRC), the messages,
    /// and the CRC of both.
    public func file() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 16)
        let size = UInt32(data.count)
        let profile: UInt16 = 2140
        out += [14, 0x20, UInt8(profile & 0xFF), UInt8(profile >> 8),
                UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24),
                0x2E, 0x46, 0x49, 0x54]
        let hc = FITCRC.checksum(out)
        out += [UInt8(hc & 0xFF), UInt8(hc >> 8)]
        out += data
        let c = FITCRC.checksum(out)
        out += [UInt8(c & 0xFF), UInt8(c >> 8)]
        return out
    }
}
