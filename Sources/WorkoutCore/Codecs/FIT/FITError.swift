/// Why a FIT file was refused: nothing in it could be imported (damage that leaves messages to
/// keep is `FITDamage`, a warning). Every case says what is wrong and where.
public enum FITError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The first bytes are not a FIT header (size 12 or 14 and the ".FIT" signature).
    case notFIT
    /// The first header is damaged (a chained file's damaged header is `FITDamage`).
    case badHeader(offset: Int, why: String)
    /// The file ends before its first message is whole.
    case truncated(offset: Int)
    /// A valid FIT file that is not an activity (monitoring, settings, course, ...).
    case notActivity(type: String)
    /// No file_id message: the protocol requires it first.
    case noFileID
    /// The damage comes before any message that could be kept (`file_id` first of all).
    case damaged(FITDamage)
    /// The input could not be read (the daemon's `pread` failed, the file shrank).
    case unreadable(offset: Int, why: String)
    /// More of a message than one read keeps (`FITActivityFile.Limits`: records, laps, ...).
    case tooMany(String, limit: Int)
    /// An activity with records, none of which has a position.
    case noPositions(records: Int)

    public var description: String {
        switch self {
        case .notFIT: return "not a FIT file (no FIT header)"
        case .badHeader(let o, let why): return "damaged FIT header at byte \(o): \(why)"
        case .truncated(let o): return "FIT file cut short at byte \(o), before any whole message"
        case .notActivity(let t): return "a FIT \(t) file, not an activity"
        case .noFileID: return "FIT file without a file_id message"
        case .damaged(let d): return "FIT file unreadable before its first message: \(d)"
        case .unreadable(let o, let why): return "reading the FIT file at byte \(o): \(why)"
        case .tooMany(let what, let limit):
            return "FIT file with more than \(limit) \(what): more than one import holds (memory stays bounded whatever the file); not imported"
        case .noPositions(let n): return "FIT activity with \(n) records, none with a position (indoor?): nothing to import"
        }
    }
}
