import Glibc
import WorkoutCore

/// Linux inotify on a few directories (not their subdirectories), read on the event loop: it
/// reports names that were written and closed or renamed into place (`placed`), names that
/// went away (`removed`), a directory that is gone or unmounted, and a queue overflow (events
/// were lost: look at everything again). A file being written is reported only when it is
/// closed, never at its creation, so half-written files are not read. A watch made with
/// `writes: .reported` also reports each write (`written`): a file's close reaches inotify only
/// when its last descriptor goes (a process spawned meanwhile may hold a copy), its writes at once.
final class DirectoryWatch {
    enum Change: Equatable {
        case placed(dir: String, name: String)
        /// Written to, maybe still open (`writes: .reported` only).
        case written(dir: String, name: String)
        case removed(dir: String, name: String)
        /// The directory was deleted, moved or unmounted: no more events come for it.
        case directoryGone(String)
        /// The kernel dropped events: every watched directory must be looked at again.
        case overflow
    }

    private let loop: EventLoop
    private let fd: Int32
    private var token: EventLoop.Token?
    private var directories: [Int32: String] = [:]
    private let onChanges: ([Change]) -> Void

    /// Whether each write to a file is reported, besides its close.
    enum Writes { case ignored, reported }

    private let mask: UInt32
    static let placements = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// Throws when inotify is unavailable (the caller then relies on rescans).
    init(loop: EventLoop, writes: Writes = .ignored, onChanges: @escaping ([Change]) -> Void) throws(SystemError) {
        self.loop = loop
        self.onChanges = onChanges
        switch writes {
        case .ignored: mask = DirectoryWatch.placements
        case .reported: mask = DirectoryWatch.placements | UInt32(IN_MODIFY)
        }
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError.last("inotify_init1") }
        token = loop.watch(fd) { [unowned self] _ in self.readEvents() }
    }

    /// Starts watching `dir`; throws when it cannot (missing, no permission, out of watches).
    func add(_ dir: String) throws(SystemError) {
        let wd = inotify_add_watch(fd, dir, mask)
        guard wd >= 0 else { throw SystemError.last("inotify_add_watch \(dir)") }
        directories[wd] = dir
    }

    func remove(_ dir: String) {
        for (wd, d) in directories where d == dir {
            inotify_rm_watch(fd, wd)
            directories[wd] = nil
        }
    }

    var watched: Set<String> { Set(directories.values) }

    func close() {
        if let token { loop.unwatch(token) }
        token = nil
        Glibc.close(fd)
        directories = [:]
    }

    private func readEvents() {
        var changes: [Change] = []
        var buf = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = read(fd, &buf, buf.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            changes += parse(buf[0..<n])
        }
        if !changes.isEmpty { onChanges(changes) }
    }

    /// The changes in a buffer of `struct inotify_event`s (wd, mask, cookie, len, name).
    private func parse(_ bytes: ArraySlice<UInt8>) -> [Change] {
        var out: [Change] = []
        var off = bytes.startIndex
        let header = MemoryLayout<inotify_event>.size
        while off + header <= bytes.endIndex {
            let (wd, mask, len) = bytes.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                let base = raw.baseAddress! + (off - bytes.startIndex)
                return (base.loadUnaligned(as: Int32.self), base.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
                        Int(base.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
            }
            let nameBytes = bytes[(off + header)..<min(bytes.endIndex, off + header + len)]
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            off += header + len
            if mask & UInt32(IN_Q_OVERFLOW) != 0 { out.append(.overflow); continue }
            guard let dir = directories[wd] else { continue }
            if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0 {
                directories[wd] = nil
                if mask & UInt32(IN_IGNORED) == 0 { inotify_rm_watch(fd, wd) }  // its IN_IGNORED then finds no directory
                if !out.contains(.directoryGone(dir)) { out.append(.directoryGone(dir)) }
                continue
            }
            guard !name.isEmpty else { continue }
            if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 { out.append(.placed(dir: dir, name: name)) }
            if mask & UInt32(IN_MODIFY) != 0 { out.append(.written(dir: dir, name: name)) }
            if mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 { out.append(.removed(dir: dir, name: name)) }
        }
        return out
    }
}
