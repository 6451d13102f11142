/// A small non-validating XML pull tokenizer over a whole document in memory.
///
/// It checks well-formedness as far as GPX and TCX import needs: matching start and end tags,
/// a single root element, quoted attributes without duplicates, the five predefined entities and
/// numeric character references, valid UTF-8 without forbidden control characters, a nesting
/// limit. DOCTYPE declarations are skipped (entities they declare are refused as unknown);
/// namespaces are not resolved: names are split at ':' into prefix and local name.
///
/// Input must be UTF-8 (an optional BOM is skipped) or declare ISO-8859-1 / Latin-1 /
/// windows-1252 (transcoded to UTF-8 first, windows-1252 read as Latin-1). UTF-16 is refused.
///
///     var reader = try XMLReader(bytes)
///     while let event = try reader.next() { ... }
public struct XMLReader: Sendable {
    /// Nesting limit used when none is given: far deeper than any GPX or TCX file.
    public static let defaultMaxDepth = 128

    /// The document as parsed (UTF-8; transcoded when the declaration named Latin-1).
    public let bytes: [UInt8]
    public let maxDepth: Int
    /// When true (the default), text made only of whitespace is not returned as `.text`.
    public var skipsWhitespaceText = true
    /// The `encoding` of the XML declaration, if any.
    public private(set) var declaredEncoding: String?
    /// Offset of the next unread byte.
    public private(set) var position: Int
    /// Offset where the construct last returned by `next()` starts (its '<' or first text byte).
    public private(set) var eventOffset = 0

    private var openNames: [XMLName] = []
    private var openOffsets: [Int] = []
    private var pendingEnd: XMLName?
    /// Before, inside or after the document's root element.
    private var rootPhase = RootPhase.before
    // Line counting cache for `line(at:)`, advanced monotonically.
    private var lineCacheOffset = 0
    private var lineCacheLine = 1

    /// Prepares a document: checks the byte order mark, the declared encoding and UTF-8 validity.
    public init(_ bytes: [UInt8], maxDepth: Int = XMLReader.defaultMaxDepth) throws(XMLError) {
        self.maxDepth = maxDepth
        var data = bytes
        var start = 0
        if data.count >= 2, (data[0] == 0xFE && data[1] == 0xFF) || (data[0] == 0xFF && data[1] == 0xFE)
            || (data[0] == 0x3C && data[1] == 0x00) || (data[0] == 0x00 && data[1] == 0x3C) {
            throw XMLReader.error(.unsupportedEncoding("UTF-16"), at: 0, in: data)
        }
        if data.count >= 3, data[0] == 0xEF, data[1] == 0xBB, data[2] == 0xBF { start = 3 }
        var declarationEnd = start
        var encoding: String?
        if XMLReader.hasPrefix(data, at: start, "<?xml"), start + 5 < data.count, XMLReader.isSpace(data[start + 5]) {
            guard let end = XMLReader.find(data, "?>", from: start + 5) else {
                throw XMLReader.error(.truncated("XML declaration"), at: data.count, in: data)
            }
            encoding = XMLReader.pseudoAttribute("encoding", in: Array(data[(start + 5)..<end]))
            declarationEnd = end + 2
        }
        if let enc = encoding {
            switch enc.lowercased() {
            case "utf-8", "utf8", "us-ascii", "ascii":
                break
            case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "iso_8859-1", "l1", "windows-1252", "cp1252":
                // Bytes >= 0x80 map to U+0080...U+00FF: two UTF-8 bytes each. Offsets of the
                // prefix (the declaration) are unchanged, as it is ASCII.
                var out: [UInt8] = []
                out.reserveCapacity(data.count + data.count / 8)
                for c in data {
                    if c < 0x80 { out.append(c) } else { out.append(0xC0 | (c >> 6)); out.append(0x80 | (c & 0x3F)) }
                }
                data = out
            default:
                throw XMLReader.error(.unsupportedEncoding(enc), at: start, in: data)
            }
        }
        if let (offset, reason) = data.withUnsafeBufferPointer({ XMLReader.validate($0, from: start) }) {
            throw XMLReader.error(reason, at: offset, in: data)
        }
        self.bytes = data
        self.declaredEncoding = encoding
        self.position = declarationEnd
    }

    /// Number of elements currently open (the root element is depth 1 once started).
    public var depth: Int { openNames.count }

    /// 1-based line of a byte offset. Cheap when offsets grow from call to call (cached).
    public mutating func line(at offset: Int) -> Int {
        let target = min(max(offset, 0), bytes.count)
        if target < lineCacheOffset { lineCacheOffset = 0; lineCacheLine = 1 }
        var line = lineCacheLine
        bytes.withUnsafeBufferPointer { b in
            var i = lineCacheOffset
            while i < target { if b[i] == 0x0A { line += 1 }; i += 1 }
        }
        lineCacheOffset = target
        lineCacheLine = line
        return line
    }

    /// An error at `offset` of this document, with its line and column.
    public func error(_ reason: XMLError.Reason, at offset: Int) -> XMLError {
        XMLReader.error(reason, at: offset, in: bytes)
    }

    static func error(_ reason: XMLError.Reason, at offset: Int, in data: [UInt8]) -> XMLError {
        let end = min(max(offset, 0), data.count)
        var line = 1, lineStart = 0
        for i in 0..<end where data[i] == 0x0A { line += 1; lineStart = i + 1 }
        return XMLError(reason: reason, offset: end, line: line, column: end - lineStart + 1)
    }

    // MARK: - Pulling events

    /// The next event, or nil after the root element has closed and only whitespace, comments
    /// or processing instructions followed. Throws on the first well-formedness error.
    public mutating func next() throws(XMLError) -> XMLEvent? {
        if let name = pendingEnd {
            pendingEnd = nil
            popOpen()
            return .endElement(name)
        }
        let data = bytes
        return try data.withUnsafeBufferPointer { (buf) throws(XMLError) -> XMLEvent? in try scan(buf) }
    }

    /// Call right after a `.startElement`: returns the element's own text (text and CDATA that
    /// are direct children, concatenated), consuming everything up to and including its end tag.
    /// Child elements are skipped.
    public mutating func readText() throws(XMLError) -> String {
        let level = openNames.count
        let keep = skipsWhitespaceText
        skipsWhitespaceText = false
        defer { skipsWhitespaceText = keep }
        var result = ""
        while let event = try next() {
            switch event {
            case .text(let s): if openNames.count == level { result += s }
            case .endElement: if openNames.count < level { return result }
            case .startElement, .comment, .processingInstruction: break
            }
        }
        return result
    }

    /// Call right after a `.startElement`: consumes the element's content and end tag.
    public mutating func skipElement() throws(XMLError) {
        let level = openNames.count
        while let event = try next() {
            if case .endElement = event, openNames.count < level { return }
        }
    }

    private mutating func popOpen() {
        openNames.removeLast()
        openOffsets.removeLast()
        if openNames.isEmpty { rootPhase = .after }
    }

    private mutating func scan(_ b: UnsafeBufferPointer<UInt8>) throws(XMLError) -> XMLEvent? {
        let n = b.count
        while true {
            guard position < n else {
                if !openNames.isEmpty { throw error(.unclosedElements(openNames.map(\.qualified)), at: n) }
                if case .before = rootPhase { throw error(.noRootElement, at: n) }
                return nil
            }
            let start = position
            eventOffset = start
            if b[start] != UInt8(ascii: "<") {
                var i = start
                var needsDecoding = false
                var allSpace = true
                while i < n {
                    let c = b[i]
                    if c == UInt8(ascii: "<") { break }
                    if c == UInt8(ascii: "&") || c == 0x0D { needsDecoding = true }
                    if allSpace, !XMLReader.isSpace(c) { allSpace = false }
                    i += 1
                }
                position = i
                if openNames.isEmpty {
                    if !allSpace { throw error(.contentOutsideRoot, at: start) }
                    continue
                }
                if allSpace && skipsWhitespaceText { continue }
                if needsDecoding { return .text(try decode(b, start, i, attribute: false)) }
                return .text(String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self))
            }
            guard start + 1 < n else { throw error(.truncated("tag"), at: n) }
            switch b[start + 1] {
            case UInt8(ascii: "/"):
                var i = start + 2
                let name = try parseName(b, &i, context: "end tag")
                while i < n, XMLReader.isSpace(b[i]) { i += 1 }
                guard i < n else { throw error(.truncated("end tag </\(name.qualified)>"), at: n) }
                guard b[i] == UInt8(ascii: ">") else { throw error(.syntax("expected '>' to close end tag </\(name.qualified)>"), at: i) }
                guard let top = openNames.last else { throw error(.unexpectedEndTag(name.qualified), at: start) }
                guard top == name else { throw error(.mismatchedEndTag(expected: top.qualified, found: name.qualified), at: start) }
                position = i + 1
                popOpen()
                return .endElement(name)
            case UInt8(ascii: "?"):
                var i = start + 2
                let target = try parseName(b, &i, context: "processing instruction")
                guard let end = XMLReader.find(b, "?>", from: i) else { throw error(.truncated("processing instruction"), at: n) }
                if target.qualified.lowercased() == "xml" { throw error(.syntax("XML declaration not at the start of the document"), at: start) }
                while i < end, XMLReader.isSpace(b[i]) { i += 1 }
                position = end + 2
                return .processingInstruction(target: target.qualified, data: String(decoding: UnsafeBufferPointer(rebasing: b[i..<end]), as: UTF8.self))
            case UInt8(ascii: "!"):
                if XMLReader.hasPrefix(b, at: start, "<!--") {
                    guard let end = XMLReader.find(b, "-->", from: start + 4) else { throw error(.truncated("comment"), at: n) }
                    position = end + 3
                    return .comment(String(decoding: UnsafeBufferPointer(rebasing: b[(start + 4)..<end]), as: UTF8.self))
                }
                if XMLReader.hasPrefix(b, at: start, "<![CDATA[") {
                    guard !openNames.isEmpty else { throw error(.contentOutsideRoot, at: start) }
                    guard let end = XMLReader.find(b, "]]>", from: start + 9) else { throw error(.truncated("CDATA section"), at: n) }
                    position = end + 3
                    return .text(String(decoding: UnsafeBufferPointer(rebasing: b[(start + 9)..<end]), as: UTF8.self))
                }
                if XMLReader.hasPrefix(b, at: start, "<!DOCTYPE") {
                    guard case .before = rootPhase else { throw error(.syntax("DOCTYPE after the root element"), at: start) }
                    position = try skipDoctype(b, from: start + 9)
                    continue
                }
                throw error(.syntax("unknown markup after '<!'"), at: start)
            default:
                guard !rootPhase.isClosed else { throw error(.contentOutsideRoot, at: start) }
                var i = start + 1
                let name = try parseName(b, &i, context: "start tag")
                var attributes: [XMLAttribute] = []
                var selfClosing = false
                while true {
                    let before = i
                    while i < n, XMLReader.isSpace(b[i]) { i += 1 }
                    guard i < n else { throw error(.truncated("start tag <\(name.qualified)>"), at: n) }
                    let c = b[i]
                    if c == UInt8(ascii: ">") { i += 1; break }
                    if c == UInt8(ascii: "/") {
                        guard i + 1 < n else { throw error(.truncated("start tag <\(name.qualified)>"), at: n) }
                        guard b[i + 1] == UInt8(ascii: ">") else { throw error(.syntax("expected '>' after '/' in <\(name.qualified)>"), at: i + 1) }
                        i += 2
                        selfClosing = true
                        break
                    }
                    guard i > before else { throw error(.syntax("expected whitespace, '>' or '/>' in <\(name.qualified)>"), at: i) }
                    let attributeName = try parseName(b, &i, context: "attribute name")
                    while i < n, XMLReader.isSpace(b[i]) { i += 1 }
                    guard i < n else { throw error(.truncated("start tag <\(name.qualified)>"), at: n) }
                    guard b[i] == UInt8(ascii: "=") else { throw error(.syntax("expected '=' after attribute '\(attributeName.qualified)'"), at: i) }
                    i += 1
                    while i < n, XMLReader.isSpace(b[i]) { i += 1 }
                    guard i < n else { throw error(.truncated("start tag <\(name.qualified)>"), at: n) }
                    let quote = b[i]
                    guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                        throw error(.syntax("value of attribute '\(attributeName.qualified)' is not quoted"), at: i)
                    }
                    i += 1
                    let valueStart = i
                    var needsDecoding = false
                    while i < n {
                        let v = b[i]
                        if v == quote { break }
                        if v == UInt8(ascii: "<") { throw error(.syntax("'<' in the value of attribute '\(attributeName.qualified)'"), at: i) }
                        if v == UInt8(ascii: "&") || v == 0x09 || v == 0x0A || v == 0x0D { needsDecoding = true }
                        i += 1
                    }
                    guard i < n else { throw error(.truncated("attribute value"), at: n) }
                    let value = needsDecoding ? try decode(b, valueStart, i, attribute: true)
                        : String(decoding: UnsafeBufferPointer(rebasing: b[valueStart..<i]), as: UTF8.self)
                    i += 1
                    for a in attributes where a.name == attributeName {
                        throw error(.duplicateAttribute(attributeName.qualified), at: start)
                    }
                    attributes.append(XMLAttribute(name: attributeName, value: value))
                }
                guard openNames.count < maxDepth else { throw error(.tooDeep(limit: maxDepth), at: start) }
                openNames.append(name)
                openOffsets.append(start)
                if case .before = rootPhase { rootPhase = .inside }
                position = i
                if selfClosing { pendingEnd = name }
                return .startElement(name, attributes)
            }
        }
    }

    /// Skips `<!DOCTYPE ...>` including an internal subset in brackets and quoted literals.
    private func skipDoctype(_ b: UnsafeBufferPointer<UInt8>, from: Int) throws(XMLError) -> Int {
        var i = from
        var brackets = 0
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                i += 1
                while i < b.count, b[i] != c { i += 1 }
            } else if XMLReader.hasPrefix(b, at: i, "<!--") {
                guard let end = XMLReader.find(b, "-->", from: i + 4) else { break }
                i = end + 2
            } else if c == UInt8(ascii: "[") {
                brackets += 1
            } else if c == UInt8(ascii: "]") {
                brackets -= 1
            } else if c == UInt8(ascii: ">"), brackets <= 0 {
                return i + 1
            }
            i += 1
        }
        throw error(.truncated("DOCTYPE"), at: b.count)
    }

    private func parseName(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, context: String) throws(XMLError) -> XMLName {
        let start = i
        guard i < b.count else { throw error(.truncated(context), at: b.count) }
        guard XMLReader.isNameStart(b[i]) else { throw error(.syntax("expected a name in \(context)"), at: i) }
        var colon = -1
        i += 1
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: ":") { if colon < 0 { colon = i } } else if !XMLReader.isNameChar(c) { break }
            i += 1
        }
        if colon < 0 {
            return XMLName(local: String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self))
        }
        return XMLName(prefix: String(decoding: UnsafeBufferPointer(rebasing: b[start..<colon]), as: UTF8.self),
                       local: String(decoding: UnsafeBufferPointer(rebasing: b[(colon + 1)..<i]), as: UTF8.self))
    }

    /// Decodes entities and character references; normalises CR LF / CR to LF (and, in
    /// attribute values, tab / LF / CR to a space, as XML 1.0 section 3.3.3 asks).
    private func decode(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, attribute: Bool) throws(XMLError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(to - from)
        var i = from
        while i < to {
            let c = b[i]
            if c == 0x0D {
                out.append(attribute ? 0x20 : 0x0A)
                i += (i + 1 < to && b[i + 1] == 0x0A) ? 2 : 1
                continue
            }
            if attribute && (c == 0x0A || c == 0x09) { out.append(0x20); i += 1; continue }
            if c != UInt8(ascii: "&") { out.append(c); i += 1; continue }
            var j = i + 1
            while j < to, j - i <= 12, b[j] != UInt8(ascii: ";") { j += 1 }
            let raw = String(decoding: UnsafeBufferPointer(rebasing: b[i..<min(j + 1, to)]), as: UTF8.self)
            guard j < to, b[j] == UInt8(ascii: ";") else { throw error(.badEntity(raw), at: i) }
            let body = UnsafeBufferPointer(rebasing: b[(i + 1)..<j])
            if body.first == UInt8(ascii: "#") {
                var value: UInt32 = 0
                var k = 1
                let hex = body.count > 1 && body[1] == UInt8(ascii: "x")
                if hex { k = 2 }
                guard k < body.count else { throw error(.badEntity(raw), at: i) }
                while k < body.count {
                    let d = body[k]
                    let digit: UInt32
                    if isDigit(d) { digit = UInt32(d - 48) }
                    else if hex, (d | 0x20) >= UInt8(ascii: "a"), (d | 0x20) <= UInt8(ascii: "f") { digit = UInt32((d | 0x20) - UInt8(ascii: "a") + 10) }
                    else { throw error(.badEntity(raw), at: i) }
                    value = value * (hex ? 16 : 10) + digit
                    guard value <= 0x10FFFF else { throw error(.badEntity(raw), at: i) }
                    k += 1
                }
                guard XMLReader.isXMLChar(value), let scalar = Unicode.Scalar(value) else { throw error(.badEntity(raw), at: i) }
                var utf8 = scalar.utf8.makeIterator()
                while let u = utf8.next() { out.append(u) }
            } else {
                switch String(decoding: body, as: UTF8.self) {
                case "lt": out.append(UInt8(ascii: "<"))
                case "gt": out.append(UInt8(ascii: ">"))
                case "amp": out.append(UInt8(ascii: "&"))
                case "apos": out.append(UInt8(ascii: "'"))
                case "quot": out.append(UInt8(ascii: "\""))
                default: throw error(.badEntity(raw), at: i)
                }
            }
            i = j + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Byte helpers

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D }

    @inline(__always) static func isNameStart(_ c: UInt8) -> Bool {
        let l = c | 0x20
        return (l >= UInt8(ascii: "a") && l <= UInt8(ascii: "z")) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c >= 0x80
    }

    @inline(__always) static func isNameChar(_ c: UInt8) -> Bool {
        isNameStart(c) || isDigit(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
    }

    /// The XML 1.0 `Char` production.
    static func isXMLChar(_ v: UInt32) -> Bool {
        v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v)
    }

    static func hasPrefix(_ b: UnsafeBufferPointer<UInt8>, at i: Int, _ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= b.count else { return false }
        let p = s.utf8Start
        for k in 0..<n where b[i + k] != p[k] { return false }
        return true
    }

    static func hasPrefix(_ b: [UInt8], at i: Int, _ s: StaticString) -> Bool {
        b.withUnsafeBufferPointer { hasPrefix($0, at: i, s) }
    }

    /// Offset of the first occurrence of `s` at or after `from`.
    static func find(_ b: UnsafeBufferPointer<UInt8>, _ s: StaticString, from: Int) -> Int? {
        let n = s.utf8CodeUnitCount
        let first = s.utf8Start[0]
        var i = from
        while i + n <= b.count {
            if b[i] == first, hasPrefix(b, at: i, s) { return i }
            i += 1
        }
        return nil
    }

    static func find(_ b: [UInt8], _ s: StaticString, from: Int) -> Int? {
        b.withUnsafeBufferPointer { find($0, s, from: from) }
    }

    /// `name="value"` inside an XML declaration.
    static func pseudoAttribute(_ name: StaticString, in decl: [UInt8]) -> String? {
        decl.withUnsafeBufferPointer { b -> String? in
            guard var i = find(b, name, from: 0) else { return nil }
            i += name.utf8CodeUnitCount
            while i < b.count, isSpace(b[i]) || b[i] == UInt8(ascii: "=") { i += 1 }
            guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else { return nil }
            let q = b[i]
            let start = i + 1
            var end = start
            while end < b.count, b[end] != q { end += 1 }
            guard end < b.count else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
        }
    }

    /// First invalid UTF-8 sequence or forbidden character at or after `from`.
    static func validate(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> (Int, XMLError.Reason)? {
        var i = from
        let n = b.count
        while i < n {
            let c = b[i]
            if c < 0x80 {
                if c < 0x20 && c != 0x09 && c != 0x0A && c != 0x0D { return (i, .invalidCharacter(UInt32(c))) }
                i += 1
                continue
            }
            let need: Int
            var cp: UInt32
            let minimum: UInt32
            if c & 0xE0 == 0xC0 { need = 1; cp = UInt32(c & 0x1F); minimum = 0x80 }
            else if c & 0xF0 == 0xE0 { need = 2; cp = UInt32(c & 0x0F); minimum = 0x800 }
            else if c & 0xF8 == 0xF0 { need = 3; cp = UInt32(c & 0x07); minimum = 0x10000 }
            else { return (i, .invalidUTF8) }
            guard i + need < n else { return (i, .invalidUTF8) }
            for k in 1...need {
                let d = b[i + k]
                guard d & 0xC0 == 0x80 else { return (i, .invalidUTF8) }
                cp = cp << 6 | UInt32(d & 0x3F)
            }
            if cp < minimum || cp > 0x10FFFF || (0xD800...0xDFFF).contains(cp) { return (i, .invalidUTF8) }
            if cp == 0xFFFE || cp == 0xFFFF { return (i, .invalidCharacter(cp)) }
            i += need + 1
        }
        return nil
    }
}

/// Where a reader stands relative to the one root element a document may have.
enum RootPhase: Sendable {
    case before
    case inside
    case after

    /// The root element has ended: nothing but comments and processing instructions may follow.
    var isClosed: Bool {
        switch self {
        case .before, .inside: return false
        case .after: return true
        }
    }
}
