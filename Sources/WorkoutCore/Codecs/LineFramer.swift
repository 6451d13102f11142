#if canImport(Glibc)
import Glibc
#endif

/// Splits a byte stream into lines (LF, with an optional CR before it) with a length limit: a
/// line longer than `maxLine` is reported once as `.tooLong` and its bytes are discarded up to
/// the next newline, so a hostile peer cannot make the buffer grow without bound. The one line
/// framer of the project: control requests, feed lines, the index, gpsd and NMEA streams.
///
/// The consumer may stop in the middle of a chunk (its closure returns false, e.g. a control
/// client whose replies have not been read yet): the unread rest is kept, `hasHeldLines` says
/// so, and `drain` continues with it later.
public struct LineFramer: Sendable {
    public enum Item {
        /// A complete line without its LF (and without one CR before it).
        case line(UnsafeBufferPointer<UInt8>)
        case tooLong
    }

    /// A partial line, or after a stop, the whole unread rest (any number of lines).
    private var buffer: [UInt8] = []
    private var state = State.collecting
    /// The longest line taken; a change applies from the next bytes on.
    public var maxLine: Int

    private enum State {
        /// Inside a line (its start, if any, in `buffer`).
        case collecting
        /// Skipping the rest of an overlong line up to its newline.
        case skippingToNewline
        /// Stopped by the consumer: `buffer` holds unread bytes, lines included.
        case holding
    }

    public init(maxLine: Int) { self.maxLine = maxLine }

    /// Bytes held (a partial line, or lines held after a stop).
    public var pendingCount: Int { buffer.count }

    /// Whether a stop left complete lines (or bytes not yet framed) for `drain`.
    public var hasHeldLines: Bool {
        switch state {
        case .holding: return true
        case .collecting, .skippingToNewline: return false
        }
    }

    /// Feeds bytes; calls `body` for each complete line or overlong line, in order, until it
    /// returns false: the rest is then held (`hasHeldLines`) until `drain`. Returns false when
    /// stopped.
    @discardableResult
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (Item) -> Bool) -> Bool {
        switch state {
        case .holding:
            buffer.append(contentsOf: bytes)
            return false  // still stopped: the caller drains when it is ready
        case .collecting, .skippingToNewline:
            break
        }
        let b = bytes.bindMemory(to: UInt8.self)
        let n = b.count
        var start = 0
        while start < n {
            guard let nl = LineFramer.newline(b, from: start) else { break }
            var keepGoing = true
            switch state {
            case .skippingToNewline:
                state = .collecting
            case .holding:
                break
            case .collecting:
                if buffer.isEmpty {
                    var end = nl
                    if end > start, b[end - 1] == 13 { end -= 1 }
                    keepGoing = body(end - start > maxLine ? .tooLong : .line(UnsafeBufferPointer(rebasing: b[start..<end])))
                } else {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<nl]))
                    if buffer.last == 13 { buffer.removeLast() }
                    keepGoing = buffer.count > maxLine ? body(.tooLong) : buffer.withUnsafeBufferPointer { body(.line($0)) }
                    buffer.removeAll(keepingCapacity: buffer.count < 65536)
                }
            }
            start = nl + 1
            if !keepGoing {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<n]))
                state = .holding
                return false
            }
        }
        guard start < n else { return true }
        switch state {
        case .skippingToNewline, .holding: return true
        case .collecting:
            if buffer.count + (n - start) > maxLine {
                buffer.removeAll()
                state = .skippingToNewline
                return body(.tooLong)
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<n]))
            return true
        }
    }

    /// Feeds bytes and calls `body` for every line (never stops).
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (Item) -> Void) {
        feed(bytes) { (item: Item) -> Bool in body(item); return true }
    }

    /// Continues with what a stop held, as `feed` does. Returns false when stopped again.
    @discardableResult
    public mutating func drain(_ body: (Item) -> Bool) -> Bool {
        guard hasHeldLines else { return true }
        state = .collecting
        var held: [UInt8] = []
        swap(&held, &buffer)
        return held.withUnsafeBytes { feed($0, body) }
    }

    /// End of input: the unfinished last line, if one is being collected (and forgets it).
    public mutating func takePartialLine() -> [UInt8]? {
        defer { buffer.removeAll(keepingCapacity: true); state = .collecting }
        switch state {
        case .collecting: return buffer.isEmpty ? nil : buffer
        case .skippingToNewline, .holding: return nil
        }
    }

    private static func newline(_ b: UnsafeBufferPointer<UInt8>, from i: Int) -> Int? {
        guard let base = b.baseAddress, i < b.count else { return nil }
        #if canImport(Glibc)
        guard let p = memchr(base + i, 0x0A, b.count - i) else { return nil }
        return base.distance(to: p.assumingMemoryBound(to: UInt8.self))
        #else
        var k = i
        while k < b.count { if b[k] == 0x0A { return k }; k += 1 }
        return nil
        #endif
    }
}
