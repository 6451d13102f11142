import Glibc
import WorkoutCore

/// The journal of the workout in progress (`$XDG_STATE_HOME/workoutd/current.journal`):
/// control records are written and fsync'd at once; fixes are buffered and flushed with an
/// `alive` record and fsync at least every `flushSeconds`. Appending only, one checksummed line
/// per record, so a torn tail loses at most the last partial record.
public final class Journal {
    public let path: String
    private var fd: Int32 = -1
    private var pending = ""
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
        case .heartRate, .heartRateGap: appendBuffered(record)
        case .started, .paused, .resumed, .lap, .marker, .stopped, .recovered, .rebased, .alive: appendNow(record)
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

    /// Buffers a heart-rate record like a fix (durable with the next flush).
    public func appendBuffered(_ record: JournalRecord) {
        pending += record.encodeLine()
        if pending.utf8.count >= Journal.writeThreshold { writePending(sync: false) }
    }

    /// Buffered bytes that make `appendFix` write before the next flush.
    static let writeThreshold = 64 * 1024

    public var hasPending: Bool { !pending.isEmpty }

    /// Writes buffered records (plus an `alive` mark) and fsyncs.
    public func flush(alive: Double?) {
        if let alive { pending += JournalRecord.alive(time: alive).encodeLine() }
        guard !pending.isEmpty else { return }
        writePending(sync: true)
    }

    private func writePending(sync: Bool) {
        do {
            if fd < 0 {
                let dir = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
                try makeDirectories(dir)
                fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
                guard fd >= 0 else { throw SystemError.last("open \(path)") }
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

    /// Moves the journal to `<journal>.<reason>-<n>` instead of deleting it (a journal that could
    /// not be restored is kept for a person to look at). Returns the new path.
    @discardableResult
    public func keepAside(reason: String, now: Double) -> String? {
        if fd >= 0 { close(fd); fd = -1 }
        var n = Int(now)
        var target = path + ".\(reason)-\(n)"
        while access(target, F_OK) == 0 { n += 1; target = path + ".\(reason)-\(n)" }
        return rename(path, target) == 0 ? target : nil
    }

    /// Removes the journal once the workout's save is durable. Here only its name goes: the
    /// file is held open across the unlink, and `release` is given that last descriptor, whose
    /// close frees the file's blocks. After a 24-hour workout the journal is ~8 MB and freeing
    /// it took 3-5 ms on ext4, so the daemon closes it off the event loop. A crash before the
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
    }

    /// Reads records up to the first bad line; the rest is moved aside to `<journal>.damaged-<t>`.
    public func recover(now: Double) -> Recovery? {
        guard let bytes = try? readFile(path) else { return nil }
        var records: [JournalRecord] = []
        var goodEnd = 0
        var offset = 0
        while offset < bytes.count {
            guard let nl = bytes[offset...].firstIndex(of: 10) else { break }  // torn last line
            let line = String(decoding: bytes[offset..<nl], as: UTF8.self)
            guard let r = JournalRecord.decodeLine(Substring(line)) else { break }
            records.append(r)
            offset = nl + 1
            goodEnd = offset
        }
        var aside: String?
        if goodEnd < bytes.count {
            let target = path + ".damaged-\(Int(now))"
            if (try? AtomicFile.write(Array(bytes[goodEnd...]), to: target)) != nil {
                aside = target
                // Truncate to the good part so appends continue after the last good record.
                _ = truncate(path, off_t(goodEnd))
            }
        }
        return Recovery(records: records, keptAside: aside, badBytes: bytes.count - goodEnd)
    }
}
