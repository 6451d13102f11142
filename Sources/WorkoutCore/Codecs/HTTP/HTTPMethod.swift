/// The request methods the web pages answer: pages and downloads are read with GET (HEAD gives
/// their headers alone), changes are POSTs. Any other method is refused with 405 (its name is
/// kept only for the message).
public enum HTTPMethod: Sendable, Equatable {
    case get
    case head
    case post
    /// A well-formed method name this server does not implement (`PUT`, `DELETE`, ...).
    case other(String)

    public init(name: String) {
        switch name {
        case "GET": self = .get
        case "HEAD": self = .head
        case "POST": self = .post
        case let name: self = .other(name)
        }
    }

    public var name: String {
        switch self {
        case .get: return "GET"
        case .head: return "HEAD"
        case .post: return "POST"
        case .other(let name): return name
        }
    }
}

/// The protocol versions understood: HTTP/1.0 and HTTP/1.1 (others get 505).
public enum HTTPVersion: Sendable, Equatable {
    case http10
    case http11

    public var text: String {
        switch self {
        case .http10: return "HTTP/1.0"
        case .http11: return "HTTP/1.1"
        }
    }
}
