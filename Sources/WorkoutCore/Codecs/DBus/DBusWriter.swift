/// Marshals values into a message being built. Offsets (and so padding) count from the start
/// of the message, which is why the header and the body are written by one writer.
public struct DBusWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    public let endianness: DBusEndianness

    public init(endianness: DBusEndianness = .little) { self.endianness = endianness }

    public static let maximumArrayLength = 1 << 26  // 64 MiB, the specification's limit

    mutating func pad(to n: Int) {
        while bytes.count % n != 0 { bytes.append(0) }
    }

    mutating func writeByte(_ v: UInt8) { bytes.append(v) }

    mutating func write16(_ v: UInt16) {
        pad(to: 2)
        let x = endianness == .little ? v.littleEndian : v.bigEndian
        withUnsafeBytes(of: x) { bytes.append(contentsOf: $0) }
    }

    mutating func write32(_ v: UInt32) {
        pad(to: 4)
        let x = endianness == .little ? v.littleEndian : v.bigEndian
        withUnsafeBytes(of: x) { bytes.append(contentsOf: $0) }
    }

    mutating func write64(_ v: UInt64) {
        pad(to: 8)
        let x = endianness == .little ? v.littleEndian : v.bigEndian
        withUnsafeBytes(of: x) { bytes.append(contentsOf: $0) }
    }

    /// Overwrites a uint32 written earlier (an array's length, the body length).
    mutating func patch32(at offset: Int, _ v: UInt32) {
        let x = endianness == .little ? v.littleEndian : v.bigEndian
        withUnsafeBytes(of: x) { raw in for i in 0..<4 { bytes[offset + i] = raw[i] } }
    }

    mutating func writeString(_ s: String) throws(DBusCodecError) {
        let utf8 = Array(s.utf8)
        guard !utf8.contains(0) else { throw .invalidString(offset: bytes.count, reason: "contains a NUL byte") }
        write32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
        bytes.append(0)
    }

    mutating func writeSignature(_ s: String) throws(DBusCodecError) {
        _ = try DBusType.parse(s)
        let utf8 = Array(s.utf8)
        bytes.append(UInt8(utf8.count))
        bytes.append(contentsOf: utf8)
        bytes.append(0)
    }

    /// Writes `value`, which must be of type `type` (checked: a mismatch is an error, not a
    /// malformed message).
    public mutating func write(_ value: DBusValue, as type: DBusType) throws(DBusCodecError) {
        guard value.type == type else { throw .valueDoesNotMatchType(expected: type.signature, found: value.type.signature) }
        try write(value)
    }

    /// Writes `value` with its own type.
    public mutating func write(_ value: DBusValue) throws(DBusCodecError) {
        switch value {
        case .byte(let v): writeByte(v)
        case .boolean(let v): write32(v ? 1 : 0)
        case .int16(let v): write16(UInt16(bitPattern: v))
        case .uint16(let v): write16(v)
        case .int32(let v): write32(UInt32(bitPattern: v))
        case .uint32(let v): write32(v)
        case .unixFD(let v): write32(v)
        case .int64(let v): write64(UInt64(bitPattern: v))
        case .uint64(let v): write64(v)
        case .double(let v): write64(v.bitPattern)
        case .string(let s): try writeString(s)
        case .objectPath(let p):
            guard DBusNames.isValidObjectPath(p) else { throw .invalidObjectPath(p) }
            try writeString(p)
        case .signature(let s): try writeSignature(s)
        case .variant(let inner):
            try writeSignature(inner.type.signature)
            try write(inner)
        case .array(let element, let items):
            write32(0)
            let lengthAt = bytes.count - 4
            pad(to: element.alignment)
            let start = bytes.count
            for item in items { try write(item, as: element) }
            let length = bytes.count - start
            guard length <= DBusWriter.maximumArrayLength else { throw .arrayTooLong(length, limit: DBusWriter.maximumArrayLength) }
            patch32(at: lengthAt, UInt32(length))
        case .dictEntry(let k, let v):
            guard k.type.isBasic else { throw .invalidSignature(value.type.signature, reason: "a dict entry's key must be a basic type") }
            pad(to: 8)
            try write(k)
            try write(v)
        case .structure(let fields):
            guard !fields.isEmpty else { throw .invalidSignature("()", reason: "empty struct") }
            pad(to: 8)
            for f in fields { try write(f) }
        }
    }
}
