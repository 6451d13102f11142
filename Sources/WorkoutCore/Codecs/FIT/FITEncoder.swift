/// Builds a FIT file message by message: definitions (little-endian) and data messages, then the
/// 14-byte header with its CRC and the file CRC. What `FITWriter` writes with (and what tests
/// use to build files a device would write, such as multisport ones). Developer fields (a
/// definition's fields described by `field_description` messages) carry what the profile has no
/// field for, such as a workout's title (`FITWriter`).
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

    /// A developer field of a definition: `size` bytes of text (FIT base type string, UTF-8,
    /// NUL-padded), the field `number` of developer data `index` (its `field_description`).
    public struct DeveloperText: Sendable {
        public var number: UInt8
        public var size: UInt8
        public var index: UInt8
        public init(number: UInt8, size: UInt8, index: UInt8) { self.number = number; self.size = size; self.index = index }
    }

    public private(set) var data: [UInt8] = []
    private var layouts = [[FieldDefinition]](repeating: [], count: 16)
    private var bigEndian = [Bool](repeating: false, count: 16)
    private var developerLayouts = [[DeveloperText]](repeating: [], count: 16)

    public init(capacity: Int = 4096) { data.reserveCapacity(capacity) }

    /// A definition message for `local` (0-15): data messages of that local type carry `fields`
    /// (little-endian unless `bigEndian`).
    public mutating func define(local: UInt8, global: UInt16, _ fields: [FieldDefinition], bigEndian big: Bool = false,
                                developer: [DeveloperText] = []) {
        precondition(local < 16 && fields.count < 256 && developer.count < 256)
        data.append(developer.isEmpty ? 0x40 | local : 0x60 | local)
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
        if !developer.isEmpty {
            data.append(UInt8(developer.count))
            for d in developer { data += [d.number, d.size, d.index] }
        }
        layouts[Int(local)] = fields
        bigEndian[Int(local)] = big
        developerLayouts[Int(local)] = developer
    }

    /// `text` as a FIT string field of `size` bytes: UTF-8 cut at a character's boundary to
    /// leave room for the NUL, then NUL-padded.
    public static func textBytes(_ text: String, size: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(size)
        for ch in text {
            let utf8 = Array(String(ch).utf8)
            guard out.count + utf8.count <= size - 1 else { break }
            out += utf8
        }
        return out + [UInt8](repeating: 0, count: size - out.count)
    }

    /// A string field's size for `text` (its UTF-8 and a NUL, at most 255 bytes: a FIT field's
    /// largest; longer text is cut by `textBytes`).
    public static func textSize(_ text: String) -> UInt8 { UInt8(min(text.utf8.count + 1, 255)) }

    /// Appends bytes as they are (tests: hand-made messages).
    public mutating func appendRaw(_ bytes: [UInt8]) { data += bytes }

    /// A data message of `local`: one value per field of its definition, in order; nil (or a
    /// value outside the type's range) is written as the type's invalid value.
    /// `texts` give the definition's developer fields, in order.
    public mutating func message(local: UInt8, _ values: [Int64?], texts: [String] = []) {
        let fields = layouts[Int(local)]
        let big = bigEndian[Int(local)]
        let developer = developerLayouts[Int(local)]
        precondition(values.count == fields.count, "FIT message: \(values.count) values for \(fields.count) fields")
        precondition(texts.count == developer.count, "FIT message: \(texts.count) texts for \(developer.count) developer fields")
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
        for (d, text) in zip(developer, texts) { data += Self.textBytes(text, size: Int(d.size)) }
    }

    /// A `developer_data_id` message (global 207) for developer data `index`: the application's
    /// 16-byte ID and version. Uses local type `local`.
    public mutating func developerDataID(local: UInt8, index: UInt8, application: [UInt8], version: UInt32) {
        precondition(application.count == 16)
        data += [0x40 | local, 0, 0, 207, 0, 3, 1, 16, 0x0D, 3, 1, 0x02, 4, 4, 0x86]
        layouts[Int(local)] = []
        developerLayouts[Int(local)] = []
        data.append(local)
        data += application
        data.append(index)
        for k in 0..<4 { data.append(UInt8(truncatingIfNeeded: version >> UInt32(8 * k))) }
    }

    /// A `field_description` message (global 206): developer data `index`'s field `number` is
    /// text (base type string) called `name`, found in messages of global `native` (none: 0xFFFF).
    /// Uses local type `local`.
    public mutating func describeText(local: UInt8, index: UInt8, number: UInt8, name: String, native: UInt16) {
        let nameSize = Self.textSize(name)
        // developer_data_index, field_definition_number, fit_base_type_id, field_name, native_mesg_num.
        data += [0x40 | local, 0, 0, 206, 0, 5, 0, 1, 0x02, 1, 1, 0x02, 2, 1, 0x02, 3, nameSize, 0x07, 14, 2, 0x84]
        layouts[Int(local)] = []
        developerLayouts[Int(local)] = []
        data.append(local)
        data += [index, number, 0x07]
        data += Self.textBytes(name, size: Int(nameSize))
        data += [UInt8(native & 0xFF), UInt8(native >> 8)]
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
