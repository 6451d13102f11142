import Glibc

/// Where output goes: stdout, stderr, and whether stdout is a terminal (for `watch`).
/// Injectable so that tests capture what a command printed.
public struct Console: Sendable {
    public var out: @Sendable (String) -> Void
    public var err: @Sendable (String) -> Void
    public var isTerminal: Bool
    /// The terminal's width, asked again on every redraw (nil: unknown, e.g. in tests).
    public var columns: @Sendable () -> Int?
    /// The descriptor behind `out` when it is the process's stdout (1): `export` lets the daemon
    /// write straight into it when it is a regular file. nil for captured output.
    public var outDescriptor: Int32? = nil

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, isTerminal: Bool,
                columns: @escaping @Sendable () -> Int? = { nil }) {
        self.out = out; self.err = err; self.isTerminal = isTerminal; self.columns = columns
    }

    /// The process's standard output and error (unbuffered writes: output appears at once,
    /// which `watch` and `simulate` need).
    public static var standard: Console {
        var c = Console(out: { writeAll(1, $0) }, err: { writeAll(2, $0) }, isTerminal: isatty(1) == 1, columns: {
            var ws = winsize()
            guard ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 else { return nil }
            return Int(ws.ws_col)
        })
        c.outDescriptor = 1
        return c
    }

    static func writeAll(_ fd: Int32, _ s: String) {
        var s = s
        s.withUTF8 { buf in
            var off = 0
            while off < buf.count {
                let n = write(fd, buf.baseAddress! + off, buf.count - off)
                if n < 0 { if errno == EINTR { continue }; return }
                off += n
            }
        }
    }
}
