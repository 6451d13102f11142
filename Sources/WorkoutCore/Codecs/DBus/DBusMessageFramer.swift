/// Cuts a byte stream into whole messages: bytes go in as they arrive (any split), complete
/// messages come out. A header that declares more than `maximumMessageLength` is refused
/// before anything is buffered for it, so memory grows only with bytes actually received.
public struct DBusMessageFramer: Sendable {
    public let maximumMessageLength: Int
    private var buffer: [UInt8] = []
    private var start = 0

    public init(maximumMessageLength: Int = DBusMessage.maximumLength) {
        self.maximumMessageLength = min(maximumMessageLength, DBusMessage.maximumLength)
    }

    /// Bytes received and not yet returned as part of a message.
    public var pendingByteCount: Int { buffer.count - start }

    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message's bytes, nil when more input is needed. An error means the
    /// stream cannot be framed any further (the connection must be closed).
    public mutating func nextFrame() throws(DBusCodecError) -> [UInt8]? {
        guard buffer.count - start >= DBusMessage.fixedHeaderLength else { return nil }
        let total = try DBusMessage.frameLength(header: buffer[start..<(start + DBusMessage.fixedHeaderLength)],
                                                limit: maximumMessageLength)
        guard buffer.count - start >= total else { return nil }
        let frame = Array(buffer[start..<(start + total)])
        start += total
        if start == buffer.count { buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16); start = 0 }
        return frame
    }
}
