import Testing
@testable import WorkoutCore

@Suite struct XMLReaderTests {
    func events(_ text: String, whitespace: Bool = false) throws -> [XMLEvent] {
        var r = try XMLReader(Array(text.utf8))
        r.skipsWhitespaceText = !whitespace
        var out: [XMLEvent] = []
        while let e = try r.next() { out.append(e) }
        return out
    }

    func failure(_ bytes: [UInt8], maxDepth: Int = XMLReader.defaultMaxDepth) -> XMLError? {
        do {
            var r = try XMLReader(bytes, maxDepth: maxDepth)
            while try r.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    @Test func tokenizesElementsAttributesTextAndMarkup() throws {
        let text = """
        \u{FEFF}<?xml version="1.0" encoding="UTF-8" standalone='yes'?>
        <!DOCTYPE gpx [ <!ELEMENT gpx ANY> <!-- ] > --> ]>
        <!-- before -->
        <g:root xmlns:g="urn:x" a='1 &amp; 2' b="&lt;&#65;&#x42;&gt;&quot;&apos;">
          <g:leaf/>text &amp; more<![CDATA[<raw> & stuff]]><?pi some data?>
          <x:y z="a\tb"/>
        </g:root>
        <!-- after -->
        """
        let e = try events(text)
        expectEqual(e, [
            .comment(" before "),
            .startElement(XMLName(prefix: "g", local: "root"), [
                XMLAttribute(name: XMLName(prefix: "xmlns", local: "g"), value: "urn:x"),
                XMLAttribute(name: XMLName(local: "a"), value: "1 & 2"),
                XMLAttribute(name: XMLName(local: "b"), value: "<AB>\"'"),
            ]),
            .startElement(XMLName(prefix: "g", local: "leaf"), []),
            .endElement(XMLName(prefix: "g", local: "leaf")),
            .text("text & more"),
            .text("<raw> & stuff"),
            .processingInstruction(target: "pi", data: "some data"),
            .startElement(XMLName(prefix: "x", local: "y"), [XMLAttribute(name: XMLName(local: "z"), value: "a b")]),
            .endElement(XMLName(prefix: "x", local: "y")),
            .endElement(XMLName(prefix: "g", local: "root")),
            .comment(" after "),
        ])
    }

    @Test func decodesCharacterReferencesAndLineEnds() throws {
        let e = try events("<a>&#233;&#x1F600;\r\nx\ry</a>")
        expectEqual(e[1], .text("é😀\nx\ny"))
    }

    @Test func readTextAndSkipElement() throws {
        var r = try XMLReader(Array("<a><b> 1.5 <c>no</c>!</b><d><e/><f>x</f></d><g/></a>".utf8))
        _ = try r.next()
        _ = try r.next()
        try expectEqual(r.readText(), " 1.5 !")
        _ = try r.next()
        try r.skipElement()
        try expectEqual(r.next(), .startElement(XMLName(local: "g"), []))
        try expectEqual(r.readText(), "")
        try expectEqual(r.next(), .endElement(XMLName(local: "a")))
        try expectNil(r.next())
    }

    @Test func transcodesLatin1() throws {
        var bytes = Array("<?xml version='1.0' encoding='ISO-8859-1'?><n>M".utf8)
        bytes += [0xFC, 0x6E]  // "ün"
        bytes += Array("chen</n>".utf8)
        var r = try XMLReader(bytes)
        _ = try r.next()
        try expectEqual(r.readText(), "München")
    }

    @Test(arguments: [
        ("<a><b></a>", XMLError.Reason.mismatchedEndTag(expected: "b", found: "a"), 1, 7),
        ("<a>\n<b>\n", .unclosedElements(["a", "b"]), 3, 1),
        ("<a x='1>", .truncated("attribute value"), 1, 9),
        ("<a x=1/>", .syntax("value of attribute 'x' is not quoted"), 1, 6),
        ("<a x='1' x='2'/>", .duplicateAttribute("x"), 1, 1),
        ("<a x='<'/>", .syntax("'<' in the value of attribute 'x'"), 1, 7),
        ("<a>&nbsp;</a>", .badEntity("&nbsp;"), 1, 4),
        ("<a>&amp</a>", .badEntity("&amp"), 1, 4),
        ("<a>&#0;</a>", .badEntity("&#0;"), 1, 4),
        ("<a>&#xD800;</a>", .badEntity("&#xD800;"), 1, 4),
        ("<a>&#12a;</a>", .badEntity("&#12a;"), 1, 4),
        ("<a></a>\n</b>", .unexpectedEndTag("b"), 2, 1),
        ("<a></a>\n<b/>", .contentOutsideRoot, 2, 1),
        ("</a>", .unexpectedEndTag("a"), 1, 1),
        ("<a><!-- x", .truncated("comment"), 1, 10),
        ("<a><![CDATA[ x", .truncated("CDATA section"), 1, 15),
        ("<a", .truncated("start tag <a>"), 1, 3),
        ("<a></a", .truncated("end tag </a>"), 1, 7),
        ("<a>< b/></a>", .syntax("expected a name in start tag"), 1, 5),
        ("<a b='1'c='2'/>", .syntax("expected whitespace, '>' or '/>' in <a>"), 1, 9),
        ("   ", .noRootElement, 1, 4),
        ("x<a/>", .contentOutsideRoot, 1, 1),
        ("<a/><?xml version='1.0'?>", .syntax("XML declaration not at the start of the document"), 1, 5),
        ("<a>\u{01}</a>", .invalidCharacter(1), 1, 4),
        ("<?xml version='1.0' encoding='EBCDIC'?><a/>", .unsupportedEncoding("EBCDIC"), 1, 1),
    ] as [(String, XMLError.Reason, Int, Int)])
    func refusesMalformed(_ text: String, _ reason: XMLError.Reason, _ line: Int, _ column: Int) {
        let e = failure(Array(text.utf8))
        expectEqual(e?.reason, reason)
        expectEqual(e?.line, line)
        expectEqual(e?.column, column, "\(String(describing: e))")
    }

    @Test(arguments: [
        [0x3C, 0x61, 0x3E, 0xFF, 0x3C, 0x2F, 0x61, 0x3E],        // 0xFF never valid
        [0x3C, 0x61, 0x3E, 0xC0, 0xAF, 0x3C, 0x2F, 0x61, 0x3E],  // overlong '/'
        [0x3C, 0x61, 0x3E, 0xED, 0xA0, 0x80, 0x3C, 0x2F, 0x61, 0x3E],  // surrogate
        [0x3C, 0x61, 0x3E, 0xE2, 0x82, 0x3C, 0x2F, 0x61, 0x3E],  // truncated sequence
    ] as [[UInt8]])
    func refusesInvalidUTF8(_ bytes: [UInt8]) {
        let e = failure(bytes)
        expectEqual(e?.reason, .invalidUTF8)
        expectEqual(e?.offset, 3)
    }

    @Test func refusesUTF16() {
        expectEqual(failure([0xFF, 0xFE, 0x3C, 0x00])?.reason, .unsupportedEncoding("UTF-16"))
    }

    @Test func limitsDepth() {
        let deep = String(repeating: "<a>", count: 20) + String(repeating: "</a>", count: 20)
        expectNil(failure(Array(deep.utf8), maxDepth: 20))
        expectEqual(failure(Array(deep.utf8), maxDepth: 19)?.reason, .tooDeep(limit: 19))
        let bomb = String(repeating: "<a>", count: 100_000)
        expectEqual(failure(Array(bomb.utf8))?.reason, .tooDeep(limit: XMLReader.defaultMaxDepth))
    }

    @Test func reportsLinesIncrementally() throws {
        var r = try XMLReader(Array("<a>\n<b/>\n\n<c/></a>".utf8))
        var lines: [Int] = []
        while let e = try r.next() {
            if case .startElement = e { lines.append(r.line(at: r.eventOffset)) }
        }
        expectEqual(lines, [1, 2, 4])
        expectEqual(r.line(at: 0), 1)
    }
}
