import Dispatch
import Glibc
import WorkoutCore

/// Where bulk work runs: imports, exports and edits, one job at a time on one serial queue,
/// never on the event loop (which only posts the job and, later, the replies). A separate queue
/// from the saver's, so a long import never delays saving the workout just stopped.
final class BulkWorker: Sendable {
    let queue = DispatchQueue(label: "workoutd.bulk", qos: .utility)

    /// Writes all of `bytes` to a descriptor the client passed: a regular file is written at
    /// once; a pipe or socket (export to a pipe) is waited on, at most `stallSeconds` per chunk,
    /// so a reader that stops reading cannot hold the worker for ever.
    static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32, stallSeconds: Int32 = 30) throws {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw ImportReader.Refusal(description: "fstat: " + String(cString: strerror(errno))) }
        let mode = st.st_mode & S_IFMT
        guard mode == S_IFREG || mode == S_IFIFO || mode == S_IFSOCK else {
            throw ImportReader.Refusal(description: "the output is \(ImportReader.kind(st.st_mode) ?? "not writable"), not a file or pipe")
        }
        if mode != S_IFREG { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        var off = 0
        while off < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + off, bytes.count - off)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    if poll(&p, 1, stallSeconds * 1000) == 0 { throw ImportReader.Refusal(description: "the reader stopped reading for \(stallSeconds) s") }
                    continue
                }
                throw ImportReader.Refusal(description: "writing the output: " + String(cString: strerror(errno)))
            }
            off += n
        }
    }
}
