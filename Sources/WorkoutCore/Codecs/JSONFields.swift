/// A flat reply described once: `fields(_:)` names each member with the property that holds it,
/// in the order they are written, and the same description both writes the members
/// (`JSONFieldWriter`, to a tree or bytes) and reads them back (`JSONFieldReader`). No encoder and
/// decoder kept in step by hand.
public protocol JSONFields {
    /// The value a reader starts from: what a missing or odd member leaves.
    init()
    mutating func fields<V: JSONFieldVisitor>(_ v: inout V)
}

/// Visits each member of a `JSONFields` type with its property.
public protocol JSONFieldVisitor {
    mutating func field(_ key: StaticString, _ v: inout String?)
    mutating func field(_ key: StaticString, _ v: inout String)
    mutating func field(_ key: StaticString, _ v: inout Int?)
    mutating func field(_ key: StaticString, _ v: inout Int)
    mutating func field(_ key: StaticString, _ v: inout [String])
    mutating func field(_ key: StaticString, _ v: inout Bool)
    mutating func field(_ key: StaticString, _ v: inout Bool?)
    mutating func field(_ key: StaticString, _ v: inout Double)
    /// A nested object, left out when nil.
    mutating func field<T: JSONFields>(_ key: StaticString, omittedWhenNil v: inout T?)
    mutating func field<T: JSONFields>(_ key: StaticString, _ v: inout [T])
    /// A UTC time, written as ISO 8601 (`ISO8601.format`).
    mutating func field(_ key: StaticString, time v: inout Double?)
}

extension JSONFields {
    /// The members as an object.
    public func json() -> JSON { JSONTree.build { write(to: &$0) } }

    /// The members as an object, to a tree or bytes.
    public func write<S: JSONSink>(to s: inout S) {
        var copy = self
        s.beginObject()
        var w = JSONFieldWriter(sink: consume s)  // moved, not copied: the bytes stay unshared
        copy.fields(&w)
        s = w.sink
        s.endObject()
    }

    /// Reads the members of an object; what is missing or odd keeps `init()`'s value.
    public init(json: JSON) {
        self.init()
        guard let o = json.objectValue else { return }
        var r = JSONFieldReader(members: JSONObject.Reader(o))
        fields(&r)
    }
}

/// Writes each visited member to a sink.
public struct JSONFieldWriter<S: JSONSink>: JSONFieldVisitor {
    public var sink: S

    public mutating func field(_ key: StaticString, _ v: inout String?) { sink.key(key); sink.string(v) }
    public mutating func field(_ key: StaticString, _ v: inout String) { sink.key(key); sink.string(v) }
    public mutating func field(_ key: StaticString, _ v: inout Int?) { sink.key(key); sink.int(v) }
    public mutating func field(_ key: StaticString, _ v: inout Int) { sink.key(key); sink.int(v) }
    public mutating func field(_ key: StaticString, _ v: inout [String]) { sink.key(key); sink.array(v) { s, t in s.string(t) } }
    public mutating func field(_ key: StaticString, _ v: inout Bool) { sink.key(key); sink.value(.bool(v)) }
    public mutating func field(_ key: StaticString, _ v: inout Bool?) { sink.key(key); sink.value(v.map(JSON.bool) ?? .null) }
    public mutating func field(_ key: StaticString, _ v: inout Double) { sink.key(key); sink.number(v) }
    public mutating func field<T: JSONFields>(_ key: StaticString, omittedWhenNil v: inout T?) {
        guard let t = v else { return }
        sink.key(key)
        t.write(to: &sink)
    }
    public mutating func field<T: JSONFields>(_ key: StaticString, _ v: inout [T]) {
        sink.key(key)
        sink.array(v) { s, t in t.write(to: &s) }
    }
    public mutating func field(_ key: StaticString, time v: inout Double?) {
        sink.key(key)
        if let t = v { sink.string(ISO8601.format(t)) } else { sink.null() }
    }
}

/// Sets each visited property from its member, when the member reads as that type.
public struct JSONFieldReader: JSONFieldVisitor {
    var members: JSONObject.Reader

    public mutating func field(_ key: StaticString, _ v: inout String?) { if let s = members[key]?.stringValue { v = s } }
    public mutating func field(_ key: StaticString, _ v: inout String) { if let s = members[key]?.stringValue { v = s } }
    public mutating func field(_ key: StaticString, _ v: inout Int?) { if let n = members[key]?.intValue { v = n } }
    public mutating func field(_ key: StaticString, _ v: inout Int) { if let n = members[key]?.intValue { v = n } }
    public mutating func field(_ key: StaticString, _ v: inout [String]) {
        if let a = members[key]?.arrayValue { v = a.compactMap(\.stringValue) }
    }
    public mutating func field(_ key: StaticString, _ v: inout Bool) { if let b = members[key]?.boolValue { v = b } }
    public mutating func field(_ key: StaticString, _ v: inout Bool?) { if let b = members[key]?.boolValue { v = b } }
    public mutating func field(_ key: StaticString, _ v: inout Double) { if let d = members[key]?.doubleValue { v = d } }
    public mutating func field<T: JSONFields>(_ key: StaticString, omittedWhenNil v: inout T?) {
        if let o = members[key], o.objectValue != nil { v = T(json: o) }
    }
    public mutating func field<T: JSONFields>(_ key: StaticString, _ v: inout [T]) {
        if let a = members[key]?.arrayValue { v = a.map(T.init(json:)) }
    }
    public mutating func field(_ key: StaticString, time v: inout Double?) {
        if let t = members[key]?.stringValue.flatMap({ ISO8601.parse($0) }) { v = t }
    }
}
