import Glibc

/// SIGINT/SIGTERM as a readable pipe (the self-pipe trick), so that `watch` and `simulate` can
/// wait for the socket and for Ctrl-C in one `poll` and end cleanly (newline, exit 0).
public enum Interrupts {
    /// Written only by `install()` before the handler is armed; read by the handler.
    nonisolated(unsafe) static var writeFD: Int32 = -1
    nonisolated(unsafe) static var readFD: Int32 = -1

    /// Installs the handlers (once) and returns the pipe's read end.
    public static func install() -> Int32 {
        if readFD >= 0 { return readFD }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return -1 }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        readFD = fds[0]
        writeFD = fds[1]
        var sa = sigaction()
        sa.__sigaction_handler.sa_handler = { _ in
            var b: UInt8 = 1
            _ = write(Interrupts.writeFD, &b, 1)
        }
        sigemptyset(&sa.sa_mask)
        sa.sa_flags = 0  // no SA_RESTART: blocking calls return EINTR
        sigaction(SIGINT, &sa, nil)
        sigaction(SIGTERM, &sa, nil)
        return readFD
    }

    /// Whether a signal arrived (drains the pipe).
    public static func pending() -> Bool {
        guard readFD >= 0 else { return false }
        var b = [UInt8](repeating: 0, count: 16)
        return read(readFD, &b, b.count) > 0
    }
}
