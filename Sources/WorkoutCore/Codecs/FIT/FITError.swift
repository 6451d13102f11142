/// Why a FIT file was refused. Every case says what is wrong and where (byte offset).
public enum FITError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The first bytes are not a FIT header (size 12 or 14 and the ".FIT" signature).
    case notFIT
    /// A header (the first, or one of a chained file) is damaged.
    case badHeader(offset: Int, why: String)
    case headerCRC(offset: Int, stored: UInt16, computed: UInt16)
    case fileCRC(offset: Int, stored: UInt16, computed: UInt16)
    /// A data message uses a local message type that no definition has declared.
    case undefinedLocalType(offset: Int, local: Int)
    case badDefinition(offset: Int, why: String)
    /// The file ends before its first message is whole.
    case truncated(offset: Int)
    /// A valid FIT file that is not an activity (monitoring, settings, course, ...).
    case notActivity(type: String)
    /// No file_id message: the protocol requires it first.
    case noFileID
    /// An activity with records, none of which has a position.
    case noPositions(records: Int)

    public var description: String {
        switch self {
        case .notFIT: return "not a FIT file (no FIT header)"
        case .badHeader(let o, let why): return "damaged FIT header at byte \(o): \(why)"
        case .headerCRC(let o, let s, let c): return "FIT header CRC mismatch at byte \(o) (stored \(hex(s)), computed \(hex(c)))"
        case .fileCRC(let o, let s, let c): return "FIT file CRC mismatch at byte \(o) (stored \(hex(s)), computed \(hex(c))): the file is corrupt"
        case .undefinedLocalType(let o, let l): return "corrupt FIT data at byte \(o): message of local type \(l) without a definition"
        case .badDefinition(let o, let why): return "corrupt FIT definition at byte \(o): \(why)"
        case .truncated(let o): return "FIT file cut short at byte \(o), before any whole message"
        case .notActivity(let t): return "a FIT \(t) file, not an activity"
        case .noFileID: return "FIT file without a file_id message"
        case .noPositions(let n): return "FIT activity with \(n) records, none with a position (indoor?): nothing to import"
        }
    }

    private func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - s.count) + s
    }
}
