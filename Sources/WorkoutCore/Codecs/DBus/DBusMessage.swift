/// The four kinds of D-Bus message.
public enum DBusMessageKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case methodCall = 1
    case methodReturn = 2
    case error = 3
    case signal = 4

    public var description: String {
        switch self {
        case .methodCall: return "method call"
        case .methodReturn: return "method return"
        case .error: return "error"
        case .signal: return "signal"
        }
    }

    /// The header fields the specification requires for this kind.
    var requiredFields: [DBusHeaderField] {
        switch self {
        case .methodCall: return [.path, .member]
        case .methodReturn: return [.replySerial]
        case .error: return [.errorName, .replySerial]
        case .signal: return [.path, .interface, .member]
        }
    }
}

/// Header field codes and the type each must have.
public enum DBusHeaderField: UInt8, Sendable, CaseIterable {
    case path = 1, interface, member, errorName, replySerial, destination, sender, signature, unixFDs

    var type: DBusType {
        switch self {
        case .path: return .objectPath
        case .interface, .member, .errorName, .destination, .sender: return .string
        case .replySerial, .unixFDs: return .uint32
        case .signature: return .signature
        }
    }

    var name: String {
        switch self {
        case .path: return "PATH"
        case .interface: return "INTERFACE"
        case .member: return "MEMBER"
        case .errorName: return "ERROR_NAME"
        case .replySerial: return "REPLY_SERIAL"
        case .destination: return "DESTINATION"
        case .sender: return "SENDER"
        case .signature: return "SIGNATURE"
        case .unixFDs: return "UNIX_FDS"
        }
    }

    /// `name` when it is valid for this field (an interface, member, error or bus name);
    /// the other fields take no name and let any pass.
    func checkedName(_ name: String) throws(DBusCodecError) -> String {
        let valid: Bool, kind: String
        switch self {
        case .interface: (valid, kind) = (DBusNames.isValidInterface(name), "interface")
        case .member: (valid, kind) = (DBusNames.isValidMember(name), "member")
        case .errorName: (valid, kind) = (DBusNames.isValidInterface(name), "error name")
        case .destination, .sender: (valid, kind) = (DBusNames.isValidBusName(name), "bus name")
        case .path, .replySerial, .signature, .unixFDs: return name
        }
        guard valid else { throw .invalidName(kind: kind, name) }
        return name
    }
}

/// Message flags (header byte 2).
public struct DBusMessageFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let noReplyExpected = DBusMessageFlags(rawValue: 0x1)
    public static let noAutoStart = DBusMessageFlags(rawValue: 0x2)
    public static let allowInteractiveAuthorization = DBusMessageFlags(rawValue: 0x4)
}

/// One D-Bus message: header fields and a body of values. The body's signature is derived
/// from the values; `unixFDCount` is how many descriptors travel with it (the connection
/// sets it from the fds it attaches).
public struct DBusMessage: Sendable, Equatable {
    public var kind: DBusMessageKind
    public var flags: DBusMessageFlags = []
    /// Set by the connection when it sends; 0 until then.
    public var serial: UInt32 = 0
    public var path: String?
    public var interface: String?
    public var member: String?
    public var errorName: String?
    public var replySerial: UInt32?
    public var destination: String?
    public var sender: String?
    public var body: [DBusValue] = []
    public var unixFDCount: UInt32 = 0

    public init(kind: DBusMessageKind) { self.kind = kind }

    /// The body's signature ("" for no body).
    public var signature: String { body.map(\.type.signature).joined() }

    public static func methodCall(destination: String?, path: String, interface: String?, member: String,
                                  body: [DBusValue] = [], flags: DBusMessageFlags = []) -> DBusMessage {
        var m = DBusMessage(kind: .methodCall)
        m.destination = destination; m.path = path; m.interface = interface; m.member = member
        m.body = body; m.flags = flags
        return m
    }

    public static func signal(path: String, interface: String, member: String, body: [DBusValue] = [],
                              destination: String? = nil) -> DBusMessage {
        var m = DBusMessage(kind: .signal)
        m.path = path; m.interface = interface; m.member = member; m.body = body; m.destination = destination
        m.flags = [.noReplyExpected]
        return m
    }

    /// A reply to `call` (addressed to its sender).
    public static func methodReturn(to call: DBusMessage, body: [DBusValue] = []) -> DBusMessage {
        var m = DBusMessage(kind: .methodReturn)
        m.replySerial = call.serial; m.destination = call.sender; m.body = body
        m.flags = [.noReplyExpected]
        return m
    }

    /// An error reply to `call`, with a human message as its body (as every binding does).
    public static func error(to call: DBusMessage, name: String, message: String) -> DBusMessage {
        var m = DBusMessage(kind: .error)
        m.replySerial = call.serial; m.destination = call.sender; m.errorName = name
        m.body = [.string(message)]
        m.flags = [.noReplyExpected]
        return m
    }

    /// An error's text: its first argument when it is a string.
    public var errorMessage: String? {
        guard let first = body.first, case .string(let s) = first else { return nil }
        return s
    }
}

extension DBusMessage: CustomStringConvertible {
    public var description: String {
        var parts = ["\(kind) #\(serial)"]
        if let replySerial { parts.append("reply to #\(replySerial)") }
        if let sender { parts.append("from \(sender)") }
        if let destination { parts.append("to \(destination)") }
        if let path { parts.append(path) }
        if let interface, let member { parts.append("\(interface).\(member)") } else if let member { parts.append(member) }
        if let errorName { parts.append(errorName) }
        if !body.isEmpty { parts.append("(" + body.map(\.description).joined(separator: ", ") + ")") }
        return parts.joined(separator: " ")
    }
}

// MARK: - Wire format

extension DBusMessage {
    /// The specification's limit on a whole message.
    public static let maximumLength = 1 << 27  // 128 MiB
    /// Fixed header: endianness, kind, flags, version, body length, serial, fields length.
    public static let fixedHeaderLength = 16

    /// The message marshalled with `serial`. Names and paths are checked: a message the bus
    /// would reject is an error here instead.
    public func encoded(serial: UInt32, endianness: DBusEndianness = .little) throws(DBusCodecError) -> [UInt8] {
        guard serial != 0 else { throw .zeroSerial }
        let sig = signature
        _ = try DBusType.parse(sig)
        try validateNames()
        var fields: [DBusValue] = []
        func field(_ f: DBusHeaderField, _ v: DBusValue) { fields.append(.structure([.byte(f.rawValue), .variant(v)])) }
        if let path { field(.path, .objectPath(path)) }
        if let interface { field(.interface, .string(interface)) }
        if let member { field(.member, .string(member)) }
        if let errorName { field(.errorName, .string(errorName)) }
        if let replySerial { field(.replySerial, .uint32(replySerial)) }
        if let destination { field(.destination, .string(destination)) }
        if let sender { field(.sender, .string(sender)) }
        if !sig.isEmpty { field(.signature, .signature(sig)) }
        if unixFDCount > 0 { field(.unixFDs, .uint32(unixFDCount)) }
        for required in kind.requiredFields where !hasField(required) {
            throw .missingHeaderField(required.name, kind: kind.description)
        }

        var w = DBusWriter(endianness: endianness)
        w.writeByte(endianness.rawValue)
        w.writeByte(kind.rawValue)
        w.writeByte(flags.rawValue)
        w.writeByte(1)
        w.write32(0)  // body length, patched below
        w.write32(serial)
        try w.write(.array(.structure([.byte, .variant]), fields))
        w.pad(to: 8)
        let bodyStart = w.bytes.count
        for v in body { try w.write(v) }
        let bodyLength = w.bytes.count - bodyStart
        w.patch32(at: 4, UInt32(bodyLength))
        guard w.bytes.count <= DBusMessage.maximumLength else { throw .messageTooLong(w.bytes.count, limit: DBusMessage.maximumLength) }
        return w.bytes
    }

    private func hasField(_ f: DBusHeaderField) -> Bool {
        switch f {
        case .path: return path != nil
        case .interface: return interface != nil
        case .member: return member != nil
        case .errorName: return errorName != nil
        case .replySerial: return replySerial != nil
        case .destination: return destination != nil
        case .sender: return sender != nil
        case .signature: return !body.isEmpty
        case .unixFDs: return unixFDCount > 0
        }
    }

    private func validateNames() throws(DBusCodecError) {
        if let path, !DBusNames.isValidObjectPath(path) { throw .invalidObjectPath(path) }
        let names: [(DBusHeaderField, String?)] = [(.interface, interface), (.member, member), (.errorName, errorName),
                                                   (.destination, destination), (.sender, sender)]
        for case let (field, name?) in names { _ = try field.checkedName(name) }
    }

    /// The total length of the message that starts with these 16 bytes (fixed header), or an
    /// error if the header is impossible or the message longer than `limit`.
    public static func frameLength(header h: ArraySlice<UInt8>, limit: Int = maximumLength) throws(DBusCodecError) -> Int {
        precondition(h.count >= fixedHeaderLength)
        let s = h.startIndex  // read in place: no copy of the 16 bytes per message
        guard let e = DBusEndianness(rawValue: h[s]) else { throw .invalidEndianness(h[s]) }
        guard h[s + 3] == 1 else { throw .unsupportedVersion(h[s + 3]) }
        func u32(_ at: Int) -> Int {
            var v = 0
            for i in 0..<4 { v |= Int(h[s + at + i]) << (e == .little ? 8 * i : 8 * (3 - i)) }
            return v
        }
        let bodyLength = u32(4), fieldsLength = u32(12)
        guard fieldsLength <= DBusWriter.maximumArrayLength else { throw .arrayTooLong(fieldsLength, limit: DBusWriter.maximumArrayLength) }
        let headerEnd = fixedHeaderLength + fieldsLength
        let total = ((headerEnd + 7) & ~7) + bodyLength
        guard total <= min(limit, maximumLength) else { throw .messageTooLong(total, limit: min(limit, maximumLength)) }
        return total
    }

    /// Decodes one whole message (exactly `frameLength` bytes).
    public static func decode(_ bytes: [UInt8]) throws(DBusCodecError) -> DBusMessage {
        var cache = DBusHeaderCache()
        return try decode(bytes, headerCache: &cache)
    }

    /// `decode(_:)`, taking the header from `cache` when its bytes (all but the body length and
    /// the serial) are the last decoded header's: a sensor's notifications repeat one header,
    /// whose fields, names and body signature are then not read, checked and parsed again.
    public static func decode(_ bytes: [UInt8], headerCache cache: inout DBusHeaderCache) throws(DBusCodecError) -> DBusMessage {
        guard bytes.count >= fixedHeaderLength else { throw .truncated(offset: bytes.count, needed: fixedHeaderLength - bytes.count) }
        let total = try frameLength(header: bytes[...])
        guard bytes.count >= total else { throw .truncated(offset: bytes.count, needed: total - bytes.count) }
        let e = DBusEndianness(rawValue: bytes[0])!  // checked by frameLength
        guard let kind = DBusMessageKind(rawValue: bytes[1]) else { throw .unknownMessageType(bytes[1]) }
        if let hit = cache.header(of: bytes) {
            var r = DBusReader(bytes: bytes, offset: 4, limit: total, endianness: e)
            let bodyLength = Int(try r.read32())
            var m = hit.message
            m.serial = try r.read32()
            guard m.serial != 0 else { throw .zeroSerial }
            var body = DBusReader(bytes: bytes, offset: hit.bodyStart, limit: total, endianness: e)
            return try readBody(into: &m, types: hit.types, reader: &body, bodyLength: bodyLength, total: total)
        }
        var m = DBusMessage(kind: kind)
        m.flags = DBusMessageFlags(rawValue: bytes[2])
        var r = DBusReader(bytes: bytes, offset: 4, limit: total, endianness: e)
        let bodyLength = Int(try r.read32())
        m.serial = try r.read32()
        guard m.serial != 0 else { throw .zeroSerial }
        // The header's fields, `a(yv)`, read as pairs (no value tree: BENCHMARKS.md, four sensors).
        let fields = try r.readHeaderFields()
        var sig = ""
        var seen: UInt16 = 0  // bit n: field n was there (a Set allocated per message)
        for (code, v) in fields {
            // Unknown fields must be ignored (the specification's rule for extensions).
            guard let field = DBusHeaderField(rawValue: code) else { continue }
            guard v.type == field.type else { throw .headerFieldType(code: code, signature: v.type.signature) }
            seen |= 1 << field.rawValue
            switch (field, v) {
            case (.path, .objectPath(let p)): m.path = p
            case (.interface, .string(let s)): m.interface = try field.checkedName(s)
            case (.member, .string(let s)): m.member = try field.checkedName(s)
            case (.errorName, .string(let s)): m.errorName = try field.checkedName(s)
            case (.replySerial, .uint32(let u)):
                guard u != 0 else { throw .zeroSerial }
                m.replySerial = u
            case (.destination, .string(let s)): m.destination = try field.checkedName(s)
            case (.sender, .string(let s)): m.sender = try field.checkedName(s)
            case (.signature, .signature(let s)): sig = s
            case (.unixFDs, .uint32(let u)): m.unixFDCount = u
            default: throw .headerFieldType(code: code, signature: v.type.signature)
            }
        }
        for required in kind.requiredFields where seen & (1 << required.rawValue) == 0 {
            throw .missingHeaderField(required.name, kind: kind.description)
        }
        try r.align(8)
        guard r.offset + bodyLength == total else { throw .bodyLengthMismatch(declared: bodyLength, used: total - r.offset) }
        let types = try DBusType.parse(sig)
        cache.keep(bytes, bodyStart: r.offset, message: m, types: types)
        return try readBody(into: &m, types: types, reader: &r, bodyLength: bodyLength, total: total)
    }

    /// The body of `types` from the reader at the body's start.
    private static func readBody(into m: inout DBusMessage, types: [DBusType], reader r: inout DBusReader,
                                 bodyLength: Int, total: Int) throws(DBusCodecError) -> DBusMessage {
        let bodyStart = r.offset
        guard bodyStart + bodyLength == total else { throw .bodyLengthMismatch(declared: bodyLength, used: total - bodyStart) }
        r.fdCount = m.unixFDCount
        m.body.reserveCapacity(types.count)
        for t in types { m.body.append(try r.read(t)) }
        guard r.offset == total else { throw .bodyLengthMismatch(declared: bodyLength, used: r.offset - bodyStart) }
        return m
    }
}

/// The last header `DBusMessage.decode(_:headerCache:)` read whole, by its bytes: the fixed
/// header's first four (endianness, kind, flags, version) and everything from the fields'
/// length to the body (fields and padding). Decoding is a function of those bytes, so a header
/// with the same ones decodes to the same fields; only the body length and serial are read anew.
public struct DBusHeaderCache: Sendable {
    private var key: [UInt8] = []
    private var entry: (message: DBusMessage, types: [DBusType], bodyStart: Int)?

    public init() {}

    func header(of bytes: [UInt8]) -> (message: DBusMessage, types: [DBusType], bodyStart: Int)? {
        guard let entry, bytes.count >= entry.bodyStart, key.count == entry.bodyStart - 8 else { return nil }
        guard bytes[0..<4].elementsEqual(key[0..<4]), bytes[12..<entry.bodyStart].elementsEqual(key[4...]) else { return nil }
        return entry
    }

    mutating func keep(_ bytes: [UInt8], bodyStart: Int, message: DBusMessage, types: [DBusType]) {
        key.removeAll(keepingCapacity: true)
        key.append(contentsOf: bytes[0..<4])
        key.append(contentsOf: bytes[12..<bodyStart])
        var header = message
        header.serial = 0
        entry = (header, types, bodyStart)
    }
}
