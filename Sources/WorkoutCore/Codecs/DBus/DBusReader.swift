/// Unmarshals values from a whole message held in memory. Every length is checked against the
/// bytes actually present before anything is read or allocated, containers (variants included)
/// nest at most 64 deep, and padding must be zero, so malformed input is an error, never a trap.
public struct DBusReader {
    let bytes: [UInt8]
    public private(set) var offset: Int
    /// Reading stops here (the end of the header fields, or of the body).
    var limit: Int
    public let endianness: DBusEndianness
    /// How many fds the message carries (its UNIX_FDS header field): fd indices must be below.
    var fdCount: UInt32 = .max
    private var depth = 0

    public init(bytes: [UInt8], offset: Int = 0, limit: Int? = nil, endianness: DBusEndianness) {
        self.bytes = bytes
        self.offset = offset
        self.limit = min(limit ?? bytes.count, bytes.count)
        self.endianness = endianness
    }

    public var atEnd: Bool { offset >= limit }

    mutating func need(_ n: Int) throws(DBusCodecError) {
        guard n <= limit - offset else { throw .truncated(offset: offset, needed: n - max(0, limit - offset)) }
    }

    mutating func align(_ n: Int) throws(DBusCodecError) {
        let target = (offset + n - 1) & ~(n - 1)
        try need(target - offset)
        while offset < target {
            guard bytes[offset] == 0 else { throw .nonZeroPadding(offset: offset) }
            offset += 1
        }
    }

    mutating func readByte() throws(DBusCodecError) -> UInt8 {
        try need(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func read16() throws(DBusCodecError) -> UInt16 { try readInteger() }
    mutating func read32() throws(DBusCodecError) -> UInt32 { try readInteger() }
    mutating func read64() throws(DBusCodecError) -> UInt64 { try readInteger() }

    /// An aligned unsigned integer of `T`'s width, in the message's byte order.
    private mutating func readInteger<T: FixedWidthInteger & UnsignedInteger>() throws(DBusCodecError) -> T {
        let size = MemoryLayout<T>.size
        try align(size); try need(size)
        var v: T = 0
        for i in 0..<size {
            let b = T(bytes[offset + i])
            v |= endianness == .little ? b << (8 * i) : b << (8 * (size - 1 - i))
        }
        offset += size
        return v
    }

    /// `length` bytes of text followed by a NUL; valid UTF-8 without NUL inside.
    mutating func readText(length: Int) throws(DBusCodecError) -> String {
        let at = offset
        try need(length + 1)
        let slice = bytes[offset..<(offset + length)]
        guard bytes[offset + length] == 0 else { throw .invalidString(offset: at, reason: "not NUL-terminated") }
        guard !slice.contains(0) else { throw .invalidString(offset: at, reason: "contains a NUL byte") }
        guard let s = String(validating: slice, as: UTF8.self) else { throw .invalidString(offset: at, reason: "not valid UTF-8") }
        offset += length + 1
        return s
    }

    mutating func readString() throws(DBusCodecError) -> String {
        let n = try read32()
        return try readText(length: Int(n))
    }

    mutating func readSignatureText() throws(DBusCodecError) -> String {
        let n = try readByte()
        return try readText(length: Int(n))
    }

    /// Reads one value of `type`.
    public mutating func read(_ type: DBusType) throws(DBusCodecError) -> DBusValue {
        switch type {
        case .byte: return .byte(try readByte())
        case .boolean:
            let at = offset
            let v = try read32()
            guard v <= 1 else { throw .invalidBoolean(v, offset: at) }
            return .boolean(v == 1)
        case .int16: return .int16(Int16(bitPattern: try read16()))
        case .uint16: return .uint16(try read16())
        case .int32: return .int32(Int32(bitPattern: try read32()))
        case .uint32: return .uint32(try read32())
        case .unixFD:
            let v = try read32()
            guard v < fdCount else { throw .unixFDOutOfRange(index: v, count: fdCount == .max ? 0 : fdCount) }
            return .unixFD(v)
        case .int64: return .int64(Int64(bitPattern: try read64()))
        case .uint64: return .uint64(try read64())
        case .double: return .double(Double(bitPattern: try read64()))
        case .string: return .string(try readString())
        case .objectPath:
            let p = try readString()
            guard DBusNames.isValidObjectPath(p) else { throw .invalidObjectPath(p) }
            return .objectPath(p)
        case .signature:
            let s = try readSignatureText()
            _ = try DBusType.parse(s)
            return .signature(s)
        case .variant:
            let s = try readSignatureText()
            let inner = try DBusType.parseSingle(s)
            try enter()
            defer { depth -= 1 }
            return .variant(try read(inner))
        case .array(let element):
            let length = Int(try read32())
            guard length <= DBusWriter.maximumArrayLength else { throw .arrayTooLong(length, limit: DBusWriter.maximumArrayLength) }
            try align(element.alignment)
            try need(length)
            let end = offset + length
            try enter()
            defer { depth -= 1 }
            if case .byte = element {
                // An `ay` (a sensor's every notification): the bytes at once, not one read each.
                let items = bytes[offset..<end].map(DBusValue.byte)
                offset = end
                return .array(element, items)
            }
            var items: [DBusValue] = []
            let outer = limit
            limit = end  // an element cannot read past the array
            defer { limit = outer }
            while offset < end {
                let before = offset
                do { items.append(try read(element)) } catch .truncated {
                    throw .arrayLengthMismatch(offset: before)
                }
            }
            return .array(element, items)
        case .dictEntry(let k, let v):
            try align(8)
            try enter()
            defer { depth -= 1 }
            let key = try read(k)
            return .dictEntry(key, try read(v))
        case .structure(let fields):
            try align(8)
            try enter()
            defer { depth -= 1 }
            var out: [DBusValue] = []
            for f in fields { out.append(try read(f)) }
            return .structure(out)
        }
    }

    /// The header's fields, `a(yv)`, as (code, the variant's value) pairs: what
    /// `read(.array(.structure([.byte, .variant])))` reads, with the same checks and errors,
    /// without a structure array and a variant box per field (every message has four to six).
    public mutating func readHeaderFields() throws(DBusCodecError) -> [(code: UInt8, value: DBusValue)] {
        let length = Int(try read32())
        guard length <= DBusWriter.maximumArrayLength else { throw .arrayTooLong(length, limit: DBusWriter.maximumArrayLength) }
        try align(8)
        try need(length)
        let end = offset + length
        try enter()
        defer { depth -= 1 }
        var fields: [(code: UInt8, value: DBusValue)] = []
        fields.reserveCapacity(8)
        let outer = limit
        limit = end
        defer { limit = outer }
        while offset < end {
            let before = offset
            do {
                try align(8)
                try enter()
                defer { depth -= 1 }
                let code = try readByte()
                let inner = try DBusType.parseSingle(try readSignatureText())
                try enter()
                defer { depth -= 1 }
                fields.append((code, try read(inner)))
            } catch .truncated {
                throw .arrayLengthMismatch(offset: before)
            }
        }
        return fields
    }

    private mutating func enter() throws(DBusCodecError) {
        depth += 1
        guard depth <= DBusType.maximumTotalDepth else { throw .nestingTooDeep(limit: DBusType.maximumTotalDepth) }
    }
}
