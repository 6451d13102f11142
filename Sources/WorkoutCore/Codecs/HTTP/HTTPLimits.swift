/// What one request may be at most. A request beyond a limit is answered with the status its
/// `HTTPParseError` names and the connection is closed: the parser never buffers more than
/// `requestLineBytes + headerBytes + bodyBytes`.
public struct HTTPLimits: Sendable, Equatable {
    /// The request line (`GET /workouts/ID?x=time HTTP/1.1`), without its line end: 414 beyond.
    public var requestLineBytes: Int
    /// Every header line together, line ends included: 431 beyond.
    public var headerBytes: Int
    /// Header fields: 431 beyond.
    public var headerCount: Int
    /// A POST body (the edit form): 413 beyond.
    public var bodyBytes: Int

    public init(requestLineBytes: Int = 8192, headerBytes: Int = 16384, headerCount: Int = 64, bodyBytes: Int = 65536) {
        self.requestLineBytes = requestLineBytes; self.headerBytes = headerBytes
        self.headerCount = headerCount; self.bodyBytes = bodyBytes
    }

    public static let `default` = HTTPLimits()
}
