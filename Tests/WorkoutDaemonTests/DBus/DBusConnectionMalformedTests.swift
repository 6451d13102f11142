import Foundation
import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// A fake bus that answers the handshake and then misbehaves: the connection fails with a
/// typed error naming the problem, reports it once, and never crashes or hangs the loop.
@Suite struct DBusConnectionMalformedTests {
    /// Serves one client on a thread: `script` gets the accepted socket.
    final class FakeBus: @unchecked Sendable {
        let dir: String
        let path: String
        let listener: Int32
        let thread: Thread

        init(_ script: @escaping @Sendable (Int32) -> Void) throws {
            var template = Array("/tmp/x.XXXXXX".utf8CString)
            dir = String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!)
            path = dir + "/bus"
            let l = try UnixSocket.listen(path: path)
            listener = l
            _ = fcntl(l, F_SETFL, fcntl(l, F_GETFL) & ~O_NONBLOCK)
            thread = Thread {
                let c = accept(l, nil, nil)
                guard c >= 0 else { return }
                script(c)
                close(c)
            }
            thread.start()
        }

        deinit { close(listener); try? FileManager.default.removeItem(atPath: dir) }
    }

    static func readLine(_ fd: Int32) -> String {
        var out: [UInt8] = []
        var b: UInt8 = 0
        while read(fd, &b, 1) == 1 {
            if b == UInt8(ascii: "\n") { break }
            if b != 0 && b != UInt8(ascii: "\r") { out.append(b) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Keeps the connection open until the client closes it (at most 5 s), so what it reports is
    /// the misbehaviour, not the bus going away.
    static func holdUntilClosed(_ fd: Int32) {
        var tv = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var sink = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &sink, sink.count)
            if n > 0 || (n < 0 && errno == EINTR) { continue }
            return
        }
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }

    static func handshake(_ fd: Int32) {
        _ = readLine(fd)  // AUTH EXTERNAL
        send(fd, Array("OK 0123456789abcdef0123456789abcdef\r\n".utf8))
        _ = readLine(fd)  // NEGOTIATE_UNIX_FD
        send(fd, Array("AGREE_UNIX_FD\r\n".utf8))
        _ = readLine(fd)  // BEGIN
        var hello = [UInt8](repeating: 0, count: 128)
        _ = read(fd, &hello, 128)
    }

    private func outcome(_ script: @escaping @Sendable (Int32) -> Void) throws -> (ready: Result<String, DBusError>?, closed: [DBusError]) {
        let bus = try FakeBus(script)
        let loop = try EventLoop()
        let c = try DBusConnection(address: .path(bus.path), loop: loop)
        let ready = Box<Result<String, DBusError>?>(nil)
        let closed = Box<[DBusError]>([])
        c.onReady = { ready.value = $0 }
        c.onClose = { closed.value.append($0) }
        run(loop) { !closed.value.isEmpty }
        run(loop, seconds: 0.1) { false }
        return (ready.value, closed.value)
    }

    @Test func rejectedAuthentication() throws {
        let r = try outcome { fd in _ = Self.readLine(fd); Self.send(fd, Array("REJECTED DBUS_COOKIE_SHA1\r\n".utf8)); Self.holdUntilClosed(fd) }
        #expect(r.closed == [.authenticationFailed("the bus rejected EXTERNAL authentication (it offers: DBUS_COOKIE_SHA1)")])
        guard case .failure = r.ready else { Issue.record("ready: \(String(describing: r.ready))"); return }
    }

    @Test func endlessHandshakeLine() throws {
        let r = try outcome { fd in _ = Self.readLine(fd); Self.send(fd, [UInt8](repeating: 0x41, count: 5000)); Self.holdUntilClosed(fd) }
        #expect(r.closed == [.authenticationFailed("handshake line longer than 1024 bytes")])
    }

    @Test func garbageInsteadOfAMessage() throws {
        let r = try outcome { fd in Self.handshake(fd); Self.send(fd, Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8)); Self.holdUntilClosed(fd) }
        #expect(r.closed == [.malformed(.invalidEndianness(UInt8(ascii: "H")))])
    }

    @Test func hugeDeclaredMessage() throws {
        // A header declaring a 100 MiB body: refused from its 16 bytes, nothing allocated for it.
        let r = try outcome { fd in
            Self.handshake(fd)
            Self.send(fd, [0x6C, 2, 0, 1, 0, 0, 0x40, 0x06, 1, 0, 0, 0, 8, 0, 0, 0])
            Self.holdUntilClosed(fd)
        }
        #expect(r.closed == [.malformed(.messageTooLong(0x0640_0000 + 24, limit: 1 << 24))])
    }

    @Test func messageAnnouncingDescriptorsThatNeverCame() throws {
        let r = try outcome { fd in
            Self.handshake(fd)
            var reply = DBusMessage(kind: .methodReturn)
            reply.replySerial = 1
            reply.body = [.unixFD(0)]
            reply.unixFDCount = 1
            Self.send(fd, try! reply.encoded(serial: 1))
            Self.holdUntilClosed(fd)
        }
        #expect(r.closed == [.disconnected("a message announced 1 descriptors but 0 arrived")])
    }
}
