/// Why a gzip file could not be read.
public enum GzipError: Error, Sendable, Equatable, CustomStringConvertible {
    case notGzip
    case unsupportedMethod(UInt8)
    case reservedFlags
    case headerCRC
    case truncated
    case crc(member: Int)
    case size(member: Int)
    case trailingGarbage(offset: Int)
    case inflate(InflateError)

    public var description: String {
        switch self {
        case .notGzip: return "gzip: not a gzip file"
        case .unsupportedMethod(let m): return "gzip: compression method \(m) (only deflate, 8, exists)"
        case .reservedFlags: return "gzip: reserved header flags set (corrupt header)"
        case .headerCRC: return "gzip: header CRC mismatch"
        case .truncated: return "gzip: file cut short"
        case .crc(let m): return "gzip: CRC-32 mismatch in member \(m + 1): the file is corrupt"
        case .size(let m): return "gzip: length mismatch in member \(m + 1): the file is corrupt"
        case .trailingGarbage(let o): return "gzip: unexpected data after the last member at byte \(o)"
        case .inflate(let e): return "gzip: \(e.description)"
        }
    }
}

/// RFC 1952 gzip: every member inflated in turn (concatenated members are one file), header
/// flags (FTEXT, FHCRC checked, FEXTRA, FNAME, FCOMMENT skipped), CRC-32 and ISIZE of each
/// member checked, total output capped at `limit`. Zero bytes after the last member (tape
/// padding) are allowed; anything else there is refused.
public enum Gzip {
    public static func isGzip(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B }

    public static func decompress(_ bytes: [UInt8], limit: Int) throws(GzipError) -> [UInt8] {
        let r: Result<[UInt8], GzipError> = bytes.withUnsafeBufferPointer { input in
            do throws(GzipError) { return .success(try decompress(input, limit: limit)) } catch { return .failure(error) }
        }
        return try r.get()
    }

    static func decompress(_ input: UnsafeBufferPointer<UInt8>, limit: Int) throws(GzipError) -> [UInt8] {
        guard input.count >= 2, input[0] == 0x1F, input[1] == 0x8B else { throw .notGzip }
        var out: [UInt8] = []
        out.reserveCapacity(min(limit, input.count * 4))
        var p = 0
        var member = 0
        while p < input.count {
            if member > 0 && input[p] != 0x1F {
                var q = p
                while q < input.count && input[q] == 0 { q += 1 }
                if q == input.count { break }
                throw .trailingGarbage(offset: p)
            }
            guard p + 10 <= input.count else { throw .truncated }
            guard input[p] == 0x1F, input[p + 1] == 0x8B else { throw member == 0 ? .notGzip : .trailingGarbage(offset: p) }
            guard input[p + 2] == 8 else { throw .unsupportedMethod(input[p + 2]) }
            let flags = input[p + 3]
            guard flags & 0xE0 == 0 else { throw .reservedFlags }
            let headerStart = p
            p += 10
            if flags & 4 != 0 {
                guard p + 2 <= input.count else { throw .truncated }
                let xlen = Int(input[p]) | Int(input[p + 1]) << 8
                p += 2 + xlen
                guard p <= input.count else { throw .truncated }
            }
            for bit: UInt8 in [8, 16] where flags & bit != 0 {
                while p < input.count && input[p] != 0 { p += 1 }
                guard p < input.count else { throw .truncated }
                p += 1
            }
            if flags & 2 != 0 {
                guard p + 2 <= input.count else { throw .truncated }
                let stored = UInt32(input[p]) | UInt32(input[p + 1]) << 8
                let c = CRC32.checksum(UnsafeBufferPointer(rebasing: input[headerStart..<p])) & 0xFFFF
                guard c == stored else { throw .headerCRC }
                p += 2
            }
            let before = out.count
            do {
                p = try Inflate.inflate(input, from: p, into: &out, limit: limit - before)
            } catch { throw .inflate(error) }
            guard p + 8 <= input.count else { throw .truncated }
            let crc = UInt32(input[p]) | UInt32(input[p + 1]) << 8 | UInt32(input[p + 2]) << 16 | UInt32(input[p + 3]) << 24
            let size = UInt32(input[p + 4]) | UInt32(input[p + 5]) << 8 | UInt32(input[p + 6]) << 16 | UInt32(input[p + 7]) << 24
            let computed = out.withUnsafeBufferPointer { CRC32.checksum(UnsafeBufferPointer(rebasing: $0[before...])) }
            guard computed == crc else { throw .crc(member: member) }
            guard UInt32(truncatingIfNeeded: out.count - before) == size else { throw .size(member: member) }
            p += 8
            member += 1
        }
        return out
    }
}
