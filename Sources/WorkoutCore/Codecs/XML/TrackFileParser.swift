/// What the GPX and TCX readers share: an `XMLReader` whose errors become `TrackFileError`s,
/// and parsing of the numbers and times found in element text and attributes.
struct TrackFileParser {
    var xml: XMLReader
    let format: TrackFileError.Format

    init(_ bytes: [UInt8], format: TrackFileError.Format) throws(TrackFileError) {
        self.format = format
        do {
            xml = try XMLReader(bytes)
        } catch {
            throw TrackFileError(format: format, reason: .malformedXML(error.reason), line: error.line, offset: error.offset)
        }
    }

    private func wrap(_ e: XMLError) -> TrackFileError {
        TrackFileError(format: format, reason: .malformedXML(e.reason), line: e.line, offset: e.offset)
    }

    mutating func next() throws(TrackFileError) -> XMLEvent? {
        do { return try xml.next() } catch { throw wrap(error) }
    }

    mutating func readText() throws(TrackFileError) -> String {
        do { return try xml.readText() } catch { throw wrap(error) }
    }

    mutating func skipElement() throws(TrackFileError) {
        do { try xml.skipElement() } catch { throw wrap(error) }
    }

    var depth: Int { xml.depth }
    var eventOffset: Int { xml.eventOffset }

    mutating func line(at offset: Int) -> Int { xml.line(at: offset) }

    mutating func fail(_ reason: TrackFileError.Reason, at offset: Int) -> TrackFileError {
        TrackFileError(format: format, reason: reason, line: xml.line(at: offset), offset: offset)
    }

    /// Reads the first start tag; it must have the expected local name.
    mutating func root(_ expected: String) throws(TrackFileError) -> [XMLAttribute] {
        while let event = try next() {
            if case .startElement(let name, let attributes) = event {
                guard name.local == expected else { throw fail(.wrongRootElement(found: name.qualified, expected: expected), at: eventOffset) }
                return attributes
            }
        }
        throw fail(.malformedXML(.noRootElement), at: xml.position)
    }

    /// Calls `body` with the local name and attributes of each child element of the element
    /// just started; `body` must consume the child (readText, skipElement, or nested children).
    mutating func children(_ body: (inout TrackFileParser, String, [XMLAttribute]) throws(TrackFileError) -> Void) throws(TrackFileError) {
        let level = depth
        while let event = try next() {
            switch event {
            case .startElement(let name, let attributes):
                try body(&self, name.local, attributes)
            case .endElement:
                if depth < level { return }
            case .text, .comment, .processingInstruction:
                break
            }
        }
    }

    /// The element's text as a finite number; nil when empty.
    mutating func double(_ field: String) throws(TrackFileError) -> Double? {
        let offset = eventOffset
        let text = try readText()
        return try TrackFileParser.number(text, field: field) { r throws(TrackFileError) in throw fail(r, at: offset) }
    }

    /// The element's text as a whole number (decimals are rounded); nil when empty.
    mutating func int(_ field: String, range: ClosedRange<Int>) throws(TrackFileError) -> Int? {
        let offset = eventOffset
        let text = try readText()
        guard let d = try TrackFileParser.number(text, field: field, { r throws(TrackFileError) in throw fail(r, at: offset) }) else { return nil }
        guard d >= Double(range.lowerBound) - 0.5, d <= Double(range.upperBound) + 0.5 else {
            throw fail(.badNumber(field: field, text: TrackFileParser.trim(text)), at: offset)
        }
        return Int(d.rounded())
    }

    /// The element's text as an ISO-8601 time; nil when empty.
    mutating func time(_ field: String) throws(TrackFileError) -> Double? {
        let offset = eventOffset
        let text = TrackFileParser.trim(try readText())
        if text.isEmpty { return nil }
        guard let t = ISO8601.parse(text) else { throw fail(.badTime(field: field, text: text), at: offset) }
        return t
    }

    /// An attribute (or text) as a finite number; throws for text that is not one.
    mutating func attributeNumber(_ text: String, field: String, at offset: Int) throws(TrackFileError) -> Double {
        guard let d = try TrackFileParser.number(text, field: field, { r throws(TrackFileError) in throw fail(r, at: offset) }) else {
            throw fail(.badNumber(field: field, text: text), at: offset)
        }
        return d
    }

    static func number(_ raw: String, field: String, _ failure: (TrackFileError.Reason) throws(TrackFileError) -> Never) throws(TrackFileError) -> Double? {
        let text = trim(raw)
        if text.isEmpty { return nil }
        // Digits, sign, point and exponent only: no "nan", "inf", hex or spaces inside.
        var copy = text
        let value = copy.withUTF8 { parseDouble($0) }
        guard let d = value, d.isFinite else { try failure(.badNumber(field: field, text: text)) }
        return d
    }

    static func trim(_ s: String) -> String {
        let u = s.utf8
        guard let first = u.firstIndex(where: { !XMLReader.isSpace($0) }) else { return "" }
        let last = u.lastIndex(where: { !XMLReader.isSpace($0) })!
        if first == u.startIndex && last == u.index(before: u.endIndex) { return s }
        return String(s[first...last])
    }
}
