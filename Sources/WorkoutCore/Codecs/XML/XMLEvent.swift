/// An element or attribute name as written, split at the first ':' into prefix and local name.
/// Readers of GPX and TCX match on `local` only: exporters bind the same namespace to different
/// prefixes (`gpxtpx:`, `ns3:`, a default namespace), so prefixes carry no meaning for them.
public struct XMLName: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The prefix before ':', or "" when there is none.
    public var prefix: String
    /// The name after the prefix.
    public var local: String

    public init(prefix: String = "", local: String) {
        self.prefix = prefix
        self.local = local
    }

    /// `prefix:local`, or `local` without a prefix: the name as it appears in the document.
    public var qualified: String { prefix.isEmpty ? local : prefix + ":" + local }
    public var description: String { qualified }
}

/// One attribute of a start tag, its value with entities decoded and whitespace normalised.
public struct XMLAttribute: Sendable, Equatable {
    public var name: XMLName
    public var value: String

    public init(name: XMLName, value: String) {
        self.name = name
        self.value = value
    }
}

/// What `XMLReader.next()` returns: one piece of the document, in document order.
public enum XMLEvent: Sendable, Equatable {
    /// `<name a="1">` or `<name/>`; a self-closing tag is followed by its `endElement`.
    case startElement(XMLName, [XMLAttribute])
    case endElement(XMLName)
    /// Character data (entities decoded, CR LF normalised to LF) or the content of a CDATA section.
    case text(String)
    case comment(String)
    /// `<?target data?>`; the XML declaration itself is consumed by the reader, not returned.
    case processingInstruction(target: String, data: String)
}

extension Array where Element == XMLAttribute {
    /// The value of the first attribute with this local name (prefixes ignored), if any.
    public func value(ofLocal local: String) -> String? {
        for a in self where a.name.local == local { return a.value }
        return nil
    }
}
