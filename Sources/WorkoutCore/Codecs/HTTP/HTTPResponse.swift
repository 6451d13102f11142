/// A response to write: status, headers and body. `serialized(method:)` gives the bytes on the
/// wire, with `Content-Length` (and no body for HEAD, 204 and 304).
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(status: HTTPStatus, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status; self.headers = headers; self.body = body
    }

    /// A plain-text response (errors: the message a person reads).
    public static func text(_ status: HTTPStatus, _ message: String, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8")] + headers, body: Array((message + "\n").utf8))
    }

    public func header(_ name: String) -> String? { headers.first { $0.is(name) }?.value }

    /// The status line, headers, `Content-Length` (unless `streaming`), `Connection: close`
    /// when `close`, and the body (none for HEAD or a status without one).
    public func serialized(method: HTTPMethod = .get, close: Bool = false, streaming: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        let sendsBody: Bool
        switch method {
        case .head: sendsBody = false
        case .get, .post, .other: sendsBody = status.allowsBody
        }
        out.reserveCapacity(256 + (sendsBody ? body.count : 0))
        out.append(contentsOf: "HTTP/1.1 \(status.code) \(status.reason)\r\n".utf8)
        for h in headers {
            out.append(contentsOf: h.name.utf8)
            out.append(contentsOf: ": ".utf8)
            // A value never breaks the header section (the writers never put CR or LF in one;
            // this makes sure of it).
            out.append(contentsOf: h.value.utf8.map { $0 == 13 || $0 == 10 ? 32 : $0 })
            out.append(contentsOf: "\r\n".utf8)
        }
        if !streaming, status.allowsBody { out.append(contentsOf: "Content-Length: \(body.count)\r\n".utf8) }
        if close { out.append(contentsOf: "Connection: close\r\n".utf8) }
        out.append(contentsOf: "\r\n".utf8)
        if sendsBody { out.append(contentsOf: body) }
        return out
    }
}
