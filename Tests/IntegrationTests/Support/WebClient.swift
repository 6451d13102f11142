import Foundation
import Glibc

/// A blocking HTTP/1.1 client over a real loopback TCP connection, for the web server's tests:
/// sends raw bytes (so tests can send what no browser would) and reads one response. Used by one
/// thread at a time.
final class WebClient: @unchecked Sendable {
    let fd: Int32
    var buffer: [UInt8] = []

    struct Response: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    init(port: UInt16, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if rc != 0 { let e = errno; Glibc.close(fd); throw HarnessError.connect(e) }
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws { try sendAll(fd, bytes) }

    /// More bytes; false when the peer closed.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { return false }
            if n < 0 { if errno == EINTR { continue }; throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
    }

    /// Reads one response (its body by Content-Length, else to the end of the connection);
    /// nil when the connection closed before a response.
    func response(head: Bool = false) throws -> Response? {
        while true {
            if let end = find([13, 10, 13, 10]) {
                let headText = String(decoding: buffer[..<end], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst()
                let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
                let headers = lines.compactMap { l -> (String, String)? in
                    guard let c = l.firstIndex(of: ":") else { return nil }
                    return (String(l[..<c]), l[l.index(after: c)...].trimmingCharacters(in: .whitespaces))
                }
                buffer.removeSubrange(..<(end + 4))
                let length = headers.first { $0.0.lowercased() == "content-length" }.flatMap { Int($0.1) }
                if head { return Response(status: status, headers: headers, body: []) }
                if let length {
                    while buffer.count < length { guard try fill() else { break } }
                    let body = Array(buffer.prefix(length))
                    buffer.removeSubrange(..<min(length, buffer.count))
                    return Response(status: status, headers: headers, body: body)
                }
                while try fill() {}
                defer { buffer = [] }
                return Response(status: status, headers: headers, body: buffer)
            }
            guard try fill() else { return nil }
        }
    }

    /// Whether the server closed the connection (reads until end of file or the timeout).
    func isClosed() -> Bool {
        (try? fill()) == false
    }

    /// Reads until `marker` has arrived; returns everything read so far.
    func read(until marker: String) throws -> String {
        let m = Array(marker.utf8)
        while find(m) == nil { guard try fill() else { break } }
        return String(decoding: buffer, as: UTF8.self)
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for i in 0...(buffer.count - pattern.count) where buffer[i] == pattern[0] {
            if Array(buffer[i..<(i + pattern.count)]) == pattern { return i }
        }
        return nil
    }

    /// `get` for `async` tests: suspends until the response begins (a page the daemon draws for a
    /// minute), then reads it.
    static func getSuspending(_ port: UInt16, _ target: String, cookie: String? = nil, timeoutSeconds: Int = 10) async throws -> Response {
        let c = try WebClient(port: port, timeoutSeconds: timeoutSeconds)
        try c.send(request(port, target, cookie: cookie, host: nil))
        _ = await awaitReadable(c.fd, seconds: Double(timeoutSeconds))
        guard let r = try c.response() else { throw HarnessError.closed }
        return r
    }

    static func request(_ port: UInt16, _ target: String, cookie: String?, host: String?) -> String {
        var req = "GET \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        if let cookie { req += "Cookie: \(cookie)\r\n" }
        return req + "\r\n"
    }

    /// One GET with the cookie (or without), on a new connection.
    static func get(_ port: UInt16, _ target: String, cookie: String? = nil, host: String? = nil, timeoutSeconds: Int = 10) throws -> Response {
        let c = try WebClient(port: port, timeoutSeconds: timeoutSeconds)
        try c.send(request(port, target, cookie: cookie, host: host))
        guard let r = try c.response() else { throw HarnessError.closed }
        return r
    }
}
