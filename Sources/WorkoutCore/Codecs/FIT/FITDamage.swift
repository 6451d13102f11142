/// What in a FIT file could not be read, and why: the one rule for damaged files is to keep
/// every message that decodes (as Garmin's SDK does) and to say what was lost
/// (`FITMessageDecoder.Outcome.damage`, the import's warnings).
public enum FITDamage: Sendable, Equatable, CustomStringConvertible {
    /// The CRC after a file's data does not match its bytes: every message was read, and any
    /// of them may hold a damaged value.
    case fileCRC(offset: Int, stored: UInt16, computed: UInt16)
    /// The 14-byte header's own CRC does not match (the header read as it stands).
    case headerCRC(offset: Int, stored: UInt16, computed: UInt16)
    /// A data message of a local type no definition declared: its size is unknown, so reading
    /// stopped there; `lost` bytes of data after it were not read.
    case undefinedLocalType(offset: Int, local: Int, lost: Int)
    /// A definition that cannot be right (an architecture other than 0 or 1): reading stopped.
    case badDefinition(offset: Int, why: String, lost: Int)
    /// A message runs past the data size its file's header declares: reading stopped.
    case overrun(offset: Int, lost: Int)
    /// The input ends inside a message or before the file's CRC: no CRC to check.
    case truncated(offset: Int)
    /// A chained file's header is damaged (or stray bytes follow the last file): it and what
    /// follows were not read.
    case badChainedHeader(offset: Int, why: String, lost: Int)

    public var description: String {
        switch self {
        case .fileCRC(let o, let s, let c):
            return "FIT file CRC mismatch at byte \(o) (stored \(FITDamage.hex(s)), computed \(FITDamage.hex(c))): the file is damaged; kept every message that decodes"
        case .headerCRC(let o, let s, let c):
            return "FIT header CRC mismatch at byte \(o) (stored \(FITDamage.hex(s)), computed \(FITDamage.hex(c))): read as it stands"
        case .undefinedLocalType(let o, let l, let lost):
            return "corrupt FIT data at byte \(o) (a message of local type \(l) without a definition): the last \(lost) bytes could not be read; kept the messages before it"
        case .badDefinition(let o, let why, let lost):
            return "corrupt FIT definition at byte \(o) (\(why)): the last \(lost) bytes could not be read; kept the messages before it"
        case .overrun(let o, let lost):
            return "corrupt FIT data at byte \(o) (a message runs past the data its header declares): the last \(lost) bytes could not be read; kept the messages before it"
        case .truncated(let o):
            return "cut short at byte \(o): kept the whole messages before it (no CRC to check)"
        case .badChainedHeader(let o, let why, let lost):
            return "damaged FIT header at byte \(o) (\(why)): the last \(lost) bytes were not read; kept the file before it"
        }
    }

    /// Whether messages were lost (not merely unverified).
    public var losesMessages: Bool {
        switch self {
        case .fileCRC, .headerCRC: return false
        case .undefinedLocalType, .badDefinition, .overrun, .truncated, .badChainedHeader: return true
        }
    }

    static func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - s.count) + s
    }
}
