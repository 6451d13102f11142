import Glibc

/// A regular file read once from front to back through memory the size of a window, for
/// decoders that take the whole file as one buffer: the buffer spans the file (an anonymous
/// mapping: untouched pages cost nothing), `advance(to:)` reads ahead to `window` bytes past
/// the decoder's position and gives back the pages behind it (MADV_DONTNEED). Bytes never read
/// are zeros: a decoder that runs past what was read, or a file cut short meanwhile, sees
/// invalid input, never a fault (a mapped file cut short would raise SIGBUS).
public final class ReadAheadFile: @unchecked Sendable {
    public let path: String
    public let count: Int
    public let window: Int
    private let fd: Int32
    private let base: UnsafeMutableRawPointer?
    /// Bytes read so far, and pages released.
    private var filled = 0, released = 0
    private static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Opens `path` like `readRegularFile` (no FIFO, device or directory; `links: .refuse`
    /// refuses a link) and reads its first `window` bytes.
    public init(_ path: String, window: Int = 48 << 20, links: LinkPolicy = .follow) throws(SystemError) {
        self.path = path
        self.window = window
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | links.openFlag)
        guard fd >= 0 else {
            if errno == ELOOP, case .refuse = links { throw LinkPolicy.linkRefused(path) }
            throw SystemError.last("open \(path)")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else { let e = SystemError.last("stat \(path)"); close(fd); throw e }
        guard (st.st_mode & S_IFMT) == S_IFREG else { close(fd); throw SystemError("\(path) is not a regular file", code: EINVAL) }
        self.fd = fd
        count = Int(st.st_size)
        guard count > 0 else { base = nil; return }
        let p = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard let p, p != MAP_FAILED else { let e = SystemError.last("map \(count) bytes for \(path)"); close(fd); throw e }
        base = p
        try fill(upTo: window)
    }

    deinit {
        if let base { munmap(base, count) }
        close(fd)
    }

    /// The buffer, valid inside `body`.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard let base else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// The decoder is at `offset`: read on to `offset + window`, give back the pages before it.
    public func advance(to offset: Int) {
        try? fill(upTo: offset + window)
        guard let base else { return }
        let end = min(offset, count) / ReadAheadFile.page * ReadAheadFile.page
        if end > released {
            _ = madvise(base + released, end - released, MADV_DONTNEED)
            released = end
        }
    }

    /// Reads the whole file (a decoder that needs it all after all).
    public func readAll() throws(SystemError) { try fill(upTo: count) }

    private func fill(upTo wanted: Int) throws(SystemError) {
        guard let base else { return }
        let end = min(wanted, count)
        while filled < end {
            let n = pread(fd, base + filled, end - filled, off_t(filled))
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError.last("read \(path)")
            }
            if n == 0 { return }  // cut short since: the rest stays zeros
            filled += n
        }
    }
}
