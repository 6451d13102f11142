import Glibc
import WorkoutCore

/// Reads one journal file in chunks (never the whole file at once: a journal has no size
/// limit) and hands every record that decodes to `record`. A line that does not decode (its
/// checksum or content is bad) is skipped, not the rest: each record has its own checksum, so
/// one flipped bit costs one record. Bad lines after the last good one are the torn tail
/// (`tailBytes`), which the caller cuts; the bytes of every bad line are collected (up to
/// `maxKeptBytes`) to be kept aside for a person.
struct JournalScanner {
    static let chunkBytes = 1 << 20
    /// A line longer than this is damage (the longest record, a marker, is at most a request line: 16 MiB); its
    /// bytes are counted, not held in memory.
    static let defaultMaxLineBytes = 32 << 20
    /// At most this many damaged bytes are copied aside (the rest is counted).
    static let maxKeptBytes = 16 << 20

    /// What one file held.
    struct Result {
        var size = 0
        /// The end of the last line that decoded: where a torn tail begins.
        var goodEnd = 0
        /// Bad lines followed by a good one (skipped).
        var skippedLines = 0
        /// Bytes of those skipped lines.
        var skippedBytes = 0
        /// The bytes of every bad line and of the tail, in file order (at most `maxKeptBytes`).
        var kept: [UInt8] = []
        /// Bad lines after the last good one (an unended last line counts as one).
        var tailLines = 0
        var tailBytes: Int { size - goodEnd }
        var damagedBytes: Int { skippedBytes + tailBytes }
    }

    /// Scans the regular file at `path` (anything else is refused before reading).
    static func scan(_ path: String, chunkBytes: Int = JournalScanner.chunkBytes, maxLineBytes: Int = JournalScanner.defaultMaxLineBytes,
                     record: (JournalRecord) -> Void) throws(SystemError) -> Result {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw SystemError.last("open \(path)") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw SystemError.last("stat \(path)") }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw SystemError("\(path) is \(fileKind(st.st_mode)), not a regular file", code: EINVAL)
        }
        var scanner = JournalScanner(maxLineBytes: maxLineBytes)
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw SystemError.last("read \(path)") }
            if n == 0 { break }
            scanner.feed(chunk[0..<n], record: record)
        }
        return scanner.finish()
    }

    let maxLineBytes: Int
    private var result = Result()
    /// The start of a line not ended yet.
    private var carry: [UInt8] = []
    /// The current line passed `maxLineBytes`: its bytes are only counted.
    private var overlong = 0
    /// Bad lines since the last good one, and their bytes: skipped if a good line follows,
    /// the tail otherwise.
    private var badLines = 0
    private var badBytes = 0

    mutating func feed(_ bytes: ArraySlice<UInt8>, record: (JournalRecord) -> Void) {
        let base = result.size - bytes.startIndex  // file offset of bytes[i] is base + i
        result.size += bytes.count
        var start = bytes.startIndex
        while let nl = Self.newline(in: bytes, from: start) {
            if overlong > 0 {
                badLine(length: overlong + nl + 1 - start, bytes: [])
                overlong = 0
            } else if carry.isEmpty {
                line(bytes[start...nl], endingAt: base + nl + 1, record: record)
            } else {
                carry.append(contentsOf: bytes[start...nl])
                let whole = carry
                carry.removeAll(keepingCapacity: true)
                line(whole[...], endingAt: base + nl + 1, record: record)
            }
            start = nl + 1
        }
        if overlong > 0 {
            overlong += bytes.endIndex - start
        } else {
            carry.append(contentsOf: bytes[start...])
            if carry.count > maxLineBytes {
                keep(carry.prefix(maxLineBytes))
                overlong = carry.count
                carry = []
            }
        }
    }

    /// The index of the next newline in `bytes` at or after `start` (memchr: this runs over every
    /// byte of the journal at start-up).
    static func newline(in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buf -> Int? in
            let offset = start - bytes.startIndex
            guard offset < buf.count, let base = buf.baseAddress, let p = memchr(base + offset, 10, buf.count - offset) else { return nil }
            return bytes.startIndex + (UnsafeRawPointer(p) - UnsafeRawPointer(base))
        }
    }

    /// One line with its newline, which is at file offset `end - 1`.
    private mutating func line(_ bytes: ArraySlice<UInt8>, endingAt end: Int, record: (JournalRecord) -> Void) {
        guard bytes.count - 1 <= maxLineBytes else {
            // Over the limit (when it came in one piece; `feed` catches the others the same).
            badLine(length: bytes.count, bytes: bytes.prefix(maxLineBytes))
            return
        }
        var last = bytes.endIndex - 1  // the newline
        if last > bytes.startIndex, bytes[last - 1] == 13 { last -= 1 }  // CRLF (a file copied elsewhere)
        if let r = bytes[bytes.startIndex..<last].withUnsafeBufferPointer({ JournalRecord.decodeLine($0) }) {
            record(r)
            result.skippedLines += badLines
            result.skippedBytes += badBytes
            badLines = 0
            badBytes = 0
            result.goodEnd = end
        } else {
            badLine(length: bytes.count, bytes: bytes)
        }
    }

    private mutating func badLine(length: Int, bytes: ArraySlice<UInt8>) {
        badLines += 1
        badBytes += length
        keep(bytes)
    }

    private mutating func keep(_ bytes: ArraySlice<UInt8>) {
        let room = Self.maxKeptBytes - result.kept.count
        if room > 0 { result.kept.append(contentsOf: bytes.prefix(room)) }
    }

    mutating func finish() -> Result {
        // An unended last line is part of the tail (a torn record); so are bad lines after the
        // last good one.
        if overlong == 0 { keep(carry[...]) }
        result.tailLines = badLines + (overlong > 0 || !carry.isEmpty ? 1 : 0)
        return result
    }
}
