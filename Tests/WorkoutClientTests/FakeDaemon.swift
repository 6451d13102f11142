import Foundation
import TestRequirements
import Glibc
import Synchronization

/// A stand-in for workoutd on a real Unix socket in a short /tmp directory: accepts one
/// connection, records the lines it receives, answers with scripted lines.
final class FakeDaemon: Sendable {
    let dir: String
    let path: String
    let listenFD: Int32
    private let received = Mutex<[String]>([])
    private let finished = Mutex(false)

    /// What to do once connected.
    enum Script: Sendable {
        /// Read one request line, send these lines, close.
        case reply([String])
        /// Read one line, never answer; wait for the client to give up and close.
        case silent
        /// Accept and close at once.
        case hangUp
        /// Read every line until the client closes (a feed socket).
        case readAll
    }

    init(name: String = "control.sock") {
        var template = Array("/tmp/wc.XXXXXX".utf8CString)
        let d = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        dir = String(cString: d!)
        path = dir + "/" + name
        listenFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listenFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        precondition(rc == 0, "bind \(path): \(errno)")
        precondition(listen(listenFD, 4) == 0)
    }

    deinit {
        close(listenFD)
        try? FileManager.default.removeItem(atPath: dir)
    }

    var lines: [String] { received.withLock { $0 } }
    var isFinished: Bool { finished.withLock { $0 } }

    /// Serves one connection on a background thread.
    func start(_ script: Script) {
        let fd = listenFD
        Thread.detachNewThread { [self] in
            let c = accept(fd, nil, nil)
            guard c >= 0 else { return }
            defer { close(c); finished.withLock { $0 = true } }
            var buffer: [UInt8] = []
            func readLine() -> String? {
                while true {
                    if let nl = buffer.firstIndex(of: 0x0A) {
                        let l = String(decoding: buffer[..<nl], as: UTF8.self)
                        buffer.removeFirst(nl + 1)
                        return l
                    }
                    var chunk = [UInt8](repeating: 0, count: 65536)
                    let n = recv(c, &chunk, chunk.count, 0)
                    if n <= 0 { return nil }
                    buffer += chunk[0..<n]
                }
            }
            switch script {
            case .hangUp: return
            case .silent:
                if let l = readLine() { received.withLock { $0.append(l) } }
                while readLine() != nil {}
            case .reply(let replies):
                if let l = readLine() { received.withLock { $0.append(l) } }
                for r in replies {
                    var s = r + "\n"
                    _ = s.withUTF8 { send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            case .readAll:
                while let l = readLine() { received.withLock { $0.append(l) } }
            }
        }
    }

    func waitUntilFinished() {
        pollUntil(seconds: 5, every: 0.01) { isFinished }
    }
}
