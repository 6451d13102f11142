/// Why a request could not be read. Each is ordinary input from a peer: it gets the status
/// below with `message` as its body, and the connection is closed (the stream can no longer be
/// framed).
public enum HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not `METHOD SP /target SP HTTP/x.y`: what is wrong.
    case badRequestLine(String)
    case requestLineTooLong(limit: Int)
    case unsupportedVersion(String)
    case badHeader(String)
    case headersTooLarge(limit: Int)
    case tooManyHeaders(limit: Int)
    case missingHost
    case badContentLength(String)
    case bodyTooLarge(length: Int, limit: Int)
    /// `Transfer-Encoding` (chunked bodies): the edit form never needs one.
    case transferEncodingNotSupported(String)

    public var status: HTTPStatus {
        switch self {
        case .badRequestLine, .badHeader, .missingHost, .badContentLength: return .badRequest
        case .requestLineTooLong: return .uriTooLong
        case .unsupportedVersion: return .httpVersionNotSupported
        case .headersTooLarge, .tooManyHeaders: return .requestHeaderFieldsTooLarge
        case .bodyTooLarge: return .contentTooLarge
        case .transferEncodingNotSupported: return .notImplemented
        }
    }

    public var description: String {
        switch self {
        case .badRequestLine(let why): return "bad request line: \(why)"
        case .requestLineTooLong(let limit): return "request line longer than \(limit) bytes"
        case .unsupportedVersion(let v): return "HTTP version '\(v)' is not supported (HTTP/1.0 and HTTP/1.1 are)"
        case .badHeader(let why): return "bad header: \(why)"
        case .headersTooLarge(let limit): return "headers larger than \(limit) bytes"
        case .tooManyHeaders(let limit): return "more than \(limit) header fields"
        case .missingHost: return "an HTTP/1.1 request needs exactly one Host header"
        case .badContentLength(let v): return "Content-Length '\(v)' is not one number"
        case .bodyTooLarge(let length, let limit): return "body of \(length) bytes is larger than \(limit) bytes"
        case .transferEncodingNotSupported(let te): return "Transfer-Encoding '\(te)' is not supported; send Content-Length"
        }
    }
}
