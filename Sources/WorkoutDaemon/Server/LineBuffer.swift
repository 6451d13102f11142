/// Splits a byte stream into lines (LF, with an optional CR before it) with a length limit:
/// a line longer than `maxLine` is reported once as `.tooLong` and its bytes are discarded up
/// to the next newline, so a hostile peer cannot make the buffer grow without bound.
public struct LineBuffer {
    public enum Item {
        case line(UnsafeBufferPointer<UInt8>)
        case tooLong
    }

    private var buffer: [UInt8] = []
    private var discarding = DiscardState.none
    public let maxLine: Int

    private enum DiscardState { case none, skippingToNewline }

    public init(maxLine: Int) { self.maxLine = maxLine }

    /// Bytes held waiting for their newline.
    public var pendingCount: Int { buffer.count }

    /// Feeds bytes; calls `body` for each complete line (without its CR/LF) or overlong line.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ body: (Item) -> Void) {
        var start = 0
        let n = bytes.count
        let b = bytes.bindMemory(to: UInt8.self)
        var i = 0
        while i < n {
            guard let nl = memchrIndex(b, from: i) else { break }
            switch discarding {
            case .skippingToNewline:
                discarding = .none
            case .none:
                if buffer.isEmpty {
                    var end = nl
                    if end > start, b[end - 1] == 13 { end -= 1 }
                    if end - start > maxLine { body(.tooLong) } else { body(.line(UnsafeBufferPointer(rebasing: b[start..<end]))) }
                } else {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<nl]))
                    if buffer.last == 13 { buffer.removeLast() }
                    if buffer.count > maxLine { body(.tooLong) } else { buffer.withUnsafeBufferPointer { body(.line($0)) } }
                    buffer.removeAll(keepingCapacity: buffer.count < 65536)
                }
            }
            start = nl + 1
            i = start
        }
        guard start < n else { return }
        switch discarding {
        case .skippingToNewline: return
        case .none:
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: b[start..<n]))
            if buffer.count > maxLine {
                buffer.removeAll()
                discarding = .skippingToNewline
                body(.tooLong)
            }
        }
    }

    private func memchrIndex(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        while i < b.count {
            if b[i] == 10 { return i }
            i += 1
        }
        return nil
    }
}
