/// A JSON value. workoutd speaks JSON on its sockets, in its config and in its files without
/// Foundation (which would triple the daemon's resident memory), so it has its own small codec:
/// `JSON.parse` (strict RFC 8259, depth-limited) and `serialized()` (compact, stable key order).
public enum JSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    /// Keys keep their insertion order so that output is stable and readable.
    case object(JSONObject)
}

/// An ordered JSON object. Lookups are linear: objects here are small (a request, a fix, a summary).
public struct JSONObject: Sendable, Equatable {
    public private(set) var pairs: [(key: String, value: JSON)]

    public init() { pairs = [] }
    public init(_ pairs: [(String, JSON)]) { self.pairs = pairs.map { (key: $0.0, value: $0.1) } }

    public subscript(key: String) -> JSON? {
        get {
            // By index: `for p in pairs` would copy (retain and release) every pair it passes.
            for i in pairs.indices where JSONObject.sameKey(pairs[i].key, key) { return pairs[i].value }
            return nil
        }
        set {
            if let i = pairs.indices.first(where: { JSONObject.sameKey(pairs[$0].key, key) }) {
                if let v = newValue { pairs[i].value = v } else { pairs.remove(at: i) }
            } else if let v = newValue {
                pairs.append((key: key, value: v))
            }
        }
    }

    public var keys: [String] { pairs.map(\.key) }

    /// Member names are equal when their UTF-8 lengths and their text are: spellings that are
    /// canonically equivalent but differ in bytes are different names, as JSON compares them.
    /// The length check is O(1) and settles most mismatches before String's `==` (decoding the
    /// index at start-up spent a quarter of its instructions comparing keys: BENCHMARKS.md).
    @inline(__always)
    static func sameKey(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a == b
    }

    /// Appends a member the caller knows is new (the parser, after its own duplicate check).
    mutating func appendNew(_ key: String, _ value: JSON) { pairs.append((key: key, value: value)) }

    /// Replaces the value of the member at `index` (a duplicate key in parsed text: the last wins).
    mutating func replaceValue(at index: Int, with value: JSON) { pairs[index].value = value }

    /// Reads members in the order they were written: each lookup starts at the member after
    /// the one found last and wraps around, so a reader that asks in the writer's order finds
    /// each member at the first comparison, and one that skips a member pays one comparison
    /// more. Start-up reads a summary of ~50 members from each index line: with the plain
    /// subscript each lookup searched from the first member (O(members^2) a line; 10,000
    /// lines: BENCHMARKS.md).
    public struct Reader {
        private let object: JSONObject
        private var next = 0

        public init(_ object: JSONObject) { self.object = object }

        public subscript(key: String) -> JSON? {
            mutating get { find { JSONObject.sameKey($0, key) } }
        }

        public subscript(key: StaticString) -> JSON? {
            mutating get { find { JSONObject.sameKey($0, key) } }
        }

        @inline(__always)
        private mutating func find(_ isKey: (String) -> Bool) -> JSON? {
            let n = object.pairs.count
            var i = next
            for _ in 0..<n {
                if i == n { i = 0 }
                if isKey(object.pairs[i].key) {
                    next = i + 1
                    return object.pairs[i].value
                }
                i += 1
            }
            return nil
        }
    }

    /// A name written in the code (a decoder's `j["id"]`): compared as bytes, without a String.
    @inline(__always)
    static func sameKey(_ a: String, _ b: StaticString) -> Bool {
        b.withUTF8Buffer { k in a.utf8.count == k.count && a.utf8.elementsEqual(k) }
    }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.pairs.count == b.pairs.count else { return false }
        for p in a.pairs where b[p.key] != p.value { return false }
        return true
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSON {
    public subscript(key: String) -> JSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var doubleValue: Double? { if case .number(let d) = self { return d }; return nil }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var arrayValue: [JSON]? { if case .array(let a) = self { return a }; return nil }
    public var objectValue: JSONObject? { if case .object(let o) = self { return o }; return nil }
    public var isNull: Bool { if case .null = self { return true }; return false }
    /// The number as an Int when it is integral and in range.
    public var intValue: Int? {
        guard case .number(let d) = self, d.rounded() == d, abs(d) < 9.0e15 else { return nil }
        return Int(d)
    }
    /// The JSON type's name, for error messages ("expected a string, got number").
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// `.number` for a finite value, `.null` for nil; NaN and infinities become null (JSON has none).
    public static func number(_ d: Double?) -> JSON {
        guard let d, d.isFinite else { return .null }
        return .number(d)
    }
    public static func string(_ s: String?) -> JSON { s.map(JSON.string) ?? .null }
    public static func int(_ i: Int?) -> JSON { i.map { .number(Double($0)) } ?? .null }
}

// MARK: - Parsing

/// Why a JSON text was refused, with the byte offset where it went wrong.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var reason: String
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSON {
    /// Deepest nesting accepted; deeper input is refused rather than risking the stack.
    public static let maxDepth = 64

    public static func parse(_ text: String) throws -> JSON {
        var copy = text
        return try copy.withUTF8 { buf throws in try parse(buf) }
    }

    public static func parse(_ bytes: [UInt8]) throws -> JSON {
        try bytes.withUnsafeBufferPointer { buf throws in try parse(buf) }
    }

    public static func parse(_ buf: UnsafeBufferPointer<UInt8>) throws -> JSON {
        var p = JSONParser(buf)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == buf.count else { throw p.fail("unexpected data after the value") }
        return v
    }
}

struct JSONParser {
    let b: UnsafeBufferPointer<UInt8>
    var i = 0
    init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

    func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: i, reason: reason) }

    mutating func skipSpace() {
        while i < b.count {
            let c = b[i]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
        }
    }

    mutating func value(depth: Int) throws -> JSON {
        guard depth < JSON.maxDepth else { throw fail("nested deeper than \(JSON.maxDepth) levels") }
        guard i < b.count else { throw fail("unexpected end of input") }
        switch b[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character '\(Character(Unicode.Scalar(b[i])))'")
        }
    }

    mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { throw fail("unexpected end of input") }
        let w = word.utf8Start
        for k in 0..<n where b[i + k] != w[k] { throw fail("invalid literal") }
        i += n
    }

    /// Hashes of the keys of the objects being parsed (a stack: each object's run starts at the
    /// count it found), so a duplicate key is looked for by comparing integers, and only a hash
    /// that matches compares the strings. Comparing each new key with every earlier one as
    /// strings made an object of n members cost n^2/2 string comparisons.
    var keyHashes: [UInt64] = []

    mutating func object(depth: Int) throws -> JSON {
        i += 1
        var obj = JSONObject()
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(obj) }
        let base = keyHashes.count
        defer { keyHashes.removeSubrange(base...) }
        while true {
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let keyStart = i + 1
            let key = try string()
            // Without escapes the key's bytes are the text's (an escape always writes fewer bytes).
            let hash = key.utf8.count == i - 1 - keyStart
                ? JSONParser.hash(UnsafeBufferPointer(rebasing: b[keyStart..<(i - 1)]))
                : JSONParser.hash(key)
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':' after key") }
            i += 1
            skipSpace()
            let v = try value(depth: depth + 1)
            var duplicate: Int?
            for k in base..<keyHashes.count where keyHashes[k] == hash && JSONObject.sameKey(obj.pairs[k - base].key, key) {
                duplicate = k - base
                break
            }
            if let d = duplicate {
                obj.replaceValue(at: d, with: v)
            } else {
                obj.appendNew(key, v)
                keyHashes.append(hash)
            }
            skipSpace()
            guard i < b.count else { throw fail("unexpected end of input in object") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "}") { i += 1; return .object(obj) }
            throw fail("expected ',' or '}' in object")
        }
    }

    /// FNV-1a of a key's UTF-8 bytes.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for c in bytes { h = (h ^ UInt64(c)) &* 0x100_0000_01b3 }
        return h
    }

    static func hash(_ key: String) -> UInt64 {
        var k = key
        return k.withUTF8 { hash($0) }
    }

    mutating func array(depth: Int) throws -> JSON {
        i += 1
        var arr: [JSON] = []
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(arr) }
        while true {
            skipSpace()
            arr.append(try value(depth: depth + 1))
            skipSpace()
            guard i < b.count else { throw fail("unexpected end of input in array") }
            if b[i] == UInt8(ascii: ",") { i += 1; continue }
            if b[i] == UInt8(ascii: "]") { i += 1; return .array(arr) }
            throw fail("expected ',' or ']' in array")
        }
    }

    mutating func number() throws -> Double {
        let start = i
        if b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < b.count, isDigit(b[i]) else { throw fail("invalid number") }
        if b[i] == UInt8(ascii: "0") { i += 1 } else { while i < b.count, isDigit(b[i]) { i += 1 } }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            guard i < b.count, isDigit(b[i]) else { throw fail("invalid number: digits expected after '.'") }
            while i < b.count, isDigit(b[i]) { i += 1 }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard i < b.count, isDigit(b[i]) else { throw fail("invalid number: digits expected in exponent") }
            while i < b.count, isDigit(b[i]) { i += 1 }
        }
        let slice = UnsafeBufferPointer(rebasing: b[start..<i])
        guard let d = parseDouble(slice), d.isFinite else { i = start; throw fail("number out of range") }
        return d
    }

    mutating func string() throws -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                let s = try validUTF8(UnsafeBufferPointer(rebasing: b[start..<i]), at: start)
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw fail("control character in string") }
            i += 1
        }
        var bytes = Array(UnsafeBufferPointer(rebasing: b[start..<i]))
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return try bytes.withUnsafeBufferPointer { buf throws in try validUTF8(buf, at: start) }
            }
            if c < 0x20 { throw fail("control character in string") }
            if c != UInt8(ascii: "\\") { bytes.append(c); i += 1; continue }
            i += 1
            guard i < b.count else { break }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5C)
            case UInt8(ascii: "/"): bytes.append(0x2F)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 1 < b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired surrogate in \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid low surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw fail("unpaired surrogate in \\u escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                bytes.append(contentsOf: String(Character(u)).utf8)
            default:
                throw fail("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        throw fail("unterminated string")
    }

    mutating func hex4() throws -> UInt32 {
        guard i + 4 <= b.count else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    func validUTF8(_ buf: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> String {
        // ASCII (keys and most values) is valid UTF-8: skip the validating initialiser.
        var high: UInt8 = 0
        for c in buf { high |= c }
        if high < 0x80 { return String(decoding: buf, as: UTF8.self) }
        guard let s = String(validating: buf, as: UTF8.self) else {
            throw JSONParseError(offset: offset, reason: "string is not valid UTF-8")
        }
        return s
    }
}

@inline(__always) func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

/// Parses an ASCII decimal number (optional sign, digits, '.', exponent) without allocating.
/// Returns nil for anything else. Exact for typical GPS values by deferring to the stdlib.
public func parseDouble(_ buf: UnsafeBufferPointer<UInt8>) -> Double? {
    guard !buf.isEmpty, buf.count < 64 else {
        if buf.isEmpty { return nil }
        return Double(String(decoding: buf, as: UTF8.self))
    }
    if let d = parseSimpleDecimal(buf) { return d }
    // Double(Substring) goes through strtod on Linux; stack-copy avoids a heap String.
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: buf.count + 1) { tmp -> Double? in
        for k in 0..<buf.count {
            let c = buf[k]
            guard isDigit(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") else { return nil }
            tmp[k] = CChar(bitPattern: c)
        }
        tmp[buf.count] = 0
        return Double(String(cString: tmp.baseAddress!))
    }
}

/// Exact fast path for plain decimals (`-12.345`, no exponent): at most 16 digits whose integer
/// value is at most 2^53, at most 22 of them after the point. Both the integer and the power of ten are exact doubles, so one division is
/// correctly rounded: the same value strtod gives (Clinger's fast path). nil: use the slow path.
@inline(__always)
func parseSimpleDecimal(_ buf: UnsafeBufferPointer<UInt8>) -> Double? {
    var k = 0
    var negative = false
    if buf[0] == UInt8(ascii: "-") { negative = true; k = 1 }
    var mantissa: UInt64 = 0
    var digits = 0
    var fraction = 0
    var dot = false
    while k < buf.count {
        let c = buf[k]
        if isDigit(c) {
            mantissa = mantissa &* 10 &+ UInt64(c &- UInt8(ascii: "0"))
            digits += 1
            if digits > 16 || mantissa > (1 << 53) { return nil }
            if dot { fraction += 1 }
        } else if c == UInt8(ascii: "."), !dot {
            dot = true
        } else {
            return nil
        }
        k += 1
    }
    guard digits > 0, fraction <= 22 else { return nil }
    let value = Double(mantissa) / exactPowersOfTen[fraction]
    return negative ? -value : value
}

private let exactPowersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

// MARK: - Serialising

extension JSON {
    /// Compact one-line JSON (suitable for JSON-lines protocols and files).
    public func serialized() -> String {
        var out = ""
        out.reserveCapacity(64)
        write(to: &out)
        return out
    }

    /// Indented JSON for people (`workoutctl show --json`, saved files stay compact).
    public func pretty(indent: Int = 0) -> String {
        var out = ""
        writePretty(to: &out, level: indent)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += JSON.format(d)
        case .string(let s): JSON.writeString(s, to: &out)
        case .array(let a):
            out += "["
            for (k, v) in a.enumerated() {
                if k > 0 { out += "," }
                v.write(to: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (k, p) in o.pairs.enumerated() {
                if k > 0 { out += "," }
                JSON.writeString(p.key, to: &out)
                out += ":"
                p.value.write(to: &out)
            }
            out += "}"
        }
    }

    func writePretty(to out: inout String, level: Int) {
        let pad = String(repeating: "  ", count: level + 1)
        let close = String(repeating: "  ", count: level)
        switch self {
        case .array(let a) where !a.isEmpty:
            out += "[\n"
            for (k, v) in a.enumerated() {
                out += pad
                v.writePretty(to: &out, level: level + 1)
                out += k + 1 < a.count ? ",\n" : "\n"
            }
            out += close + "]"
        case .object(let o) where !o.pairs.isEmpty:
            out += "{\n"
            for (k, p) in o.pairs.enumerated() {
                out += pad
                JSON.writeString(p.key, to: &out)
                out += ": "
                p.value.writePretty(to: &out, level: level + 1)
                out += k + 1 < o.pairs.count ? ",\n" : "\n"
            }
            out += close + "}"
        case .null, .bool, .number, .string, .array, .object:
            write(to: &out)
        }
    }

    /// Integers print without a fraction; other values with the shortest round-trip digits.
    /// Never exponent notation for values people meet (|x| in [1e-6, 1e15]).
    public static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        let s = d.description
        if s.contains("e") { return formatFixed(d, decimals: 9) }
        return s
    }

    public static func writeString(_ s: String, to out: inout String) {
        var needsEscape = false
        for u in s.utf8 where u < 0x20 || u == 0x22 || u == 0x5C { needsEscape = true; break }
        guard needsEscape else { out += "\""; out += s; out += "\""; return }
        QuotedText.append(s, to: &out) { $0.value < 0x20 }
    }
}

/// Fixed-point decimal text with exactly `decimals` digits after the point (no exponent), as
/// GPX/TCX schemas and people want it. Rounds half away from zero.
public func formatFixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale: Double = 1
    for _ in 0..<decimals { scale *= 10 }
    let negative = value < 0
    let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
    if scaled >= 9.0e18 { return String(value) }
    let n = UInt64(scaled)
    let intPart = n / UInt64(scale)
    var frac = String(n % UInt64(scale))
    var out = (negative && n != 0 ? "-" : "") + String(intPart)
    if decimals > 0 {
        if frac.count < decimals { frac = String(repeating: "0", count: decimals - frac.count) + frac }
        out += "." + frac
    }
    return out
}

/// `formatFixed` appended as UTF-8 bytes, without building intermediate strings. Same text as
/// `formatFixed` (`ByteWriter.fixed`); decimals 0...19.
public func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
    ByteWriter.append(to: &out, capacity: ByteWriter.maxNumberBytes) { $0.fixed(value, decimals: decimals) }
}

/// `String(value)` of an integer appended as UTF-8 bytes.
public func appendInt(_ value: Int, to out: inout [UInt8]) {
    ByteWriter.append(to: &out, capacity: ByteWriter.maxNumberBytes) { $0.int(value) }
}

/// Decimal digits of `v`, left-padded with zeros to `minimumCount`. Formed in a stack buffer
/// (the writers call it ~15 times per point).
@inline(__always)
func appendDigits(_ v: UInt64, minimumCount: Int, to out: inout [UInt8]) {
    var buf = InlineArray<24, UInt8>(repeating: UInt8(ascii: "0"))
    var k = 24
    var rest = v
    repeat {
        k -= 1
        buf[k] = UInt8(truncatingIfNeeded: 48 + rest % 10)
        rest /= 10
    } while rest > 0
    var count = 24 - k
    if minimumCount > count {
        if minimumCount > 20 {
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: minimumCount - count))
        } else {
            count = minimumCount
        }
    }
    // Byte by byte: for 1-10 digits this beats `append(contentsOf:)`, which goes through memcpy.
    var i = 24 - count
    while i < 24 { out.append(buf[i]); i += 1 }
}
