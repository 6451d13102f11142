/// The FIT protocol's message layer: walks the records of one or more chained FIT files and
/// hands each data message to a visitor, without building anything per message.
///
/// - Headers of 12 or 14 bytes (the 14-byte one with a CRC of the first 12 bytes, 0 = none);
///   the data size from the header bounds the messages; two CRC bytes follow the data (the CRC
///   of header and data), checked. Another header may follow: chained files are read in turn,
///   each with its own local definitions.
/// - Normal headers (definition or data, local types 0-15, developer-data flag) and compressed
///   timestamp headers (local types 0-3, a 5-bit offset added to the last full timestamp).
/// - Definitions in either architecture; developer fields counted in the message size, and
///   their bytes found by number and developer data index (`Message.developerBytes`: their
///   meaning lives in `field_description` messages, which the visitor reads).
/// - A file whose data ends early (`truncated`): the messages that are whole are visited, and
///   the walk reports where it stopped; its CRC cannot be checked.
///
/// Memory: 16 definitions at most per file and the input's window (`FITInput`: all of an input
/// in memory, or a 1 MiB window over a `FITByteSource`); nothing else grows with the input.
public struct FITMessageDecoder {
    /// One field of a definition, with how its first element reads, worked out once per
    /// definition instead of once per value read.
    struct Field: Sendable {
        var number: UInt8
        var size: UInt8
        var baseType: UInt8
        var offset: Int
        /// Bytes of the first element when the base type is an integer one that fits the field
        /// (1, 2, 4 or 8), else 0: floats, strings, unknown types and fields too short read as absent.
        var elementSize: UInt8
        /// The base type's invalid value (the field is absent when it holds it).
        var invalid: UInt64
        var sign: Signedness

        enum Signedness: Sendable { case signed, unsigned }

        init(number: UInt8, size: UInt8, baseType: UInt8, offset: Int) {
            self.number = number
            self.size = size
            self.baseType = baseType
            self.offset = offset
            let element: UInt8
            switch baseType & 0x1F {
            case 0, 2, 13: element = 1; invalid = 0xFF; sign = .unsigned
            case 1: element = 1; invalid = 0x7F; sign = .signed
            case 3: element = 2; invalid = 0x7FFF; sign = .signed
            case 4: element = 2; invalid = 0xFFFF; sign = .unsigned
            case 5: element = 4; invalid = 0x7FFF_FFFF; sign = .signed
            case 6: element = 4; invalid = 0xFFFF_FFFF; sign = .unsigned
            case 14: element = 8; invalid = 0x7FFF_FFFF_FFFF_FFFF; sign = .signed
            case 15: element = 8; invalid = UInt64.max; sign = .unsigned
            case 10: element = 1; invalid = 0; sign = .unsigned  // uint8z
            case 11: element = 2; invalid = 0; sign = .unsigned  // uint16z
            case 12: element = 4; invalid = 0; sign = .unsigned  // uint32z
            case 16: element = 8; invalid = 0; sign = .unsigned  // uint64z
            default: element = 0; invalid = 0; sign = .unsigned  // 7 string, 8/9 floats (no profile field workoutd reads is a float), unknown
            }
            elementSize = size >= element ? element : 0
        }
    }

    /// A developer field of a definition: its number, size, developer data index and offset.
    struct DeveloperField: Sendable {
        var number: UInt8
        var size: UInt8
        var index: UInt8
        var offset: Int
    }

    /// A definition message: the layout of the data messages of one local type.
    struct Definition: Sendable {
        var global: UInt16
        var bigEndian: Bool
        var fields: [Field]
        /// Developer fields, after `fields` in each data message (usually none).
        var developer: [DeveloperField] = []
        /// Bytes of a data message after its header (fields and developer fields).
        var size: Int
        /// Offset of field 253 (timestamp) when it is a 4-byte field, else -1.
        var timestampOffset: Int
        /// Field number -> index in `fields` + 1 (0 = absent): one lookup per value read.
        var slots: [UInt8]
        /// Which definition of the walk this is (0, 1, 2, ... in reading order, across chained
        /// files): a visitor that works out where its fields lie once per definition
        /// (`FieldRead`) keys that on it.
        var serial: Int
    }

    /// Where one field's first element lies in the data messages of one definition and how it
    /// reads: looked up once per definition (`Message.reader`), then read per message
    /// (`Message.int(_: FieldRead)`) without a search. Reads what `Message.int`/`sint` read.
    public struct FieldRead: Sendable {
        /// The element's integer type and byte order, or absent (the read gives nil): one
        /// switch per value read.
        enum Kind: UInt8, Sendable {
            case absent
            case uint8, sint8
            case uint16, sint16, uint32, sint32, uint64, sint64
            case uint16BE, sint16BE, uint32BE, sint32BE, uint64BE, sint64BE
        }

        /// Byte offset in the message (after its header).
        var offset: Int32
        var kind: Kind
        /// The base type's invalid value (the field is absent when it holds it).
        var invalid: UInt64

        static let absent = FieldRead(offset: 0, kind: .absent, invalid: 0)

        init(offset: Int32, kind: Kind, invalid: UInt64) {
            self.offset = offset
            self.kind = kind
            self.invalid = invalid
        }

        init(_ f: Field, bigEndian: Bool) {
            let signed: Bool
            switch f.sign {
            case .signed: signed = true
            case .unsigned: signed = false
            }
            let kind: Kind
            switch (f.elementSize, signed, bigEndian) {
            case (1, false, _): kind = .uint8
            case (1, true, _): kind = .sint8
            case (2, false, false): kind = .uint16
            case (2, true, false): kind = .sint16
            case (4, false, false): kind = .uint32
            case (4, true, false): kind = .sint32
            case (8, false, false): kind = .uint64
            case (8, true, false): kind = .sint64
            case (2, false, true): kind = .uint16BE
            case (2, true, true): kind = .sint16BE
            case (4, false, true): kind = .uint32BE
            case (4, true, true): kind = .sint32BE
            case (8, false, true): kind = .uint64BE
            case (8, true, true): kind = .sint64BE
            default: kind = .absent  // elementSize 0: not an integer field that fits
            }
            // A message is at most 255 fields of 255 bytes: an offset fits 32 bits.
            self.init(offset: Int32(f.offset), kind: kind, invalid: f.invalid)
        }

        /// Whether the field reads as a signed integer (what `sint` accepts).
        var isSigned: Bool {
            switch kind {
            case .sint8, .sint16, .sint32, .sint64, .sint16BE, .sint32BE, .sint64BE: return true
            case .absent, .uint8, .uint16, .uint32, .uint64, .uint16BE, .uint32BE, .uint64BE: return false
            }
        }
    }

    /// Where one field's bytes lie in the data messages of one definition (byte arrays such as
    /// `compressed_speed_distance`): looked up once per definition, read per message.
    public struct FieldBytes: Sendable {
        var offset: Int32
        var size: Int32
        static let absent = FieldBytes(offset: 0, size: 0)
    }

    /// What the walk found besides the messages.
    public struct Outcome: Sendable, Equatable {
        /// How many FIT files were chained in the input.
        public var files: Int
        /// The offset where the input ended inside a message or before a file's CRC, if it did.
        public var truncatedAt: Int?
        /// What could not be read or checked, in file order (empty: the file is whole and sound).
        public var damage: [FITDamage] = []
    }

    /// A data message as the visitor sees it: its global number and its fields' values.
    /// Valid only inside the visitor (it points into the input and the walk's definitions).
    public struct Message {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The definition in the walk's storage: valid while the visitor runs, as the input is.
        let definition: UnsafePointer<Definition>
        let start: Int
        /// The timestamp (seconds since the FIT epoch) from field 253 or a compressed header.
        public let timestamp: UInt32?
        /// The message's first byte after its header.
        let base: UnsafeRawPointer

        init(bytes: UnsafeBufferPointer<UInt8>, definition: UnsafePointer<Definition>, start: Int, timestamp: UInt32?) {
            self.bytes = bytes
            self.definition = definition
            self.start = start
            self.timestamp = timestamp
            base = UnsafeRawPointer(bytes.baseAddress! + start)
        }

        public var global: UInt16 { definition.pointee.global }
        /// The serial number of the message's definition (see `Definition.serial`).
        var definitionSerial: Int { definition.pointee.serial }

        @inline(__always)
        private func field(_ number: UInt8) -> Field? {
            let k = Int(definition.pointee.slots[Int(number)])
            return k == 0 ? nil : definition.pointee.fields[k - 1]
        }

        /// Where field `number` lies in this message's definition, to read it as `int` does
        /// (`sint` when `signedOnly`: an unsigned field then reads as absent).
        func reader(_ number: UInt8, signedOnly: Bool = false) -> FieldRead {
            guard let f = field(number) else { return .absent }
            let r = FieldRead(f, bigEndian: definition.pointee.bigEndian)
            return signedOnly && !r.isSigned ? .absent : r
        }

        /// Where field `number`'s bytes lie in this message's definition (absent: size 0).
        func fieldBytes(_ number: UInt8) -> FieldBytes {
            guard let f = field(number) else { return .absent }
            return FieldBytes(offset: Int32(f.offset), size: Int32(f.size))
        }

        /// A field's bytes through a `FieldBytes` of this message's definition; nil when absent
        /// or when every byte holds the byte type's invalid value (0xFF).
        func bytes(_ r: FieldBytes) -> UnsafeRawBufferPointer? {
            guard r.size > 0 else { return nil }
            let b = UnsafeRawBufferPointer(start: base + Int(r.offset), count: Int(r.size))
            return b.allSatisfy({ $0 == 0xFF }) ? nil : b
        }

        /// Every valid element of an integer array field (each element as `int` reads the
        /// first; an element holding the invalid value is left out), empty when absent.
        func integers(_ number: UInt8) -> [Int64] {
            guard let f = field(number), f.elementSize != 0 else { return [] }
            let size = Int(f.elementSize), n = Int(f.size) / size
            let r = FieldRead(f, bigEndian: definition.pointee.bigEndian)
            var out: [Int64] = []
            out.reserveCapacity(n)
            for k in 0..<n {
                if let v = int(FieldRead(offset: r.offset + Int32(k * size), kind: r.kind, invalid: r.invalid)) { out.append(v) }
            }
            return out
        }

        /// The bytes of developer field `number` of developer data `index`, nil when the
        /// definition has none such.
        public func developerBytes(number: UInt8, index: UInt8) -> UnsafeRawBufferPointer? {
            guard let f = definition.pointee.developer.first(where: { $0.number == number && $0.index == index }) else { return nil }
            return UnsafeRawBufferPointer(start: base + f.offset, count: Int(f.size))
        }

        /// Field `number` as text (base type string: UTF-8 up to the first NUL), nil when absent
        /// or empty.
        public func text(_ number: UInt8) -> String? {
            guard let f = field(number), f.baseType & 0x1F == 7 else { return nil }
            return Self.text(UnsafeRawBufferPointer(start: base + f.offset, count: Int(f.size)))
        }

        /// FIT string bytes as text: UTF-8 up to the first NUL (ill-formed sequences repaired),
        /// nil when empty.
        public static func text(_ bytes: UnsafeRawBufferPointer) -> String? {
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            guard end > 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
        }

        /// A field's value as `int(number)` gives it, through a `FieldRead` of this message's
        /// definition. In bounds: `walkMessages` checked that the whole message is in the input,
        /// and a field's first element lies inside its message.
        @inline(__always)
        func int(_ r: FieldRead) -> Int64? {
            let o = Int(r.offset)
            switch r.kind {
            case .absent: return nil
            case .uint8: return Self.unsigned(base.load(fromByteOffset: o, as: UInt8.self), r.invalid)
            case .sint8: return Self.signed(base.load(fromByteOffset: o, as: UInt8.self), Int8.self, r.invalid)
            case .uint16: return Self.unsigned(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt16.self)), r.invalid)
            case .sint16: return Self.signed(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt16.self)), Int16.self, r.invalid)
            case .uint32: return Self.unsigned(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt32.self)), r.invalid)
            case .sint32: return Self.signed(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt32.self)), Int32.self, r.invalid)
            case .uint64: return Self.unsigned(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt64.self)), r.invalid)
            case .sint64: return Self.signed(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: o, as: UInt64.self)), Int64.self, r.invalid)
            case .uint16BE: return Self.unsigned(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: o, as: UInt16.self)), r.invalid)
            case .sint16BE: return Self.signed(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: o, as: UInt16.self)), Int16.self, r.invalid)
            case .uint32BE: return Self.unsigned(UInt32(bigEndian: base.loadUnaligned(fromByteOffset: o, as: UInt32.self)), r.invalid)
            case .sint32BE: return Self.signed(UInt32(bigEndian: base.loadUnaligned(fromByteOffset: o, as: UInt32.self)), Int32.self, r.invalid)
            case .uint64BE: return Self.unsigned(UInt64(bigEndian: base.loadUnaligned(fromByteOffset: o, as: UInt64.self)), r.invalid)
            case .sint64BE: return Self.signed(UInt64(bigEndian: base.loadUnaligned(fromByteOffset: o, as: UInt64.self)), Int64.self, r.invalid)
            }
        }

        /// An unsigned element: nil when it holds the invalid value or is above `Int64.max`.
        @inline(__always)
        private static func unsigned<T: FixedWidthInteger & UnsignedInteger>(_ x: T, _ invalid: UInt64) -> Int64? {
            let v = UInt64(x)
            return v == invalid || v > UInt64(Int64.max) ? nil : Int64(v)
        }

        /// A signed element (its bits `x`, sign-extended as `S`): nil when it holds the invalid value.
        @inline(__always)
        private static func signed<T: FixedWidthInteger & UnsignedInteger, S: FixedWidthInteger & SignedInteger>(_ x: T, _: S.Type, _ invalid: UInt64) -> Int64? {
            UInt64(x) == invalid ? nil : Int64(S(truncatingIfNeeded: x))
        }

        /// The raw bits of the field's first element, nil when absent or invalid for its type.
        @inline(__always)
        private func raw(_ number: UInt8) -> (bits: UInt64, size: Int, signed: Bool)? {
            guard let f = field(number), f.elementSize != 0 else { return nil }
            let p = UnsafeRawPointer(bytes.baseAddress! + (start + f.offset))
            let big = definition.pointee.bigEndian
            let v: UInt64
            switch f.elementSize {
            case 1: v = UInt64(p.load(as: UInt8.self))
            case 2:
                let x = p.loadUnaligned(as: UInt16.self)
                v = UInt64(big ? UInt16(bigEndian: x) : UInt16(littleEndian: x))
            case 4:
                let x = p.loadUnaligned(as: UInt32.self)
                v = UInt64(big ? UInt32(bigEndian: x) : UInt32(littleEndian: x))
            default:
                let x = p.loadUnaligned(as: UInt64.self)
                v = big ? UInt64(bigEndian: x) : UInt64(littleEndian: x)
            }
            if v == f.invalid { return nil }
            switch f.sign {
            case .signed: return (v, Int(f.elementSize), true)
            case .unsigned: return (v, Int(f.elementSize), false)
            }
        }

        /// A field's value whatever its integer type (sign-extended when signed), nil when absent,
        /// invalid, or an unsigned 64-bit value above `Int64.max`.
        public func int(_ number: UInt8) -> Int64? {
            guard let r = raw(number) else { return nil }
            if r.signed {
                let shift = UInt64(64 - 8 * r.size)
                return Int64(bitPattern: r.bits << shift) >> Int64(shift)
            }
            return r.bits <= UInt64(Int64.max) ? Int64(r.bits) : nil
        }

        /// An unsigned field's value (enum, uintN, uintNz, byte), nil when absent or invalid.
        public func uint(_ number: UInt8) -> UInt64? {
            guard let r = raw(number), !r.signed else { return nil }
            return r.bits
        }

        /// A signed field's value (sintN), nil when absent or invalid.
        public func sint(_ number: UInt8) -> Int64? {
            guard let r = raw(number), r.signed else { return nil }
            let shift = UInt64(64 - 8 * r.size)
            return Int64(bitPattern: r.bits << shift) >> Int64(shift)
        }
    }

    /// Whether `bytes` start with a FIT header (what the importer sniffs).
    public static func looksLikeFIT(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && (bytes[0] == 12 || bytes[0] == 14) && bytes[8] == 0x2E && bytes[9] == 0x46 && bytes[10] == 0x49 && bytes[11] == 0x54
    }

    /// Walks every message of the chained files in `bytes` (see `walk(_:_:)` for a source).
    public static func walk(_ bytes: UnsafeBufferPointer<UInt8>, _ visit: (Message) throws(FITError) -> Void) throws(FITError) -> Outcome {
        try walk(FITInput(bytes), visit)
    }

    /// Walks every message of the chained files in `source`, a window at a time (memory does
    /// not grow with the file).
    public static func walk(_ source: some FITByteSource, windowSize: Int = 1 << 20,
                            _ visit: (Message) throws(FITError) -> Void) throws(FITError) -> Outcome {
        try walk(FITInput(source, windowSize: windowSize), visit)
    }

    /// The same walk with a visitor changed in place (`FITMessageVisitor`). `checkingCRC`
    /// false: the files' CRCs are not computed, so none is reported (a second walk over a file
    /// the first walk checked).
    static func walk(_ source: some FITByteSource, windowSize: Int = 1 << 20, checkingCRC: Bool = true,
                     into visitor: inout some FITMessageVisitor) throws(FITError) -> Outcome {
        let input = FITInput(source, windowSize: windowSize)
        input.checksCRC = checkingCRC
        return try walk(input, into: &visitor)
    }

    /// A closure as a walk's visitor.
    private struct ClosureVisitor: FITMessageVisitor {
        let body: (Message) throws(FITError) -> Void
        func visit(_ m: Message) throws(FITError) { try body(m) }
    }

    static func walk(_ input: FITInput, _ visit: (Message) throws(FITError) -> Void) throws(FITError) -> Outcome {
        let result: Result<Outcome, FITError> = withoutActuallyEscaping(visit) { body in
            var visitor = ClosureVisitor(body: body)
            do throws(FITError) { return .success(try walk(input, into: &visitor)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Walks every message of the chained files in `input`, keeping every message that decodes:
    /// a CRC mismatch (header or file) is reported and every message is still visited; a
    /// message of an undefined local type, a malformed definition, a message running past the
    /// declared data, a truncation or a damaged chained header stops the walk there, and the
    /// messages before it are kept (`Outcome.damage` says what and where; a header's
    /// and then a file's CRC mismatch come first). Throws only when nothing can be read (no FIT header, a damaged
    /// first header, the input unreadable); the visitor may throw to stop the walk (its error
    /// is passed through).
    static func walk(_ input: FITInput, into visitor: inout some FITMessageVisitor) throws(FITError) -> Outcome {
        let count = input.count
        var offset = 0
        var outcome = Outcome(files: 0, truncatedAt: nil)
        var serial = 0  // of the next definition, across the chained files
        while offset < count {
            // Header.
            let n = count - offset
            let first = outcome.files == 0
            /// A damaged header: the first one refuses the file, a chained one ends the walk.
            func damaged(_ why: String) throws(FITError) -> Outcome {
                if first { throw .badHeader(offset: offset, why: why) }
                outcome.damage.append(.badChainedHeader(offset: offset, why: why, lost: n))
                return outcome
            }
            guard n >= 12, try input.ensure(offset, min(n, 14)) else {
                if first { throw .notFIT }
                return try damaged("\(n) stray bytes after the last file")
            }
            let headerSize = Int(input[offset])
            let signature = input[offset + 8] == 0x2E && input[offset + 9] == 0x46 && input[offset + 10] == 0x49 && input[offset + 11] == 0x54
            if first && !signature && headerSize != 12 && headerSize != 14 { throw .notFIT }
            guard signature else { return try damaged("no \".FIT\" signature") }
            guard headerSize == 12 || headerSize == 14 else { return try damaged("header size \(headerSize) (12 or 14 expected)") }
            guard n >= headerSize else { return try damaged("cut short") }
            if input[offset + 1] >> 4 > 2 { return try damaged("protocol version \(input[offset + 1] >> 4).\(input[offset + 1] & 0xF) is not supported") }
            var damage: [FITDamage] = []
            if headerSize == 14 && input.checksCRC {
                let stored = UInt16(input[offset + 12]) | UInt16(input[offset + 13]) << 8
                if stored != 0 {
                    let c = FITCRC.checksum(input.buffer(), from: offset - input.start, to: offset + 12 - input.start)
                    if c != stored { damage.append(.headerCRC(offset: offset, stored: stored, computed: c)) }
                }
            }
            let dataSize = Int(input[offset + 4]) | Int(input[offset + 5]) << 8 | Int(input[offset + 6]) << 16 | Int(input[offset + 7]) << 24
            let dataStart = offset + headerSize
            let declaredEnd = dataStart + dataSize
            let end = min(declaredEnd, count)
            let whole = declaredEnd + 2 <= count
            outcome.files += 1
            input.beginCRC(from: offset, to: declaredEnd)
            let stop = try walkMessages(input, from: dataStart, to: end, serial: &serial, &visitor)
            // The file's CRC, when it is whole (reported before what the damage broke, after the
            // header's own CRC: a damaged byte is said as what it is first).
            if whole && input.checksCRC {
                let c = try input.finishCRC()
                guard try input.ensure(declaredEnd, 2) else { throw .unreadable(offset: declaredEnd, why: "the file ended before its size") }
                let stored = UInt16(input[declaredEnd]) | UInt16(input[declaredEnd + 1]) << 8
                if c != stored { damage.append(.fileCRC(offset: declaredEnd, stored: stored, computed: c)) }
            }
            outcome.damage += damage
            switch stop {
            case .end:
                if !whole {
                    outcome.truncatedAt = end
                    outcome.damage.append(.truncated(offset: end))
                    return outcome
                }
            case .cutShort(let t):
                if whole {
                    // The header's size says the data ends here, but a message runs past it.
                    outcome.damage.append(.overrun(offset: t, lost: count - t))
                } else {
                    outcome.truncatedAt = t
                    outcome.damage.append(.truncated(offset: t))
                }
                return outcome
            case .undefinedLocalType(let at, let local):
                outcome.damage.append(.undefinedLocalType(offset: at, local: local, lost: count - at))
                return outcome
            case .badDefinition(let at, let why):
                outcome.damage.append(.badDefinition(offset: at, why: why, lost: count - at))
                return outcome
            }
            offset = declaredEnd + 2
        }
        if outcome.files == 0 { throw .notFIT }
        return outcome
    }

    /// Where and why `walkMessages` stopped.
    enum Stop: Sendable, Equatable {
        /// The last message ended exactly at the end of the data.
        case end
        /// The data ended inside the message starting here.
        case cutShort(at: Int)
        /// A data message of a local type no definition declared.
        case undefinedLocalType(at: Int, local: Int)
        case badDefinition(at: Int, why: String)
    }

    /// The messages of one file's data, `from..<to`; returns where and why it stopped.
    /// `serial` numbers the definitions across every file of the walk (a chained file's own
    /// definitions never take the serial of an earlier file's).
    static func walkMessages(_ input: FITInput, from: Int, to end: Int, serial: inout Int,
                             _ visitor: inout some FITMessageVisitor) throws(FITError) -> Stop {
        // The 16 local definitions in storage of their own, so that a message points at its
        // definition instead of copying it (and retaining its arrays) per message.
        let definitions = UnsafeMutablePointer<Definition>.allocate(capacity: 16)
        var defined: UInt16 = 0  // bit k: definitions[k] is initialized
        defer {
            for k in 0..<16 where defined & (1 << k) != 0 { (definitions + k).deinitialize(count: 1) }
            definitions.deallocate()
        }
        var lastTimestamp: UInt32?
        var p = from
        while p < end {
            guard try input.ensure(p, 1) else { return .cutShort(at: p) }
            let h = input[p]
            if h & 0x80 != 0 {
                // Compressed timestamp header: local type in bits 5-6, offset in bits 0-4.
                let local = Int((h >> 5) & 0x3)
                guard defined & (1 << local) != 0 else { return .undefinedLocalType(at: p, local: local) }
                let d = UnsafePointer(definitions + local)
                let size = d.pointee.size
                guard p + 1 + size <= end, try input.ensure(p, 1 + size) else { return .cutShort(at: p) }
                var ts: UInt32?
                if let last = lastTimestamp {
                    let off = UInt32(h & 0x1F)
                    var t = (last & ~0x1F) | off
                    if off < last & 0x1F { t = t &+ 0x20 }
                    ts = t
                    lastTimestamp = t
                }
                try visitor.visit(Message(bytes: input.buffer(), definition: d, start: p + 1 - input.start, timestamp: ts))
                p += 1 + size
            } else if h & 0x40 != 0 {
                // Definition message.
                let local = Int(h & 0xF)
                let developer = h & 0x20 != 0
                guard p + 6 <= end, try input.ensure(p, 6) else { return .cutShort(at: p) }
                let arch = input[p + 2]
                guard arch <= 1 else { return .badDefinition(at: p, why: "architecture \(arch)") }
                let big = arch == 1
                let global = big ? UInt16(input[p + 3]) << 8 | UInt16(input[p + 4]) : UInt16(input[p + 4]) << 8 | UInt16(input[p + 3])
                let count = Int(input[p + 5])
                var q = p + 6
                // The whole definition (with its developer fields, at most 3 * 255 + 1 bytes more) in the window.
                guard q + 3 * count <= end, try input.ensure(p, min(end - p, 6 + 3 * count + 1 + 3 * 255)) else { return .cutShort(at: p) }
                var fields: [Field] = []
                fields.reserveCapacity(count)
                var slots = [UInt8](repeating: 0, count: 256)
                var size = 0
                var tsOffset = -1
                for _ in 0..<count {
                    let f = Field(number: input[q], size: input[q + 1], baseType: input[q + 2], offset: size)
                    if f.number == 253 && f.size == 4 { tsOffset = size }
                    size += Int(f.size)
                    fields.append(f)
                    if fields.count < 256 && slots[Int(f.number)] == 0 { slots[Int(f.number)] = UInt8(fields.count) }
                    q += 3
                }
                var developerFields: [DeveloperField] = []
                if developer {
                    guard q + 1 <= end else { return .cutShort(at: p) }
                    let devCount = Int(input[q])
                    q += 1
                    guard q + 3 * devCount <= end else { return .cutShort(at: p) }
                    developerFields.reserveCapacity(devCount)
                    for _ in 0..<devCount {
                        developerFields.append(DeveloperField(number: input[q], size: input[q + 1], index: input[q + 2], offset: size))
                        size += Int(input[q + 1])
                        q += 3
                    }
                }
                let definition = Definition(global: global, bigEndian: big, fields: fields, developer: developerFields, size: size,
                                            timestampOffset: tsOffset, slots: slots, serial: serial)
                serial += 1
                if defined & (1 << local) != 0 {
                    definitions[local] = definition
                } else {
                    (definitions + local).initialize(to: definition)
                    defined |= 1 << local
                }
                p = q
            } else {
                let local = Int(h & 0xF)
                guard defined & (1 << local) != 0 else { return .undefinedLocalType(at: p, local: local) }
                let d = UnsafePointer(definitions + local)
                let size = d.pointee.size
                guard p + 1 + size <= end, try input.ensure(p, 1 + size) else { return .cutShort(at: p) }
                var ts: UInt32?
                let tsOffset = d.pointee.timestampOffset
                if tsOffset >= 0 {
                    let b = p + 1 + tsOffset
                    let v = d.pointee.bigEndian
                        ? UInt32(input[b]) << 24 | UInt32(input[b + 1]) << 16 | UInt32(input[b + 2]) << 8 | UInt32(input[b + 3])
                        : UInt32(input[b + 3]) << 24 | UInt32(input[b + 2]) << 16 | UInt32(input[b + 1]) << 8 | UInt32(input[b])
                    if v != 0xFFFF_FFFF { ts = v; lastTimestamp = v }
                }
                try visitor.visit(Message(bytes: input.buffer(), definition: d, start: p + 1 - input.start, timestamp: ts))
                p += 1 + size
            }
        }
        return .end
    }
}

/// A walk's visitor as a value the walk changes in place (`FITMessageDecoder.walk(_:into:)`): its
/// state lives in its own stored properties. A closure's captured variables are checked for
/// exclusive access at run time on every use, several times a message (5 % of a FIT import).
protocol FITMessageVisitor {
    mutating func visit(_ m: FITMessageDecoder.Message) throws(FITError)
}
