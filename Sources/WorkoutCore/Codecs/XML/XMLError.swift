/// Why `XMLReader` refused a document, with where: byte offset, 1-based line and column
/// (column counted in bytes).
public struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The input ended inside a construct (tag, comment, CDATA, attribute value, ...).
        case truncated(String)
        /// The document ended with these elements still open (innermost last).
        case unclosedElements([String])
        case mismatchedEndTag(expected: String, found: String)
        /// An end tag with no element open.
        case unexpectedEndTag(String)
        /// `&name;` that is not one of the five predefined entities or a valid character reference.
        case badEntity(String)
        case invalidUTF8
        /// A byte XML forbids (a control character other than tab, LF, CR).
        case invalidCharacter(UInt32)
        case unsupportedEncoding(String)
        case tooDeep(limit: Int)
        case duplicateAttribute(String)
        /// No element at all in the document.
        case noRootElement
        /// Non-whitespace text or a second element after (or before) the root element.
        case contentOutsideRoot
        /// Any other syntax error, described.
        case syntax(String)
    }

    public var reason: Reason
    public var offset: Int
    public var line: Int
    public var column: Int

    public init(reason: Reason, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// A short phrase for the reason (`Reason.text`).
    public var reasonText: String { reason.text }

    public var description: String { "XML error at line \(line), column \(column) (byte \(offset)): \(reasonText)" }
}

extension XMLError.Reason {
    /// A short phrase ("mismatched end tag </trk>, expected </trkseg>").
    public var text: String {
        switch self {
        case .truncated(let what): return "unexpected end of input in \(what)"
        case .unclosedElements(let names): return "unclosed element <\(names.last ?? "")>" + (names.count > 1 ? " (\(names.count) open)" : "")
        case .mismatchedEndTag(let expected, let found): return "mismatched end tag </\(found)>, expected </\(expected)>"
        case .unexpectedEndTag(let name): return "end tag </\(name)> with no open element"
        case .badEntity(let e): return "bad entity or character reference '\(e)'"
        case .invalidUTF8: return "invalid UTF-8"
        case .invalidCharacter(let c): return "character U+\(String(c, radix: 16, uppercase: true)) not allowed in XML"
        case .unsupportedEncoding(let e): return "unsupported encoding '\(e)'"
        case .tooDeep(let limit): return "elements nested deeper than \(limit) levels"
        case .duplicateAttribute(let a): return "duplicate attribute '\(a)'"
        case .noRootElement: return "no root element"
        case .contentOutsideRoot: return "content outside the root element"
        case .syntax(let s): return s
        }
    }
}
