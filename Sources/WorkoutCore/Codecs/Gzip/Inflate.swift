/// Why deflate data could not be inflated.
public enum InflateError: Error, Sendable, Equatable, CustomStringConvertible {
    case truncated
    case badBlockType
    case storedLengthMismatch
    case badCodeLengths(String)
    case badSymbol
    case distanceTooFar
    case tooLarge(limit: Int)

    public var description: String {
        switch self {
        case .truncated: return "compressed data cut short"
        case .badBlockType: return "corrupt compressed data (block type 3)"
        case .storedLengthMismatch: return "corrupt compressed data (stored block length check)"
        case .badCodeLengths(let why): return "corrupt compressed data (\(why))"
        case .badSymbol: return "corrupt compressed data (invalid code)"
        case .distanceTooFar: return "corrupt compressed data (distance before the start)"
        case .tooLarge(let limit): return "decompresses to more than \(limit) bytes"
        }
    }
}

/// RFC 1951 inflate: stored, fixed-Huffman and dynamic-Huffman blocks, with an output cap.
/// Canonical Huffman codes are decoded through a 9-bit lookup table with a bit-by-bit fallback
/// for longer codes (the shape of zlib's puff.c, plus the table).
public enum Inflate {
    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                                  4097, 6145, 8193, 12289, 16385, 24577]
    static let distExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let order: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    static let tableBits = 9

    /// A canonical Huffman code: counts per length, symbols in code order, and a lookup table
    /// of `tableBits` reversed bits -> (symbol << 4 | length), 0 = longer code or none.
    struct Huffman {
        var count = [Int](repeating: 0, count: 16)
        var symbol: [Int]
        var table: [UInt32]

        /// Builds the code from code lengths; `left` < 0 is over-subscribed, > 0 incomplete.
        init(_ lengths: ArraySlice<Int>, left: inout Int) {
            symbol = [Int](repeating: 0, count: lengths.count)
            table = [UInt32](repeating: 0, count: 1 << Inflate.tableBits)
            for l in lengths { count[l] += 1 }
            left = 1
            if count[0] == lengths.count { left = 0; return }
            for len in 1...15 {
                left <<= 1
                left -= count[len]
                if left < 0 { return }
            }
            var offs = [Int](repeating: 0, count: 16)
            for len in 1..<15 { offs[len + 1] = offs[len] + count[len] }
            for (sym, l) in lengths.enumerated() where l != 0 {
                symbol[offs[l]] = sym
                offs[l] += 1
            }
            // Lookup table: walk the codes in canonical order.
            var code = 0, index = 0
            for len in 1...min(15, Inflate.tableBits) {
                for _ in 0..<count[len] {
                    let sym = symbol[index]
                    // Reverse `len` bits of code (deflate sends Huffman codes MSB first).
                    var rev = 0
                    for b in 0..<len { rev |= ((code >> b) & 1) << (len - 1 - b) }
                    var fill = rev
                    while fill < (1 << Inflate.tableBits) {
                        table[fill] = UInt32(sym) << 4 | UInt32(len)
                        fill += 1 << len
                    }
                    code += 1
                    index += 1
                }
                code <<= 1
            }
        }
    }

    /// Bit reader over the input, LSB first.
    struct Bits {
        let input: UnsafeBufferPointer<UInt8>
        var pos: Int
        var buf: UInt64 = 0
        var cnt = 0

        @inline(__always)
        mutating func refill() {
            while cnt <= 56 && pos < input.count {
                buf |= UInt64(input[pos]) << UInt64(cnt)
                pos += 1
                cnt += 8
            }
        }

        @inline(__always)
        mutating func bits(_ n: Int) throws(InflateError) -> Int {
            if n == 0 { return 0 }
            if cnt < n { refill(); if cnt < n { throw .truncated } }
            let v = Int(buf & ((1 << UInt64(n)) - 1))
            buf >>= UInt64(n)
            cnt -= n
            return v
        }

        /// Drops the bits left in the current byte; returns the byte offset of the next byte.
        mutating func align() -> Int {
            let drop = cnt & 7
            buf >>= UInt64(drop)
            cnt -= drop
            // Give whole buffered bytes back to the input.
            pos -= cnt / 8
            buf = 0
            cnt = 0
            return pos
        }

        @inline(__always)
        mutating func decode(_ h: Huffman) throws(InflateError) -> Int {
            if cnt < 15 { refill() }
            let e = h.table[Int(buf & UInt64((1 << Inflate.tableBits) - 1))]
            let len = Int(e & 0xF)
            if len != 0 && len <= cnt {
                buf >>= UInt64(len)
                cnt -= len
                return Int(e >> 4)
            }
            // Slow path: bit by bit (codes longer than the table, or near the end of input).
            var code = 0, first = 0, index = 0
            for l in 1...15 {
                code |= try bits(1)
                let c = h.count[l]
                if code - c < first { return h.symbol[index + (code - first)] }
                index += c
                first += c
                first <<= 1
                code <<= 1
            }
            throw .badSymbol
        }
    }

    static let fixed: (Huffman, Huffman) = {
        var lengths = [Int](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        var left = 0
        let lit = Huffman(lengths[...], left: &left)
        let dist = Huffman([Int](repeating: 5, count: 30)[...], left: &left)
        return (lit, dist)
    }()

    /// Inflates the raw deflate stream that starts at `from`, appending to `out` (which may hold
    /// earlier output: back references never reach before `base`). Returns the offset of the
    /// first byte after the stream (rounded up to a whole byte).
    public static func inflate(_ input: UnsafeBufferPointer<UInt8>, from: Int, into out: inout [UInt8], limit: Int) throws(InflateError) -> Int {
        var b = Bits(input: input, pos: from)
        let base = out.count
        var last = 0
        repeat {
            last = try b.bits(1)
            let type = try b.bits(2)
            switch type {
            case 0:
                var p = b.align()
                guard p + 4 <= input.count else { throw .truncated }
                let len = Int(input[p]) | Int(input[p + 1]) << 8
                let nlen = Int(input[p + 2]) | Int(input[p + 3]) << 8
                guard len == (~nlen & 0xFFFF) else { throw .storedLengthMismatch }
                p += 4
                guard p + len <= input.count else { throw .truncated }
                guard out.count - base + len <= limit else { throw .tooLarge(limit: limit) }
                out.append(contentsOf: input[p..<(p + len)])
                b.pos = p + len
            case 1:
                try codes(&b, fixed.0, fixed.1, &out, base: base, limit: limit)
            case 2:
                let (lit, dist) = try dynamicCodes(&b)
                try codes(&b, lit, dist, &out, base: base, limit: limit)
            default:
                throw .badBlockType
            }
        } while last == 0
        return b.align()
    }

    static func dynamicCodes(_ b: inout Bits) throws(InflateError) -> (Huffman, Huffman) {
        let nlen = try b.bits(5) + 257
        let ndist = try b.bits(5) + 1
        let ncode = try b.bits(4) + 4
        guard nlen <= 286, ndist <= 30 else { throw .badCodeLengths("too many length or distance codes") }
        var lengths = [Int](repeating: 0, count: 320)
        for i in 0..<ncode { lengths[order[i]] = try b.bits(3) }
        var left = 0
        let lencode = Huffman(lengths[0..<19], left: &left)
        guard left == 0 else { throw .badCodeLengths("incomplete code-length code") }
        var index = 0
        while index < nlen + ndist {
            let sym = try b.decode(lencode)
            if sym < 16 {
                lengths[index] = sym
                index += 1
            } else {
                var len = 0
                var rep: Int
                if sym == 16 {
                    guard index > 0 else { throw .badCodeLengths("repeat with no first length") }
                    len = lengths[index - 1]
                    rep = 3 + (try b.bits(2))
                } else if sym == 17 {
                    rep = 3 + (try b.bits(3))
                } else {
                    rep = 11 + (try b.bits(7))
                }
                guard index + rep <= nlen + ndist else { throw .badCodeLengths("too many lengths") }
                while rep > 0 { lengths[index] = len; index += 1; rep -= 1 }
            }
        }
        guard lengths[256] != 0 else { throw .badCodeLengths("no end-of-block code") }
        let lit = Huffman(lengths[0..<nlen], left: &left)
        if left < 0 || (left > 0 && nlen - lit.count[0] != 1) { throw .badCodeLengths("bad literal/length code") }
        let dist = Huffman(lengths[nlen..<(nlen + ndist)], left: &left)
        if left < 0 || (left > 0 && ndist - dist.count[0] != 1) { throw .badCodeLengths("bad distance code") }
        return (lit, dist)
    }

    static func codes(_ b: inout Bits, _ lit: Huffman, _ dist: Huffman, _ out: inout [UInt8], base: Int, limit: Int) throws(InflateError) {
        while true {
            let sym = try b.decode(lit)
            if sym < 256 {
                guard out.count - base < limit else { throw .tooLarge(limit: limit) }
                out.append(UInt8(sym))
            } else if sym == 256 {
                return
            } else {
                let s = sym - 257
                guard s < 29 else { throw .badSymbol }
                let len = lengthBase[s] + (try b.bits(lengthExtra[s]))
                let ds = try b.decode(dist)
                guard ds < 30 else { throw .badSymbol }
                let d = distBase[ds] + (try b.bits(distExtra[ds]))
                guard d <= out.count - base else { throw .distanceTooFar }
                guard out.count - base + len <= limit else { throw .tooLarge(limit: limit) }
                var from = out.count - d
                for _ in 0..<len { out.append(out[from]); from += 1 }
            }
        }
    }
}
