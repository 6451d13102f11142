/// One request as read off the wire: method, target split into its path and query (both still
/// percent-encoded: `PercentEncoding` decodes them), version, headers in arrival order, body.
public struct HTTPRequest: Sendable, Equatable {
    public var method: HTTPMethod
    /// The request target as sent (`/workouts/ID?x=time`).
    public var target: String
    public var version: HTTPVersion
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http11, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.method = method; self.target = target; self.version = version; self.headers = headers; self.body = body
    }

    /// The target before `?` (percent-encoded).
    public var path: Substring {
        target.firstIndex(of: "?").map { target[..<$0] } ?? target[...]
    }

    /// The target after `?` (percent-encoded), empty without one.
    public var query: Substring {
        target.firstIndex(of: "?").map { target[target.index(after: $0)...] } ?? ""
    }

    /// The first header of that name (names compare case-insensitively).
    public func header(_ name: String) -> String? {
        headers.first { $0.is(name) }?.value
    }

    /// Every value of the headers of that name.
    public func headers(named name: String) -> [String] {
        headers.filter { $0.is(name) }.map(\.value)
    }

    /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection:
    /// close`, HTTP/1.0 only with `Connection: keep-alive`.
    public var keepsAlive: Bool {
        let tokens = headers(named: "connection").flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces.lowercasedASCII }
        switch version {
        case .http11: return !tokens.contains("close")
        case .http10: return tokens.contains("keep-alive")
        }
    }
}

/// One header field: its name as sent and its value without surrounding whitespace.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) { self.name = name; self.value = value }

    /// Whether the name is `other`, ignoring ASCII case.
    public func `is`(_ other: String) -> Bool {
        name.utf8.count == other.utf8.count && zip(name.utf8, other.utf8).allSatisfy { asciiLower($0) == asciiLower($1) }
    }
}

@inline(__always) func asciiLower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b | 0x20 : b }

extension StringProtocol {
    /// ASCII letters lower-cased, other characters as they are.
    public var lowercasedASCII: String { String(decoding: utf8.map(asciiLower), as: UTF8.self) }

    /// Without leading and trailing spaces and tabs.
    public var trimmingSpaces: Substring {
        let s = Substring(self)
        guard let first = s.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        let last = s.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return s[first...last]
    }
}
