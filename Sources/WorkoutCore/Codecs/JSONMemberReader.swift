import Glibc

/// The members of a JSON object asked for one key at a time, as a decoder reads them: from a
/// parsed object (`JSONObject.Reader`) or straight from the text (`JSONTextMembers`). A
/// decoder written against this protocol reads the same values either way.
protocol JSONMemberReader {
    /// The member's value; nil when the object has no such member. The names are the
    /// decoder's own, written in the code: compared as bytes, never made into Strings.
    subscript(key: StaticString) -> JSON? { mutating get }
}

extension JSONObject.Reader: JSONMemberReader {}

/// Reads an object's members straight from its JSON text, without building the object: each
/// key asked for is compared with the next key in the text; if they are equal the member's
/// value is parsed (nested objects and arrays as trees, by `JSONParser`, so every value is the
/// one `JSON.parse` gives), else the answer is nil and the text stays where it is. A reader
/// that asks in the writer's order (`WorkoutSummary(members:)`) thus reads every member its
/// writer wrote. Anything else leaves members unread: keys in another order, a duplicate, an
/// unknown key, a key with escapes; `finish()` then says false and the caller must parse the
/// text as a tree instead, which tolerates all of them. Start-up with 10,000 workouts spent a
/// third of its time building and freeing the index's trees (BENCHMARKS.md).
struct JSONTextMembers: JSONMemberReader {
    private(set) var parser: JSONParser
    /// The depth of this object's members, as `JSONParser` counts it (the same refusals).
    private let depth: Int
    /// Where the reader is in the object's text.
    private var place = Place.atMember

    private enum Place {
        /// At the next member's key (or, before the first, at the first).
        case atMember
        /// The next thing in the text is this object's closing brace.
        case atClose
        /// Something was not JSON, or not as asked: the caller falls back to the tree.
        case failed
    }

    /// The members of the object at the start of `text` (after spaces).
    init(text: UnsafeBufferPointer<UInt8>) {
        self.init(parser: JSONParser(text), depth: 1)
    }

    /// The members of the object at `parser`'s position, itself at `depth - 1`.
    private init(parser: JSONParser, depth: Int) {
        self.parser = parser
        self.depth = depth
        self.parser.skipSpace()
        guard depth <= JSON.maxDepth, take(UInt8(ascii: "{")) else { place = .failed; return }
        self.parser.skipSpace()
        if peek(UInt8(ascii: "}")) { place = .atClose }
    }

    subscript(key: StaticString) -> JSON? {
        mutating get {
            guard takeKey(key) else { return nil }
            do {
                let v = try parser.value(depth: depth)
                afterValue()
                return v
            } catch {
                place = .failed
                return nil
            }
        }
    }

    /// The object member `key` read by `body` from its own text (a nested reader), for a
    /// decoder of the nested object that reads it in its writer's order too; nil when there is
    /// no such member, when `body` says nil, or when the nested object was not read whole
    /// (the reader has then failed).
    mutating func object<T>(_ key: StaticString, _ body: (inout JSONTextMembers) -> T?) -> T? {
        guard takeKey(key) else { return nil }
        var nested = JSONTextMembers(parser: parser, depth: depth + 1)
        let value = body(&nested)
        guard let value, nested.finish() else { place = .failed; return nil }
        parser = nested.parser
        afterValue()
        return value
    }

    /// Whether every member was read: consumes the closing brace. False when anything was
    /// left unread or was not JSON.
    mutating func finish() -> Bool {
        guard case .atClose = place else { place = .failed; return false }
        parser.i += 1
        return true
    }

    /// Whether only spaces follow (after `finish()` of the outermost object).
    mutating func atEndOfText() -> Bool {
        parser.skipSpace()
        return parser.i == parser.b.count
    }

    /// Consumes `"key":` when the next key's bytes are `key`'s (the keys asked for need no
    /// escapes, so equal bytes are an equal key).
    private mutating func takeKey(_ key: StaticString) -> Bool {
        guard case .atMember = place else { return false }
        let b = parser.b, start = parser.i
        let matched = key.withUTF8Buffer { kb -> Bool in
            let end = start + 1 + kb.count
            guard end < b.count, b[start] == UInt8(ascii: "\""), b[end] == UInt8(ascii: "\"") else { return false }
            return memcmp(b.baseAddress! + start + 1, kb.baseAddress!, kb.count) == 0
        }
        guard matched else { return false }
        parser.i = start + key.utf8CodeUnitCount + 2
        parser.skipSpace()
        guard take(UInt8(ascii: ":")) else { place = .failed; return false }
        parser.skipSpace()
        return true
    }

    /// After a member's value: a comma and the next key's quote, or the closing brace.
    private mutating func afterValue() {
        parser.skipSpace()
        if take(UInt8(ascii: ",")) {
            parser.skipSpace()
            if !peek(UInt8(ascii: "\"")) { place = .failed }
        } else if peek(UInt8(ascii: "}")) {
            place = .atClose
        } else {
            place = .failed
        }
    }

    private func peek(_ c: UInt8) -> Bool { parser.i < parser.b.count && parser.b[parser.i] == c }

    private mutating func take(_ c: UInt8) -> Bool {
        guard peek(c) else { return false }
        parser.i += 1
        return true
    }
}
