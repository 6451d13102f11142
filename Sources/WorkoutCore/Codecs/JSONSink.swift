/// Where an encoder writes JSON, in order: `JSONWriter` (the bytes) or `JSONTree` (a `JSON`
/// value). A type with one `encode(to:)` against this protocol has one schema for its tree and
/// its text, so the two cannot drift apart (no twin encoders kept in step by hand).
public protocol JSONSink {
    /// The next value is the member `name` of the innermost open object.
    mutating func key(_ name: StaticString)
    /// `key` for a name known only at run time (an enum's raw value), escaped as a string.
    mutating func key(named name: String)
    /// The next value is the next element of the innermost open array.
    mutating func element()
    mutating func null()
    mutating func string(_ s: String)
    /// nil, NaN and infinities are `null`, as `JSON.format` writes them.
    mutating func number(_ d: Double?)
    /// A quoted ISO 8601 time, as `ISO8601.format` writes it.
    mutating func time(_ seconds: Double, fractionDigits: Int)
    /// A value built elsewhere, whole.
    mutating func value(_ v: JSON)
    mutating func beginObject()
    mutating func endObject()
    mutating func beginArray()
    mutating func endArray()
}

extension JSONSink {
    public mutating func string(_ s: String?) { if let s { string(s) } else { null() } }
    public mutating func int(_ i: Int?) { number(i.map(Double.init)) }

    /// An array of `items`, each written by `one`.
    public mutating func array<T>(_ items: [T], _ one: (inout Self, T) -> Void) {
        beginArray()
        // An index loop: a generic iterator costs allocations in unoptimized builds.
        var k = 0
        while k < items.count {
            element()
            one(&self, items[k])
            k += 1
        }
        endArray()
    }

    /// An array of numbers rounded to `decimals` places.
    public mutating func numbers(_ items: [Double], decimals: Int) { array(items) { s, v in s.number(rounded(v, decimals)) } }
    public mutating func ints(_ items: [Int]) { array(items) { s, v in s.int(v) } }
}

extension JSONWriter: JSONSink {
    /// A comma unless the object has just opened, then `"name":`.
    public mutating func key(_ name: StaticString) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    public mutating func key(named name: String) {
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// A comma unless the array has just opened.
    public mutating func element() {
        if bytes.last != UInt8(ascii: "[") { bytes.append(UInt8(ascii: ",")) }
    }

    public mutating func beginObject() { bytes.append(UInt8(ascii: "{")) }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")) }
    public mutating func beginArray() { bytes.append(UInt8(ascii: "[")) }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")) }
}

/// Builds the `JSON` tree an encoder writes; `result` once the outermost value is closed.
public struct JSONTree: JSONSink {
    /// A container still being written: an object with the key of its next member, or an array.
    private enum Open {
        case object(JSONObject, key: String)
        case array([JSON])
    }

    private var open: [Open] = []
    public private(set) var result: JSON = .null

    public init() {}

    /// The tree `write` builds.
    public static func build(_ write: (inout JSONTree) -> Void) -> JSON {
        var t = JSONTree()
        write(&t)
        return t.result
    }

    public mutating func key(_ name: StaticString) {
        // Taken out and put back so the object stays uniquely referenced (no copy a member).
        guard case .object(let o, _)? = open.popLast() else { preconditionFailure("JSONTree: a key outside an object") }
        open.append(.object(o, key: name.description))
    }

    public mutating func key(named name: String) {
        guard case .object(let o, _)? = open.popLast() else { preconditionFailure("JSONTree: a key outside an object") }
        open.append(.object(o, key: name))
    }

    public mutating func element() {}
    public mutating func null() { put(.null) }
    public mutating func string(_ s: String) { put(.string(s)) }
    public mutating func number(_ d: Double?) { put(JSON.number(d)) }
    public mutating func time(_ seconds: Double, fractionDigits: Int) { put(.string(ISO8601.format(seconds, fractionDigits: fractionDigits))) }
    public mutating func value(_ v: JSON) { put(v) }
    public mutating func beginObject() { open.append(.object(JSONObject(), key: "")) }
    public mutating func beginArray() { open.append(.array([])) }

    public mutating func endObject() {
        guard case .object(let o, _)? = open.popLast() else { preconditionFailure("JSONTree: no object to close") }
        put(.object(o))
    }

    public mutating func endArray() {
        guard case .array(let a)? = open.popLast() else { preconditionFailure("JSONTree: no array to close") }
        put(.array(a))
    }

    private mutating func put(_ v: JSON) {
        switch open.popLast() {
        case .object(var o, let key)?:
            o.appendNew(key, v)  // an encoder names each member once
            open.append(.object(o, key: key))
        case .array(var a)?:
            a.append(v)
            open.append(.array(a))
        case nil:
            result = v
        }
    }
}
