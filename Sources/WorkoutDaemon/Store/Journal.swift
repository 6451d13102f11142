import Dispatch
import Glibc
import WorkoutCore

/// The journal of the workout in progress (`$XDG_STATE_HOME/workoutd/current.journal`):
/// control records are written and fsync'd at once; fixes are buffered, written to the kernel
/// at the end of every feed read turn (`writeBuffered`: a crash of the process then loses no fix
/// that `status` counted), and fsync'd with an `alive` record at least every `flushSeconds`
/// (the bound for a power loss). Appending only, one checksummed line
/// per record, so a torn tail loses at most the last partial record.
public final class Journal {
    public let path: String
    private var fd: Int32 = -1
    private var pending = ""
    /// Where the last good record ends when a torn tail could not be cut off at start-up
    /// (nothing may be appended after a torn record: the next restore would stop there).
    private var tornTailAt: off_t?
    /// The last write error, shown in status until a write succeeds again.
    public private(set) var lastError: SystemError?

    public init(path: String) { self.path = path }

    deinit { if fd >= 0 { close(fd) } }

    public var exists: Bool { access(path, F_OK) == 0 }

    /// Appends a record: a fix is buffered (`appendFix`), any other record is durable at once
    /// (`appendNow`).
    public func append(_ record: JournalRecord) {
        switch record {
        case .fix(let fix): appendFix(fix)
        case .heartRate, .heartRateGap, .sensor: appendBuffered(record)
        case .started, .paused, .resumed, .lap, .marker, .stopped, .shutdown, .settings, .recovered, .rebased, .alive, .suspended, .shifted: appendNow(record)
        }
    }

    /// Appends a control record durably (flushing buffered fixes first, to keep order). A
    /// `started` record begins a new journal: a leftover file is moved aside, never appended to.
    public func appendNow(_ record: JournalRecord) {
        if case .started = record, fd < 0, exists { _ = keepAside(reason: "leftover", now: 0) }
        pending += record.encodeLine()
        flush(alive: nil)
    }

    /// Buffers a fix; it reaches the disk at the next `flush` (fsync'd then). A burst of fixes
    /// is written (not fsync'd) every `writeThreshold` bytes, so the buffer stays small.
    public func appendFix(_ fix: Fix) {
        pending += JournalRecord.fix(fix).encodeLine()
        if pending.utf8.count >= Journal.writeThreshold { writePending(sync: false) }
    }

    /// Buffers a heart-rate or sensor record like a fix (durable with the next flush).
    public func appendBuffered(_ record: JournalRecord) {
        pending += record.encodeLine()
        if pending.utf8.count >= Journal.writeThreshold { writePending(sync: false) }
    }

    /// Buffered bytes that make `appendFix` write before the next flush.
    static let writeThreshold = 64 * 1024

    public var hasPending: Bool { !pending.isEmpty }

    /// Writes buffered records to the kernel without fsync (the end of a feed read turn).
    public func writeBuffered() {
        guard !pending.isEmpty else { return }
        writePending(sync: false)
    }

    /// Writes buffered records (plus an `alive` mark) and fsyncs.
    public func flush(alive: Double?) {
        if let alive { pending += JournalRecord.alive(time: alive).encodeLine() }
        guard !pending.isEmpty else { return }
        writePending(sync: true)
    }

    /// The periodic flush: writes buffered records (plus an `alive` mark) to the kernel on the
    /// caller's thread, and hands the fsync to `syncer` on a duplicate of the descriptor, so the
    /// event loop never waits for the disk (an fdatasync took 3-11 ms while an import was writing).
    /// `done` runs on the syncer's thread with the sync's error, if any. While one sync is in
    /// flight, the next flush only writes: the one in flight, or the next, covers its bytes.
    public func flushInBackground(alive: Double?, on syncer: DispatchQueue, done: @escaping @Sendable (SystemError?) -> Void) {
        if let alive { pending += JournalRecord.alive(time: alive).encodeLine() }
        if !pending.isEmpty { writePending(sync: false) }
        guard fd >= 0, lastError == nil, syncsInFlight == 0 else { return }
        let copy = dup(fd)
        guard copy >= 0 else { lastError = SystemError.last("dup \(path)"); return }
        syncsInFlight += 1
        let path = self.path
        syncer.async {
            let error = fdatasync(copy) == 0 ? nil : SystemError.last("fsync \(path)")
            close(copy)
            done(error)
        }
    }

    /// Called on the owner's thread once a background sync has finished.
    public func backgroundSyncFinished(_ error: SystemError?) {
        syncsInFlight -= 1
        if let error { lastError = error }
    }

    /// Background syncs started and not yet reported back (0 or 1).
    private var syncsInFlight = 0

    private func writePending(sync: Bool) {
        do {
            if fd < 0 {
                let dir = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
                try makeDirectories(dir)
                if let end = tornTailAt {
                    guard truncate(path, end) == 0 else { throw SystemError.last("cut the torn end of \(path)") }
                    tornTailAt = nil
                }
                // O_NONBLOCK: a FIFO in the journal's place must not block the loop in open().
                var st = stat()
                fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0o600)
                guard fd >= 0 else {
                    let e = SystemError.last("open \(path)")
                    if lstat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
                        throw SystemError("\(path) is \(fileKind(st.st_mode)), not a regular file", code: EINVAL)
                    }
                    throw e
                }
                guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
                    close(fd); fd = -1
                    throw SystemError("\(path) is \(fileKind(st.st_mode)), not a regular file", code: EINVAL)
                }
            }
            let fd = self.fd
            try pending.withUTF8 { try writeAll(fd, UnsafeRawBufferPointer($0)) }
            if sync { guard fdatasync(fd) == 0 else { throw SystemError.last("fsync \(path)") } }
            // A burst's buffer is not kept (it would stay resident for the rest of the workout).
            pending.removeAll(keepingCapacity: pending.utf8.count <= 2 * Journal.writeThreshold)
            lastError = nil
        } catch let e as SystemError {
            // Keep the records in memory and try again at the next flush.
            lastError = e
            if fd >= 0 { close(fd); fd = -1 }
        } catch {}
    }

    /// The name of the journal of a finished workout set aside while it is still unsaved.
    public func setAsidePath(_ id: WorkoutID) -> String { path + ".unsaved-\(id)" }

    /// A new workout starts before the last one's save succeeded: write what is buffered, then
    /// move this journal to `setAsidePath(id)` (kept until that save is durable, and restored
    /// and saved at the next start-up); the next record begins a new journal.
    @discardableResult
    public func setAside(_ id: WorkoutID) -> String? {
        flush(alive: nil)
        if fd >= 0 { close(fd); fd = -1 }
        tornTailAt = nil
        let target = setAsidePath(id)
        guard exists, rename(path, target) == 0 else { return nil }
        return target
    }

    /// Journals set aside for unsaved workouts (`setAsidePath`), found in the journal's directory.
    public func setAsidePaths() -> [String] {
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let dir = slash == path.startIndex ? "." : String(path[..<slash])
        let prefix = String(path[path.index(after: slash)...]) + ".unsaved-"
        guard let d = opendir(dir) else { return [] }
        defer { closedir(d) }
        var out: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name.hasPrefix(prefix) { out.append(dir + "/" + name) }
        }
        return out.sorted()
    }

    /// Moves the journal to `<journal>.<reason>-<t>` (`-<t>-2`, `-3`, ... when that name is
    /// taken) instead of deleting it: a journal that could not be restored is kept for a person
    /// to look at. Returns the new path.
    @discardableResult
    public func keepAside(reason: String, now: Double) -> String? {
        if fd >= 0 { close(fd); fd = -1 }
        for target in asideNames(reason: reason, now: now) {
            // link + unlink, not rename: rename would silently replace a file of that name.
            if link(path, target) == 0 { unlink(path); return target }
            if errno == EEXIST { continue }
            // No hard links here (some file systems): rename after checking the name is free.
            if access(target, F_OK) != 0, rename(path, target) == 0 { return target }
            return nil
        }
        return nil
    }

    /// Candidate names for a kept-aside copy, unique even for two restarts in the same second.
    private func asideNames(reason: String, now: Double) -> some Sequence<String> {
        let base = path + ".\(reason)-\(Int(now))"
        return (1...10_000).lazy.map { $0 == 1 ? base : base + "-\($0)" }
    }

    /// Writes `bytes` to a new kept-aside file (never replacing one). Returns its path.
    private func writeAside(_ bytes: ArraySlice<UInt8>, reason: String, now: Double) throws(SystemError) -> String {
        for target in asideNames(reason: reason, now: now) {
            let afd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if afd < 0 {
                if errno == EEXIST { continue }
                throw SystemError.last("create \(target)")
            }
            var failure: SystemError?
            Array(bytes).withUnsafeBytes { raw in
                do throws(SystemError) { try writeAll(afd, raw) } catch { failure = SystemError("write \(target)", code: error.code) }
            }
            if failure == nil, fsync(afd) != 0 { failure = SystemError.last("fsync \(target)") }
            close(afd)
            if let failure { unlink(target); throw failure }
            return target
        }
        throw SystemError("no free name for \(path).\(reason)-*", code: EEXIST)
    }

    /// Removes the journal once the workout's save is durable. Here only its name goes: the
    /// file is held open across the unlink, and `release` is given that last descriptor, whose
    /// close frees the file's blocks, so the daemon can close it off the event loop (freeing a
    /// long workout's journal is slow: BENCHMARKS.md, "What was fixed"). A crash before the
    /// close loses nothing: the kernel frees an unlinked file when its process ends.
    public func remove(release: (Int32) -> Void = { _ = close($0) }) {
        let last = fd >= 0 ? fd : open(path, O_RDONLY | O_CLOEXEC)
        fd = -1
        pending = ""
        unlink(path)
        if last >= 0 { release(last) }
    }

    /// What was read back from a journal at start-up.
    public struct Recovery {
        public var records: [JournalRecord]
        /// Where damaged trailing bytes were moved, if any (never deleted silently).
        public var keptAside: String?
        public var badBytes: Int
        /// Why the damaged end could not be kept aside (a full disk): it was cut off in place
        /// instead (or, if even that failed, nothing is appended until it can be).
        public var asideError: SystemError?
    }

    /// Largest journal read back (a 24-hour workout at 1 Hz is about 8 MB).
    static let maxBytes = 256 << 20

    /// Why the last `recover` returned nil (not a regular file, unreadable, too large).
    public private(set) var readError: SystemError?

    /// Reads records up to the first bad line (CRLF line ends are accepted); the rest is moved
    /// aside to `<journal>.damaged-<t>`, and the journal is cut to its good part so that new
    /// records never follow a torn one. Anything but a regular file is refused without reading.
    public func recover(now: Double) -> Recovery? {
        let bytes: [UInt8]
        do { bytes = try readRegularFile(path, limit: Journal.maxBytes); readError = nil } catch {
            readError = error
            return nil
        }
        var records: [JournalRecord] = []
        var goodEnd = 0
        var offset = 0
        while offset < bytes.count {
            guard let nl = bytes[offset...].firstIndex(of: 10) else { break }  // torn last line
            let end = nl > offset && bytes[nl - 1] == 13 ? nl - 1 : nl  // CRLF (a file edited elsewhere)
            let line = String(decoding: bytes[offset..<end], as: UTF8.self)
            guard let r = JournalRecord.decodeLine(Substring(line)) else { break }
            records.append(r)
            offset = nl + 1
            goodEnd = offset
        }
        var recovery = Recovery(records: records, keptAside: nil, badBytes: bytes.count - goodEnd)
        if goodEnd < bytes.count {
            do { recovery.keptAside = try writeAside(bytes[goodEnd...], reason: "damaged", now: now) } catch {
                recovery.asideError = error
            }
            // Cut to the good part so appends continue after the last good record. With the
            // disk full (no aside copy) the torn bytes are cut all the same: a partial record
            // can never be restored, and records after it would be lost at the next restore.
            if truncate(path, off_t(goodEnd)) != 0 { tornTailAt = off_t(goodEnd) }
        }
        return recovery
    }
}
