import Dispatch
import Glibc
import WorkoutCore

/// The journal of the workout in progress (`$XDG_STATE_HOME/workoutd/current.journal`):
/// control records are written and fsync'd at once; fixes are buffered, written to the kernel
/// at the end of every feed read turn (`writeBuffered`: a crash of the process then loses no fix
/// that `status` counted), and fsync'd with an `alive` record at least every `flushSeconds`
/// (the bound for a power loss). Appending only, one checksummed line per record; a write is
/// whole records or nothing (a write that fails halfway, on a full disk, is cut back), and the
/// file rolls into a new segment every `segmentBytes` (`JournalSegments`), so a journal has no
/// size limit. Reading skips a bad record, not the rest (`JournalScanner`).
public final class Journal {
    public let path: String
    /// The active segment is sealed (renamed `path.seg-N`) once it holds this many bytes.
    let segmentBytes: Int
    private var fd: Int32 = -1
    /// Records not yet written, as their lines' bytes.
    private var pending: [UInt8] = []
    /// The size of the active segment in whole records: what a failed write is cut back to.
    private var goodSize: off_t = 0
    /// Where the last good record ends when a torn tail (from start-up, or a write that failed
    /// halfway) could not be cut off yet: nothing may be appended after a torn record.
    private var tornTailAt: off_t?
    /// The last write error, shown in status until a write succeeds again.
    public private(set) var lastError: SystemError?

    /// Default segment size: a 10 Hz workout fills one in about 5 hours.
    public static let defaultSegmentBytes = 32 << 20

    public init(path: String, segmentBytes: Int = Journal.defaultSegmentBytes) {
        self.path = path
        self.segmentBytes = segmentBytes
    }

    deinit { if fd >= 0 { close(fd) } }

    var segments: JournalSegments { JournalSegments(path: path) }

    /// True when any segment of the journal is on disk.
    public var exists: Bool { segments.exists }

    /// Appends a record: a fix is buffered (`appendFix`), any other record is durable at once
    /// (`appendNow`).
    public func append(_ record: JournalRecord) {
        switch record {
        case .fix(let fix): appendFix(fix)
        case .heartRate, .heartRateGap, .sensor: appendBuffered(record)
        case .started, .paused, .resumed, .lap, .marker, .stopped, .shutdown, .settings, .recovered, .rebased, .alive, .suspended, .shifted,
             .plan, .planStep: appendNow(record)
        }
    }

    /// Appends a control record durably (flushing buffered fixes first, to keep order). A
    /// `started` record begins a new journal: a leftover file is moved aside, never appended to.
    public func appendNow(_ record: JournalRecord) {
        if case .started = record, fd < 0, exists { _ = keepAside(reason: "leftover", now: 0) }
        record.appendLine(to: &pending)
        flush(alive: nil)
    }

    /// Buffers a fix; it reaches the disk at the next `flush` (fsync'd then). A burst of fixes
    /// is written (not fsync'd) every `writeThreshold` bytes, so the buffer stays small.
    public func appendFix(_ fix: Fix) {
        JournalRecord.fix(fix).appendLine(to: &pending)
        if pending.count >= Journal.writeThreshold { writePending(sync: false) }
    }

    /// Buffers a heart-rate or sensor record like a fix (durable with the next flush).
    public func appendBuffered(_ record: JournalRecord) {
        record.appendLine(to: &pending)
        if pending.count >= Journal.writeThreshold { writePending(sync: false) }
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
        if let alive { JournalRecord.alive(time: alive).appendLine(to: &pending) }
        guard !pending.isEmpty else { return }
        writePending(sync: true)
    }

    /// The periodic flush: writes buffered records (plus an `alive` mark) to the kernel on the
    /// caller's thread, and hands the fsync to `syncer` on a duplicate of the descriptor, so the
    /// event loop never waits for the disk (an fdatasync took 3-11 ms while an import was writing).
    /// `done` runs on the syncer's thread with the sync's error, if any. While one sync is in
    /// flight, the next flush only writes: the one in flight, or the next, covers its bytes.
    public func flushInBackground(alive: Double?, on syncer: DispatchQueue, done: @escaping @Sendable (SystemError?) -> Void) {
        if let alive { JournalRecord.alive(time: alive).appendLine(to: &pending) }
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
            if fd < 0 { try openActiveSegment() }
            let fd = self.fd
            var written = 0
            var failure: SystemError?
            pending.withUnsafeBytes { bytes in
                do throws(SystemError) { try writeAll(fd, bytes, progress: &written) } catch { failure = error }
            }
            if let failure {
                // Whole records or nothing: bytes that went out before the failure (a full disk
                // takes the first 4 KiB) are cut off again, so the retry does not glue its
                // records onto half a record.
                if written > 0, ftruncate(fd, goodSize) != 0 { tornTailAt = goodSize }
                throw SystemError("write \(path)", code: failure.code)
            }
            goodSize += off_t(written)
            if sync { guard fdatasync(fd) == 0 else { throw SystemError.last("fsync \(path)") } }
            // A burst's buffer is not kept (it would stay resident for the rest of the workout).
            pending.removeAll(keepingCapacity: pending.count <= 2 * Journal.writeThreshold)
            lastError = nil
            if goodSize >= off_t(segmentBytes) { seal() }
        } catch let e as SystemError {
            // Keep the records in memory and try again at the next flush.
            lastError = e
            if fd >= 0 { close(fd); fd = -1 }
        } catch {}
    }

    private func openActiveSegment() throws(SystemError) {
        let dir = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        try makeDirectories(dir)
        if let end = tornTailAt {
            guard truncate(path, end) == 0 || errno == ENOENT else { throw SystemError.last("cut the torn end of \(path)") }
            tornTailAt = nil
        }
        // O_NONBLOCK: a FIFO in the journal's place must not block the loop in open().
        var st = stat()
        let opened = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0o600)
        guard opened >= 0 else {
            let e = SystemError.last("open \(path)")
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
                throw SystemError("\(path) is \(fileKind(st.st_mode)), not a regular file", code: EINVAL)
            }
            throw e
        }
        guard fstat(opened, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(opened)
            throw SystemError("\(path) is \(fileKind(st.st_mode)), not a regular file", code: EINVAL)
        }
        fd = opened
        goodSize = st.st_size
    }

    /// The active segment is full: sync it and rename it `path.seg-N`; the next write begins a
    /// new active segment. A crash at any point leaves every record under one of the names
    /// the reader takes in order. When the rename fails, the segment simply grows.
    private func seal() {
        guard fdatasync(fd) == 0 else { lastError = SystemError.last("fsync \(path)"); return }
        // rename, not link + unlink: a crash between those would leave the records under two
        // names, read twice. The number is past every existing one, so nothing is replaced.
        guard rename(path, segments.sealedPath(segments.nextNumber())) == 0 else { return }
        close(fd)
        fd = -1
        segments.syncDirectory()
    }

    /// The name of the journal of a finished workout set aside while it is still unsaved.
    public func setAsidePath(_ id: WorkoutID) -> String { path + ".unsaved-\(id)" }

    /// Every file of a set-aside journal (its segments too), to remove once its save is durable.
    public func setAsideFiles(_ id: WorkoutID) -> [String] { JournalSegments(path: setAsidePath(id)).existingPaths() }

    /// A new workout starts before the last one's save succeeded: write what is buffered, then
    /// move this journal (every segment) to `setAsidePath(id)` (kept until that save is durable,
    /// and restored and saved at the next start-up); the next record begins a new journal.
    @discardableResult
    public func setAside(_ id: WorkoutID) -> String? {
        flush(alive: nil)
        if fd >= 0 { close(fd); fd = -1 }
        tornTailAt = nil
        let target = setAsidePath(id)
        guard exists, segments.move(to: target) else { return nil }
        return target
    }

    /// Journals set aside for unsaved workouts (`setAsidePath`), found in the journal's directory.
    public func setAsidePaths() -> [String] {
        let dir = segments.directory
        let prefix = segments.baseName + ".unsaved-"
        var bases = Set<String>()
        for name in directoryEntries(dir) ?? [] where name.hasPrefix(prefix) {
            // A segment names its journal before the marker (the active one may not exist yet).
            bases.insert(dir + "/" + JournalSegments.journalName(of: name))
        }
        return bases.sorted()
    }

    /// Moves the journal (every segment) to `<journal>.<reason>-<t>` (`-<t>-2`, `-3`, ... when
    /// that name is taken) instead of deleting it: a journal that could not be restored is kept
    /// for a person to look at. Returns the new path.
    @discardableResult
    public func keepAside(reason: String, now: Double) -> String? {
        if fd >= 0 { close(fd); fd = -1 }
        for target in asideNames(reason: reason, now: now) where JournalSegments.isFree(target) {
            return segments.move(to: target) ? target : nil
        }
        return nil
    }

    /// Candidate names for a kept-aside copy, unique even for two restarts in the same second.
    private func asideNames(reason: String, now: Double) -> some Sequence<String> {
        let base = path + ".\(reason)-\(Int(now))"
        return (1...10_000).lazy.map { $0 == 1 ? base : base + "-\($0)" }
    }

    /// Writes `bytes` to a new kept-aside file (never replacing one). Returns its path.
    private func writeAside(_ bytes: [UInt8], reason: String, now: Double) throws(SystemError) -> String {
        for target in asideNames(reason: reason, now: now) {
            let afd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            if afd < 0 {
                if errno == EEXIST { continue }
                throw SystemError.last("create \(target)")
            }
            var failure: SystemError?
            bytes.withUnsafeBytes { raw in
                do throws(SystemError) { try writeAll(afd, raw) } catch { failure = SystemError("write \(target)", code: error.code) }
            }
            if failure == nil, fsync(afd) != 0 { failure = SystemError.last("fsync \(target)") }
            close(afd)
            if let failure { unlink(target); throw failure }
            return target
        }
        throw SystemError("no free name for \(path).\(reason)-*", code: EEXIST)
    }

    /// Removes the journal once the workout's save is durable. Here only the names go: each
    /// file is held open across its unlink, and `release` is given those last descriptors, whose
    /// close frees the files' blocks, so the daemon can close them off the event loop (freeing a
    /// long workout's journal is slow: BENCHMARKS.md, "What was fixed"). A crash before the
    /// close loses nothing: the kernel frees an unlinked file when its process ends.
    public func remove(release: (Int32) -> Void = { _ = close($0) }) {
        for sealed in segments.sealedPaths() {
            let sfd = open(sealed, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            unlink(sealed)
            if sfd >= 0 { release(sfd) }
        }
        let last = fd >= 0 ? fd : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        fd = -1
        pending = []
        tornTailAt = nil
        unlink(path)
        if last >= 0 { release(last) }
    }

    /// What was read back from a journal at start-up.
    public struct Recovery {
        public var records: [JournalRecord]
        /// Where damaged bytes were copied, if any (never deleted silently).
        public var keptAside: String?
        /// Bytes of damaged records: skipped ones and a torn tail.
        public var badBytes: Int
        /// Damaged records skipped before the last good one (each costs itself, not the rest).
        public var skippedRecords = 0
        /// The torn end cut off the active segment (part of `badBytes`).
        public var tornBytes = 0
        /// Why the damaged bytes could not be kept aside (a full disk): the torn tail was cut
        /// off in place all the same (or, if even that failed, nothing is appended until it can be).
        public var asideError: SystemError?
    }

    /// Why the last `recover` returned nil (not a regular file, unreadable).
    public private(set) var readError: SystemError?

    /// Reads every segment in order, in chunks (there is no size limit), keeping every record
    /// that decodes: a bad line is skipped (CRLF line ends are accepted). The bytes of bad lines
    /// are copied aside to `<journal>.damaged-<t>`, and a torn tail (bad bytes after the last
    /// good record of the last segment) is cut so that new records never follow it. Anything
    /// but a regular file is refused without reading.
    public func recover(now: Double) -> Recovery? {
        var records: [JournalRecord] = []
        var kept: [UInt8] = []
        var recovery = Recovery(records: [], keptAside: nil, badBytes: 0)
        let files = segments.existingPaths()
        var tail: (path: String, goodEnd: Int)?
        for (k, file) in files.enumerated() {
            let scan: JournalScanner.Result
            do { scan = try JournalScanner.scan(file) { records.append($0) } } catch {
                readError = error
                return nil
            }
            recovery.badBytes += scan.damagedBytes
            if k == files.count - 1 {
                recovery.skippedRecords += scan.skippedLines
                if scan.tailBytes > 0 {
                    tail = (file, scan.goodEnd)
                    recovery.tornBytes = scan.tailBytes
                }
            } else {
                // A sealed segment was synced whole: bad bytes at its end are damage like any
                // other, skipped (appends go to the active segment).
                recovery.skippedRecords += scan.skippedLines + scan.tailLines
            }
            if kept.count < JournalScanner.maxKeptBytes { kept += scan.kept.prefix(JournalScanner.maxKeptBytes - kept.count) }
        }
        readError = nil
        recovery.records = records
        if !kept.isEmpty {
            do { recovery.keptAside = try writeAside(kept, reason: "damaged", now: now) } catch {
                recovery.asideError = error
            }
        }
        if let tail {
            // Cut to the good part so appends continue after the last good record. With the
            // disk full (no aside copy) the torn bytes are cut all the same: a partial record
            // can never be restored, and records after it would be lost at the next restore.
            if tail.path == path {
                if truncate(path, off_t(tail.goodEnd)) != 0 { tornTailAt = off_t(tail.goodEnd) }
            }
        }
        return recovery
    }
}
