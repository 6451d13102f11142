import Glibc
import WorkoutCore

/// Reads what the history catalog needs of a workout file (`WorkoutFile.Head`) from its first
/// 64 KiB (all of it when the summary runs longer), on whichever thread calls it (the sync
/// queue, never the event loop). A file is read only when whole: its last byte that is not
/// white space closes the top-level object (a sync engine renames whole files into place; a
/// file being copied by hand, or cut short, ends mid-points).
enum HistoryReader {
    /// Why a file is not read as a workout.
    enum Failure: Error, CustomStringConvertible {
        /// Gone, or not a regular file.
        case gone
        case system(SystemError)
        /// Ends mid-file: still being written, or cut short.
        case incomplete
        case invalid(String)

        var description: String {
            switch self {
            case .gone: return "gone"
            case .system(let e): return e.description
            case .incomplete: return "the file ends before its last point (still being written, or cut short)"
            case .invalid(let why): return why
            }
        }
    }

    static let headBytes = 64 << 10

    static func head(path: String) throws(Failure) -> WorkoutFile.Head {
        try read(path: path).head
    }

    /// The head and the stamp of the file as it was read (`fstat` of the open file).
    static func read(path: String, part: WorkoutFile.Part = .summary) throws(Failure) -> (head: WorkoutFile.Head, stamp: FileStamp) {
        // O_NOFOLLOW: a link in the history folder is never read (it may lead anywhere).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ELOOP { throw .system(LinkPolicy.linkRefused(path)) }
            throw errno == ENOENT ? .gone : .system(SystemError.last("open \(path)"))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .system(SystemError.last("stat \(path)")) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw .gone }
        let size = Int(st.st_size)
        guard size > 0 else { throw .incomplete }
        guard try lastByteClosesObject(fd, size: size, path: path) else { throw .incomplete }
        var want = min(size, headBytes)
        while true {
            let bytes = try readPrefix(fd, count: want, path: path)
            do { return (try WorkoutFile.decodeHead(bytes[...], part: part), HistoryStore.stamp(st)) } catch {
                switch error {
                // A long workout's summary (thousands of splits) can pass 64 KiB: read 4 times
                // more each time, never the points (a 1.5 M-point import's 171 MB file was read
                // whole here, 268 MB peak instead of 154).
                case .needsMore where want < size: want = Self.nextPrefix(after: want, size: size)
                case .needsMore: throw .incomplete
                case .invalid(let e): throw .invalid(e.description)
                }
            }
        }
    }

    /// How much of a file of `size` bytes to read after a prefix of `want` held too little.
    static func nextPrefix(after want: Int, size: Int) -> Int { min(size, want * 4) }

    private static func lastByteClosesObject(_ fd: Int32, size: Int, path: String) throws(Failure) -> Bool {
        var tail = [UInt8](repeating: 0, count: min(size, 64))
        let n = pread(fd, &tail, tail.count, off_t(size - tail.count))
        guard n == tail.count else { throw .system(SystemError.last("read \(path)")) }
        let last = tail.last { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        return last == UInt8(ascii: "}")
    }

    private static func readPrefix(_ fd: Int32, count: Int, path: String) throws(Failure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var off = 0
        while off < count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + off, count - off, off_t(off)) }
            if n < 0 { if errno == EINTR { continue }; throw .system(SystemError.last("read \(path)")) }
            if n == 0 { break }
            off += n
        }
        out.removeLast(count - off)
        return out
    }
}
