/// One D-Bus value with its type. Arrays carry their element type (an empty array still has
/// one); a dictionary is an array of `.dictEntry` values; a unix fd is an index into the fds
/// that travel with the message (the connection maps it to a descriptor). Only the cases that
/// hold a value directly are `indirect`: a byte or a string is not boxed on the heap (an `ay`
/// of a notification's 20 bytes was 20 allocations).
public enum DBusValue: Sendable, Equatable, CustomStringConvertible {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case unixFD(UInt32)
    indirect case variant(DBusValue)
    case array(DBusType, [DBusValue])
    indirect case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])

    public var type: DBusType {
        switch self {
        case .byte: return .byte
        case .boolean: return .boolean
        case .int16: return .int16
        case .uint16: return .uint16
        case .int32: return .int32
        case .uint32: return .uint32
        case .int64: return .int64
        case .uint64: return .uint64
        case .double: return .double
        case .string: return .string
        case .objectPath: return .objectPath
        case .signature: return .signature
        case .unixFD: return .unixFD
        case .variant: return .variant
        case .array(let e, _): return .array(e)
        case .dictEntry(let k, let v): return .dictEntry(k.type, v.type)
        case .structure(let fields): return .structure(fields.map(\.type))
        }
    }

    public var description: String {
        switch self {
        case .byte(let v): return "byte \(v)"
        case .boolean(let v): return "\(v)"
        case .int16(let v): return "int16 \(v)"
        case .uint16(let v): return "uint16 \(v)"
        case .int32(let v): return "int32 \(v)"
        case .uint32(let v): return "uint32 \(v)"
        case .int64(let v): return "int64 \(v)"
        case .uint64(let v): return "uint64 \(v)"
        case .double(let v): return "double \(v)"
        case .string(let v): return "\"\(v)\""
        case .objectPath(let v): return "path \(v)"
        case .signature(let v): return "signature \"\(v)\""
        case .unixFD(let v): return "fd #\(v)"
        case .variant(let v): return "<\(v)>"
        case .array(let t, let items): return "a\(t.signature)[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictEntry(let k, let v): return "\(k): \(v)"
        case .structure(let f): return "(" + f.map(\.description).joined(separator: ", ") + ")"
        }
    }

    /// `a{KV}` from pairs; `key`/`value` are the declared types (used when `pairs` is empty).
    public static func dictionary(key: DBusType, value: DBusType, _ pairs: [(DBusValue, DBusValue)]) -> DBusValue {
        .array(.dictEntry(key, value), pairs.map { .dictEntry($0.0, $0.1) })
    }

    /// `a{sv}` from a list of names and values (each wrapped in a variant).
    public static func properties(_ pairs: [(String, DBusValue)]) -> DBusValue {
        dictionary(key: .string, value: .variant, pairs.map { (.string($0.0), .variant($0.1)) })
    }

    /// `as` from strings.
    public static func strings(_ items: [String]) -> DBusValue { .array(.string, items.map { .string($0) }) }

    /// `ay` from bytes.
    public static func bytes(_ items: [UInt8]) -> DBusValue { .array(.byte, items.map { .byte($0) }) }
}

// MARK: - Reading values without switching at every call site

extension DBusValue {
    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// A string, object path or signature (through variants).
    public var string: String? {
        switch unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        default: return nil
        }
    }

    public var bool: Bool? { if case .boolean(let b) = unwrapped { return b } else { return nil } }
    public var uint32: UInt32? { if case .uint32(let v) = unwrapped { return v } else { return nil } }
    public var unixFDIndex: UInt32? { if case .unixFD(let v) = unwrapped { return v } else { return nil } }

    /// Any integer type widened to Int64 (uint64 above Int64.max gives nil).
    public var integer: Int64? {
        switch unwrapped {
        case .byte(let v): return Int64(v)
        case .int16(let v): return Int64(v)
        case .uint16(let v): return Int64(v)
        case .int32(let v): return Int64(v)
        case .uint32(let v): return Int64(v)
        case .int64(let v): return v
        case .uint64(let v): return Int64(exactly: v)
        default: return nil
        }
    }

    /// The elements of an array.
    public var elements: [DBusValue]? { if case .array(_, let e) = unwrapped { return e } else { return nil } }

    /// The fields of a struct.
    public var fields: [DBusValue]? { if case .structure(let f) = unwrapped { return f } else { return nil } }

    /// `ay` as bytes.
    public var byteArray: [UInt8]? {
        guard case .array(.byte, let items) = unwrapped else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(items.count)
        for case .byte(let b) in items { out.append(b) }
        return out
    }

    /// A dictionary keyed by strings or object paths (`a{sv}`, `a{oa{sa{sv}}}`); values as
    /// they are (variants not unwrapped). Later duplicates win.
    public var dictionary: [String: DBusValue]? {
        guard case .array(.dictEntry, let items) = unwrapped else { return nil }
        var out: [String: DBusValue] = [:]
        for case .dictEntry(let k, let v) in items {
            guard let key = k.string else { return nil }
            out[key] = v
        }
        return out
    }

    /// `dictionary?[key]` without building the dictionary (a sensor's every notification looks
    /// up one property): nil when this is no such dictionary or has no `key`; later
    /// duplicates win.
    public func dictionaryValue(forKey key: String) -> DBusValue? {
        guard case .array(.dictEntry, let items) = unwrapped else { return nil }
        var found: DBusValue?
        for case .dictEntry(let k, let v) in items {
            guard let name = k.string else { return nil }
            if name == key { found = v }
        }
        return found
    }
}
