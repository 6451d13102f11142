import Glibc
import WorkoutCore

/// Reads one file handed over for import, refusing before any read what is not a regular file
/// (a FIFO would block, /dev/zero never ends) or is larger than `maxBytes` (a 2 GB sparse file
/// is refused by its size, not read). Runs on the bulk worker, never on the event loop.
enum ImportReader {
    /// The largest file import reads (a 24-hour 10 Hz NMEA log is about 80 MB).
    static let maxBytes = 512 << 20

    /// Why a file was not read.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// Opens a path the old way (`files` in the request): without blocking on a FIFO's open.
    static func open(path: String, links: LinkPolicy = .follow) throws(Refusal) -> Int32 {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | links.openFlag)
        guard fd >= 0 else {
            if errno == ELOOP, case .refuse = links { throw Refusal(description: "a symbolic link: not followed") }
            throw Refusal(description: "cannot open: " + String(cString: strerror(errno)))
        }
        return fd
    }

    /// What a file of this mode is, in words (`fileKind`), when it is not a regular file.
    static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO (named pipe)"  // the words workoutctl uses for the same refusal
        default: return fileKind(mode)
        }
    }

    /// The size of the regular file open at `fd`, refusing what is not a regular file or is
    /// larger than `limit`.
    static func checkedSize(_ fd: Int32, limit: Int = maxBytes) throws(Refusal) -> Int {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Refusal(description: "fstat: " + String(cString: strerror(errno))) }
        if let kind = kind(st.st_mode) { throw Refusal(description: "\(kind), not a regular file: refused") }
        let size = Int(st.st_size)
        guard size <= limit else { throw Refusal(description: "\(size) bytes, larger than the import limit of \(limit >> 20) MiB") }
        return size
    }

    /// The whole content of the regular file open at `fd` (read from its start; the descriptor
    /// is not closed here).
    static func read(_ fd: Int32, limit: Int = maxBytes) throws(Refusal) -> [UInt8] {
        let size = try checkedSize(fd, limit: limit)
        // Read into uninitialised memory: zeroing it first was a pass over the whole file.
        var failure: Refusal?
        let out = [UInt8](unsafeUninitializedCapacity: size) { buf, count in
            var got = 0
            while got < size {
                let n = pread(fd, buf.baseAddress! + got, size - got, off_t(got))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = Refusal(description: "read: " + String(cString: strerror(errno)))
                    break
                }
                if n == 0 { break }  // shrank meanwhile: keep what was there
                got += n
            }
            count = got
        }
        if let failure { throw failure }
        return out
    }
}

extension ImportReader {
    /// A FIT file for `FITImport`: read a window at a time with `pread` (its descriptor open until
    /// `close`), or a gzip file's FIT inflated in memory.
    enum FITSource: FITByteSource, Sendable {
        case descriptor(Int32, size: Int)
        case bytes(FITBytes)

        var count: Int {
            switch self {
            case .descriptor(_, let size): return size
            case .bytes(let b): return b.count
            }
        }

        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FITError) -> Int {
            switch self {
            case .bytes(let b): return try b.read(into: buffer, at: offset)
            case .descriptor(let fd, let size):
                guard offset < size else { return 0 }
                while true {
                    let n = pread(fd, buffer.baseAddress, min(buffer.count, size - offset), off_t(offset))
                    if n >= 0 { return n }
                    if errno != EINTR { throw .unreadable(offset: offset, why: String(cString: strerror(errno))) }
                }
            }
        }

        /// Closes the descriptor (once measured, or when the import is cancelled).
        func close() {
            if case .descriptor(let fd, _) = self { Glibc.close(fd) }
        }
    }

    /// The regular file open at `fd` as a FIT source when it starts with a FIT header (checked
    /// as `read` checks a file: a regular file within the size limit); nil: not FIT (the
    /// descriptor stays open for `read`).
    static func fit(_ fd: Int32, limit: Int = maxBytes) throws(Refusal) -> FITSource? {
        let size = try checkedSize(fd, limit: limit)
        var head = [UInt8](repeating: 0, count: 12)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 12, 0) }
        guard n == 12, FITMessageDecoder.looksLikeFIT(head) else { return nil }
        return .descriptor(fd, size: size)
    }
}
