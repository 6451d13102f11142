/// Reads HTTP/1.1 requests from a byte stream (RFC 9112), incrementally and within
/// `HTTPLimits`: feed whatever arrived with `append`, then take requests with `next()` until it
/// says `.needMore`. Pipelined requests come out one by one. Pure: no I/O, no clock.
///
/// Accepted: `GET`/`HEAD`/`POST` (others are read and answered 405 by the router), origin-form
/// targets (`/path?query`), HTTP/1.0 and 1.1, CRLF or bare LF line ends, bodies framed by
/// `Content-Length`. Refused with the status of the `HTTPParseError`: everything else, notably
/// obsolete line folding, whitespace before a header's colon, conflicting Content-Length, any
/// Transfer-Encoding, control characters, and every limit exceeded. After a failure the parser
/// stays failed (the connection must close: its framing is lost).
public struct HTTPRequestParser: Sendable {
    public enum Step: Sendable, Equatable {
        case request(HTTPRequest)
        case needMore
        case failure(HTTPParseError)
    }

    private enum Phase: Sendable {
        /// Waiting for the end of the request line.
        case requestLine
        /// Reading header lines; `headerBytes` counts those read so far.
        case headers(Head, headerBytes: Int)
        /// Waiting for `length` bytes of body.
        case body(Head, length: Int)
        /// A request was refused; nothing more is read.
        case failed(HTTPParseError)
    }

    struct Head: Sendable {
        var method: HTTPMethod
        var target: String
        var version: HTTPVersion
        var headers: [HTTPHeader] = []
    }

    public let limits: HTTPLimits
    private var buffer: [UInt8] = []
    /// Where unread input starts in `buffer` (the consumed prefix is dropped now and then).
    private var start = 0
    /// How far `buffer` was already searched for a line end (so a trickle is not rescanned).
    private var scanned = 0
    private var phase = Phase.requestLine

    public init(limits: HTTPLimits = .default) { self.limits = limits }

    /// Bytes read and not yet part of a request returned: non-zero while a request is arriving
    /// (the server's slow-client timer runs while this is so).
    public var pendingBytes: Int { buffer.count - start }

    /// Whether a request has begun arriving (or a refusal is pending).
    public var isMidRequest: Bool {
        switch phase {
        case .requestLine: return pendingBytes > 0
        case .headers, .body, .failed: return true
        }
    }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next complete request, `.needMore`, or the failure that ends the connection.
    public mutating func next() -> Step {
        while true {
            switch phase {
            case .failed(let e):
                return .failure(e)
            case .requestLine:
                guard let line = takeLine(limit: limits.requestLineBytes, tooLong: .requestLineTooLong(limit: limits.requestLineBytes)) else { return pendingStep }
                // Robustness (RFC 9112 2.2): empty lines before a request line are ignored.
                if line.isEmpty { continue }
                switch Self.parseRequestLine(buffer[line]) {
                case .success(let head): phase = .headers(head, headerBytes: 0)
                case .failure(let e): return fail(e)
                }
            case .headers(var head, let used):
                let room = limits.headerBytes - used
                guard let line = takeLine(limit: room, tooLong: .headersTooLarge(limit: limits.headerBytes)) else { return pendingStep }
                let lineBytes = line.count + lineEndLength
                if used + lineBytes > limits.headerBytes { return fail(.headersTooLarge(limit: limits.headerBytes)) }
                if line.isEmpty {
                    switch Self.bodyLength(head) {
                    case .failure(let e): return fail(e)
                    case .success(let length):
                        if length > limits.bodyBytes { return fail(.bodyTooLarge(length: length, limit: limits.bodyBytes)) }
                        phase = .body(head, length: length)
                    }
                    continue
                }
                guard head.headers.count < limits.headerCount else { return fail(.tooManyHeaders(limit: limits.headerCount)) }
                switch Self.parseHeader(buffer[line]) {
                case .success(let h): head.headers.append(h)
                case .failure(let e): return fail(e)
                }
                phase = .headers(head, headerBytes: used + lineBytes)
            case .body(let head, let length):
                guard buffer.count - start >= length else { return .needMore }
                let body = Array(buffer[start..<start + length])
                start += length
                scanned = start
                phase = .requestLine
                return .request(HTTPRequest(method: head.method, target: head.target, version: head.version, headers: head.headers, body: body))
            }
        }
    }

    private var pendingStep: Step {
        if case .failed(let e) = phase { return .failure(e) }
        return .needMore
    }

    private mutating func fail(_ e: HTTPParseError) -> Step {
        phase = .failed(e)
        buffer = []
        start = 0
        scanned = 0
        return .failure(e)
    }

    /// Length of the line end of the line last taken (1 for LF, 2 for CRLF).
    private var lineEndLength = 2

    /// The next line (without its end) when one is complete; nil when more is needed, or after
    /// failing with `tooLong` when `limit` bytes arrived without a line end.
    private mutating func takeLine(limit: Int, tooLong: HTTPParseError) -> Range<Int>? {
        var k = max(scanned, start)
        let end = buffer.count
        while k < end, buffer[k] != 10 { k += 1 }
        guard k < end else {
            scanned = end
            // Room for a CR before the LF that has not arrived yet.
            if end - start > limit + 1 { _ = fail(tooLong) }
            return nil
        }
        var lineEnd = k
        lineEndLength = 1
        if lineEnd > start, buffer[lineEnd - 1] == 13 { lineEnd -= 1; lineEndLength = 2 }
        if lineEnd - start > limit { _ = fail(tooLong); return nil }
        let line = start..<lineEnd
        start = k + 1
        scanned = start
        return line
    }

    /// `METHOD SP request-target SP HTTP-version`.
    static func parseRequestLine(_ line: ArraySlice<UInt8>) -> Result<Head, HTTPParseError> {
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return .failure(.badRequestLine("expected METHOD, target and version separated by single spaces"))
        }
        let method = parts[0], target = parts[1], version = parts[2]
        guard !method.isEmpty, method.allSatisfy(isTokenByte) else { return .failure(.badRequestLine("the method is not a token")) }
        guard target.first == UInt8(ascii: "/") else {
            return .failure(.badRequestLine("the target must be a path starting with '/'"))
        }
        guard target.allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return .failure(.badRequestLine("the target holds a space, control or non-ASCII byte"))
        }
        let v: HTTPVersion
        switch String(decoding: version, as: UTF8.self) {
        case "HTTP/1.1": v = .http11
        case "HTTP/1.0": v = .http10
        case let other:
            let looksLikeHTTP = other.utf8.count == 8 && other.hasPrefix("HTTP/") && other.utf8.allSatisfy { $0 > 32 && $0 < 127 }
            return .failure(looksLikeHTTP ? .unsupportedVersion(other) : .badRequestLine("the version is not HTTP/1.x"))
        }
        return .success(Head(method: HTTPMethod(name: String(decoding: method, as: UTF8.self)), target: String(decoding: target, as: UTF8.self), version: v))
    }

    /// `field-name ":" OWS field-value OWS`.
    static func parseHeader(_ line: ArraySlice<UInt8>) -> Result<HTTPHeader, HTTPParseError> {
        if let first = line.first, first == 32 || first == 9 {
            return .failure(.badHeader("obsolete line folding (a line starting with whitespace)"))
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .failure(.badHeader("a header line without ':'")) }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            return .failure(.badHeader("the field name is empty or holds a character not allowed (whitespace before ':'?)"))
        }
        var value = line[(colon + 1)...]
        while let f = value.first, f == 32 || f == 9 { value = value.dropFirst() }
        while let l = value.last, l == 32 || l == 9 { value = value.dropLast() }
        // Field values: visible characters, spaces, tabs and obs-text; never NUL, CR or LF.
        guard value.allSatisfy({ $0 >= 32 || $0 == 9 }), !value.contains(127) else {
            return .failure(.badHeader("a control character in the value of \(String(decoding: name, as: UTF8.self))"))
        }
        return .success(HTTPHeader(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }

    /// The body's length from the headers; also checks Host (RFC 9112 3.2).
    static func bodyLength(_ head: Head) -> Result<Int, HTTPParseError> {
        let hosts = head.headers.filter { $0.is("host") }
        if head.version == .http11, hosts.count != 1 { return .failure(.missingHost) }
        if hosts.count > 1 { return .failure(.missingHost) }
        if let te = head.headers.first(where: { $0.is("transfer-encoding") }) {
            return .failure(.transferEncodingNotSupported(te.value))
        }
        var length: Int?
        for h in head.headers where h.is("content-length") {
            // "5, 5" is allowed by RFC 9110 8.6 when all values agree.
            for piece in h.value.split(separator: ",", omittingEmptySubsequences: false) {
                let digits = piece.trimmingSpaces
                guard !digits.isEmpty, digits.utf8.count <= 15, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(digits) else {
                    return .failure(.badContentLength(h.value))
                }
                if let l = length, l != n { return .failure(.badContentLength(h.value)) }
                length = n
            }
        }
        return .success(length ?? 0)
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 48...57, 65...90, 97...122: return true
        case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: return true
        default: return false
        }
    }
}
