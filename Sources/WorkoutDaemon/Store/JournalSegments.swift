import Glibc
import WorkoutCore

/// The files of one journal: the segment being written at `path`, and the sealed segments
/// before it, `path.seg-000001`, `path.seg-000002` ... in the order they were written. A
/// journal rolls into a new segment when its active one reaches `Journal.segmentBytes`, so no
/// file of a long workout grows without bound (docs/storage.md, "Segments").
struct JournalSegments {
    let path: String

    static let marker = ".seg-"

    var directory: String {
        path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    }

    var baseName: String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    func sealedPath(_ n: Int) -> String {
        let digits = String(n)
        return path + Self.marker + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// Numbers of the sealed segments on disk, ascending.
    func sealedNumbers() -> [Int] {
        let prefix = baseName + Self.marker
        return (directoryEntries(directory) ?? []).compactMap { name -> Int? in
            guard name.hasPrefix(prefix) else { return nil }
            let digits = name.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
            return Int(digits)
        }.sorted()
    }

    /// Sealed segments in order.
    func sealedPaths() -> [String] { sealedNumbers().map(sealedPath) }

    /// Every file of the journal that exists, in reading order (sealed segments, then the active one).
    func existingPaths() -> [String] {
        sealedPaths() + (access(path, F_OK) == 0 ? [path] : [])
    }

    var exists: Bool { access(path, F_OK) == 0 || !sealedNumbers().isEmpty }

    /// The number the next sealed segment gets.
    func nextNumber() -> Int { (sealedNumbers().last ?? 0) + 1 }

    /// Renames every file of this journal to the same names under `target` (`target.seg-N`);
    /// the active segment last, so a crash halfway leaves each file under one of the two names
    /// with its number. Fails without overwriting anything when a target name exists.
    func move(to target: String) -> Bool {
        let other = JournalSegments(path: target)
        for n in sealedNumbers() {
            guard Self.moveWithoutReplacing(sealedPath(n), other.sealedPath(n)) else { return false }
        }
        if access(path, F_OK) == 0 { return Self.moveWithoutReplacing(path, target) }
        return true
    }

    /// link + unlink, not rename: rename would silently replace a file of that name. Where
    /// hard links are not supported, rename after checking the name is free.
    static func moveWithoutReplacing(_ from: String, _ to: String) -> Bool {
        if link(from, to) == 0 { unlink(from); return true }
        if errno == EEXIST { return false }
        return access(to, F_OK) != 0 && rename(from, to) == 0
    }

    /// The journal a file name belongs to: `NAME.seg-000003` -> `NAME`; any other name is its own.
    static func journalName(of fileName: String) -> String {
        let m = Array(marker.utf8)
        let bytes = Array(fileName.utf8)
        guard bytes.count > m.count else { return fileName }
        for i in stride(from: bytes.count - m.count - 1, through: 0, by: -1) where bytes[i..<(i + m.count)].elementsEqual(m) {
            let digits = bytes[(i + m.count)...]
            guard digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return fileName }
            return String(decoding: bytes[..<i], as: UTF8.self)
        }
        return fileName
    }

    /// True when neither `candidate` nor any segment of it exists.
    static func isFree(_ candidate: String) -> Bool {
        access(candidate, F_OK) != 0 && JournalSegments(path: candidate).sealedNumbers().isEmpty
    }

    /// fsync of the directory: a rename is durable only then.
    func syncDirectory() {
        let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { return }
        _ = fsync(dfd)
        close(dfd)
    }
}
