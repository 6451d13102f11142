/// One complete D-Bus type, as a signature names it ("a{sv}" is
/// `.array(.dictEntry(.string, .variant))`).
public indirect enum DBusType: Sendable, Hashable, CustomStringConvertible {
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double
    case string, objectPath, signature, unixFD, variant
    case array(DBusType)
    /// Only as an array's element: `a{KV}`, K a basic type.
    case dictEntry(DBusType, DBusType)
    case structure([DBusType])

    /// The specification's limits: a signature of at most 255 bytes, arrays and structs each
    /// nested at most 32 deep, and 64 containers in all counting variants.
    public static let maximumSignatureLength = 255
    public static let maximumArrayDepth = 32
    public static let maximumStructDepth = 32
    public static let maximumTotalDepth = 64

    public var signature: String {
        switch self {
        case .byte: return "y"
        case .boolean: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .unixFD: return "h"
        case .variant: return "v"
        case .array(let e): return "a" + e.signature
        case .dictEntry(let k, let v): return "{" + k.signature + v.signature + "}"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        }
    }

    public var description: String { signature }

    /// The boundary the marshalled value starts on, relative to the message's start.
    public var alignment: Int {
        switch self {
        case .byte, .signature, .variant: return 1
        case .int16, .uint16: return 2
        case .boolean, .int32, .uint32, .unixFD, .string, .objectPath, .array: return 4
        case .int64, .uint64, .double, .dictEntry, .structure: return 8
        }
    }

    /// Basic types may be dict-entry keys.
    public var isBasic: Bool {
        switch self {
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double,
             .string, .objectPath, .signature, .unixFD: return true
        case .variant, .array, .dictEntry, .structure: return false
        }
    }

    /// Parses a signature of any number of complete types (a message body's).
    public static func parse(_ signature: String) throws(DBusCodecError) -> [DBusType] {
        try parse(Array(signature.utf8), text: signature)
    }

    /// Parses a signature that must hold exactly one complete type (a variant's).
    public static func parseSingle(_ signature: String) throws(DBusCodecError) -> DBusType {
        let types = try parse(signature)
        guard types.count == 1 else {
            throw .invalidSignature(signature, reason: "a variant's signature must be exactly one complete type, found \(types.count)")
        }
        return types[0]
    }

    static func parse(_ bytes: [UInt8], text: @autoclosure () -> String) throws(DBusCodecError) -> [DBusType] {
        guard bytes.count <= maximumSignatureLength else {
            throw .invalidSignature(text(), reason: "longer than \(maximumSignatureLength) bytes")
        }
        var parser = SignatureParser(bytes: bytes)
        var out: [DBusType] = []
        while parser.index < bytes.count {
            do { out.append(try parser.complete(arrays: 0, structs: 0)) } catch let reason {
                throw .invalidSignature(text(), reason: reason.text)
            }
        }
        return out
    }
}

private struct SignatureFailure: Error { var text: String }

private struct SignatureParser {
    let bytes: [UInt8]
    var index = 0

    mutating func complete(arrays: Int, structs: Int) throws(SignatureFailure) -> DBusType {
        guard index < bytes.count else { throw SignatureFailure(text: "ends inside a container") }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "y"): return .byte
        case UInt8(ascii: "b"): return .boolean
        case UInt8(ascii: "n"): return .int16
        case UInt8(ascii: "q"): return .uint16
        case UInt8(ascii: "i"): return .int32
        case UInt8(ascii: "u"): return .uint32
        case UInt8(ascii: "x"): return .int64
        case UInt8(ascii: "t"): return .uint64
        case UInt8(ascii: "d"): return .double
        case UInt8(ascii: "s"): return .string
        case UInt8(ascii: "o"): return .objectPath
        case UInt8(ascii: "g"): return .signature
        case UInt8(ascii: "h"): return .unixFD
        case UInt8(ascii: "v"): return .variant
        case UInt8(ascii: "a"):
            guard arrays < DBusType.maximumArrayDepth else { throw SignatureFailure(text: "arrays nested deeper than 32") }
            if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                index += 1
                guard structs < DBusType.maximumStructDepth else { throw SignatureFailure(text: "structs nested deeper than 32") }
                let key = try complete(arrays: arrays + 1, structs: structs + 1)
                guard key.isBasic else { throw SignatureFailure(text: "a dict entry's key must be a basic type, not \(key.signature)") }
                guard index < bytes.count, bytes[index] != UInt8(ascii: "}") else { throw SignatureFailure(text: "a dict entry needs a key and a value") }
                let value = try complete(arrays: arrays + 1, structs: structs + 1)
                guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else { throw SignatureFailure(text: "a dict entry holds exactly two types") }
                index += 1
                return .array(.dictEntry(key, value))
            }
            return .array(try complete(arrays: arrays + 1, structs: structs))
        case UInt8(ascii: "("):
            guard structs < DBusType.maximumStructDepth else { throw SignatureFailure(text: "structs nested deeper than 32") }
            var fields: [DBusType] = []
            while true {
                guard index < bytes.count else { throw SignatureFailure(text: "unclosed struct") }
                if bytes[index] == UInt8(ascii: ")") { index += 1; break }
                fields.append(try complete(arrays: arrays, structs: structs + 1))
            }
            guard !fields.isEmpty else { throw SignatureFailure(text: "empty struct") }
            return .structure(fields)
        case UInt8(ascii: "{"): throw SignatureFailure(text: "dict entry outside an array")
        case UInt8(ascii: ")"), UInt8(ascii: "}"): throw SignatureFailure(text: "unbalanced '\(Character(Unicode.Scalar(c)))'")
        default: throw SignatureFailure(text: "unknown type code \(c < 0x20 || c > 0x7e ? "byte \(c)" : "'\(Character(Unicode.Scalar(c)))'")")
        }
    }
}
