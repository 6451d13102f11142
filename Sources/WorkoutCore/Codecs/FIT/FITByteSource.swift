/// Where a FIT walk reads its bytes from: a file in memory, or one read a window at a time
/// (the daemon reads a descriptor with `pread`), so that the walk's memory does not grow with
/// the file (`FITInput`).
public protocol FITByteSource {
    /// The input's length in bytes.
    var count: Int { get }
    /// Copies the bytes from `offset` into `buffer`, as many as fit and exist; returns how many
    /// (0 only at or past the end). Throws `FITError.unreadable` when the input cannot be read.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FITError) -> Int
}

/// A FIT file in memory as a `FITByteSource`.
public struct FITBytes: FITByteSource, Sendable {
    public let bytes: [UInt8]
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var count: Int { bytes.count }
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FITError) -> Int {
        guard offset < bytes.count else { return 0 }
        let n = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { src in buffer.baseAddress!.copyMemory(from: src.baseAddress! + offset, byteCount: n) }
        return n
    }
}

/// The bytes a FIT walk sees: all of them at once (a buffer in memory), or a window over a
/// `FITByteSource` that moves on as the walk does, so a file of any size is walked in at most
/// `windowSize` bytes. Offsets are the file's; a message's bytes are valid while it is visited.
/// Also keeps the running CRC of the file being walked (the bytes leaving the window are
/// counted first).
final class FITInput {
    /// Enough for the largest message (255 fields of 255 bytes and as many developer fields:
    /// 130,051 bytes) many times over.
    static let windowSize = 1 << 20

    let count: Int
    let windowSize: Int
    private let source: (any FITByteSource)?
    private let storage: UnsafeMutableRawPointer?
    /// The byte at offset `start`; bytes `start..<end` are valid.
    private(set) var base: UnsafePointer<UInt8>
    private(set) var start = 0
    private(set) var end = 0
    /// The CRC of the current file's bytes from its header up to `crcFrom`, and where counting
    /// stops (the end of its data).
    private(set) var crc: UInt16 = 0
    private var crcFrom = 0
    private var crcTo = 0
    /// Whether the walk checks the files' CRCs (`FITMessageDecoder.walk(_:windowSize:checkingCRC:into:)`).
    var checksCRC = true

    /// The whole input in memory (valid while the walk runs).
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        count = bytes.count
        windowSize = bytes.count
        source = nil
        storage = nil
        base = bytes.baseAddress ?? UnsafePointer(UnsafeMutablePointer<UInt8>.allocate(capacity: 1))
        end = bytes.count
    }

    /// A window of `windowSize` bytes over `source` (at least the largest message: tests use
    /// small ones to move it often).
    init(_ source: some FITByteSource, windowSize: Int = FITInput.windowSize) {
        count = source.count
        self.source = source
        self.windowSize = max(windowSize, 140_000)
        let s = UnsafeMutableRawPointer.allocate(byteCount: self.windowSize, alignment: 16)
        storage = s
        base = UnsafePointer(s.assumingMemoryBound(to: UInt8.self))
    }

    deinit { storage?.deallocate() }

    /// Makes bytes `p..<p + n` valid (moving the window on to `p` when needed); false when the
    /// input ends before.
    @inline(__always)
    func ensure(_ p: Int, _ n: Int) throws(FITError) -> Bool {
        if p >= start && p + n <= end { return true }
        guard p + n <= count else { return false }
        try refill(from: p)
        return p + n <= end
    }

    private func refill(from p: Int) throws(FITError) {
        guard let source, let storage else { return }  // in memory: all there is
        // The bytes leaving the window go into the CRC first.
        countCRC(upTo: min(p, end))
        let keep = p < end && p >= start ? end - p : 0
        if keep > 0 { storage.copyMemory(from: UnsafeRawPointer(base) + (p - start), byteCount: keep) }
        start = p
        end = p + keep
        while end < count && end - start < windowSize {
            let got = try source.read(into: UnsafeMutableRawBufferPointer(start: storage + (end - start), count: windowSize - (end - start)),
                                      at: end)
            guard got > 0 else { throw .unreadable(offset: end, why: "the file ended before its size (it shrank while read)") }
            end += got
        }
    }

    @inline(__always)
    subscript(_ i: Int) -> UInt8 { base[i - start] }

    /// A buffer pointer over the window and the index of offset `p` in it (for `Message`).
    func buffer() -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: end - start) }

    /// Starts the CRC of a file whose bytes run from `from` to `to` (its header and data).
    func beginCRC(from: Int, to: Int) {
        crc = 0
        crcFrom = from
        crcTo = to
    }

    /// Counts the file's bytes up to `p` (they are in the window).
    private func countCRC(upTo p: Int) {
        let q = min(p, crcTo)
        guard checksCRC, q > crcFrom, crcFrom >= start else { return }
        crc = FITCRC.checksum(buffer(), from: crcFrom - start, to: q - start, initial: crc)
        crcFrom = q
    }

    /// The CRC of the whole file begun with `beginCRC` (reading through what the walk did not reach).
    func finishCRC() throws(FITError) -> UInt16 {
        while crcFrom < crcTo {
            let step = min(crcTo - crcFrom, windowSize / 2)
            guard try ensure(crcFrom, step) else { break }
            countCRC(upTo: crcFrom + step)
        }
        return crc
    }
}
