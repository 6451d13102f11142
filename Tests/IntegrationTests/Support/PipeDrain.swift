import Foundation
import Glibc

/// Reads a child's pipe on a thread of its own until end of file, keeping what arrives, so the
/// child never waits on a full pipe and tests read its output whenever they like.
final class PipeDrain: @unchecked Sendable {
    private let lock = NSCondition()
    private var buffer: [UInt8] = []
    private var ended = false

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        let thread = Thread { [self] in
            let fd = handle.fileDescriptor
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                lock.lock()
                if n > 0 { buffer += chunk[0..<n] } else { ended = true }
                lock.broadcast()
                lock.unlock()
                if n <= 0 { break }
            }
            try? handle.close()
        }
        thread.start()
    }

    /// Takes what has arrived. `untilEnd`: first waits (up to 10 s) for end of file, i.e. for
    /// everything the child wrote; otherwise waits a moment for lines still in flight.
    func take(untilEnd: Bool) -> String {
        lock.lock()
        defer { lock.unlock() }
        let deadline = Date().addingTimeInterval(untilEnd ? 10 : 0.2)
        if untilEnd {
            while !ended && lock.wait(until: deadline) {}
        } else {
            _ = lock.wait(until: deadline)
        }
        let text = String(decoding: buffer, as: UTF8.self)
        buffer.removeAll()
        return text
    }
}
