import Testing
@testable import WorkoutCore

/// The request parser: requests whole and split at every byte, pipelining, and every refusal
/// with the status it gets.
@Suite struct HTTPRequestParserTests {
    static func parse(_ text: String, limits: HTTPLimits = .default) -> [HTTPRequestParser.Step] {
        var p = HTTPRequestParser(limits: limits)
        p.append(Array(text.utf8))
        var out: [HTTPRequestParser.Step] = []
        while true {
            let s = p.next()
            out.append(s)
            switch s {
            case .request: continue
            case .needMore, .failure: return out
            }
        }
    }

    static func failure(_ text: String, limits: HTTPLimits = .default) -> HTTPParseError? {
        if case .failure(let e)? = parse(text, limits: limits).last { return e }
        return nil
    }

    @Test func readsAGetRequest() throws {
        let steps = Self.parse("GET /workouts/20261121T093000Z-3f9a?x=time HTTP/1.1\r\nHost: 127.0.0.1:8765\r\nCookie: a=b\r\n\r\n")
        expectEqual(steps.count, 2)
        guard case .request(let r) = steps[0] else { Issue.record("no request: \(steps)"); return }
        expectEqual(r.method, .get)
        expectEqual(r.path, "/workouts/20261121T093000Z-3f9a")
        expectEqual(r.query, "x=time")
        expectEqual(r.version, .http11)
        expectEqual(r.header("HOST"), "127.0.0.1:8765")
        expectEqual(r.header("cookie"), "a=b")
        #expect(r.keepsAlive)
        expectEqual(steps[1], .needMore)
    }

    @Test func readsAPostBodyAndPipelinedRequests() {
        let text = "POST /workouts/X HTTP/1.1\r\nHost: localhost:1\r\nContent-Length: 9\r\n\r\ntoken=abcGET / HTTP/1.0\n\n"
        let steps = Self.parse(text)
        guard steps.count == 3, case .request(let post) = steps[0], case .request(let get) = steps[1] else { Issue.record("\(steps)"); return }
        expectEqual(post.method, .post)
        expectEqual(post.body, Array("token=abc".utf8))
        #expect(get.method == .get && get.version == .http10 && !get.keepsAlive)
    }

    /// The same requests fed in pieces of every size give the same requests.
    @Test(arguments: [1, 2, 3, 5, 7, 16, 64]) func chunkingDoesNotMatter(chunk: Int) {
        let text = Array("GET /a HTTP/1.1\r\nHost: [::1]:9\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc\r\nGET /c HTTP/1.1\r\nHost: y\r\nConnection: close\r\n\r\n".utf8)
        var p = HTTPRequestParser()
        var got: [HTTPRequest] = []
        var k = 0
        while k < text.count {
            p.append(Array(text[k..<min(k + chunk, text.count)]))
            k += chunk
            while case .request(let r) = p.next() { got.append(r) }
        }
        expectEqual(got.map(\.target), ["/a", "/b", "/c"])
        expectEqual(got[1].body, Array("abc".utf8))
        #expect(!got[2].keepsAlive)
        #expect(p.pendingBytes == 0 && !p.isMidRequest)
    }

    @Test func aPartialRequestIsMidRequest() {
        var p = HTTPRequestParser()
        #expect(!p.isMidRequest)
        p.append(Array("GET / HT".utf8))
        expectEqual(p.next(), .needMore)
        #expect(p.isMidRequest)
    }

    @Test func badRequestLines() {
        for line in ["GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "GET http://evil/ HTTP/1.1\r\n\r\n", "G(T / HTTP/1.1\r\n\r\n",
                     "GET / FTP/1.0\r\n\r\n", "GET /a b HTTP/1.1\r\n\r\n", "GET /\u{01} HTTP/1.1\r\n\r\n", "\u{16}\u{03}\u{01}\u{02}\u{00}\r\n\r\n",
                     "GET /é HTTP/1.1\r\n\r\n"] {
            let e = Self.failure(line)
            expectEqual(e?.status, .badRequest, "\(line.debugDescription): \(String(describing: e))")
        }
        expectEqual(Self.failure("GET / HTTP/2.0\r\n\r\n"), .unsupportedVersion("HTTP/2.0"))
        expectEqual(Self.failure("GET / HTTP/2.0\r\n\r\n")?.status, .httpVersionNotSupported)
    }

    @Test func limits() {
        let small = HTTPLimits(requestLineBytes: 32, headerBytes: 64, headerCount: 3, bodyBytes: 10)
        expectEqual(Self.failure("GET /" + String(repeating: "a", count: 40) + " HTTP/1.1\r\n", limits: small), .requestLineTooLong(limit: 32))
        // Without any line end, the limit is found as soon as it is passed.
        expectEqual(Self.failure("GET /" + String(repeating: "a", count: 100), limits: small)?.status, .uriTooLong)
        expectEqual(Self.failure("GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + String(repeating: "v", count: 80) + "\r\n\r\n", limits: small)?.status, .requestHeaderFieldsTooLarge)
        expectEqual(Self.failure("GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + String(repeating: "v", count: 80), limits: small)?.status, .requestHeaderFieldsTooLarge)
        expectEqual(Self.failure("GET / HTTP/1.1\r\nHost: x\r\na: 1\r\nb: 2\r\nc: 3\r\n\r\n", limits: small), .tooManyHeaders(limit: 3))
        expectEqual(Self.failure("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", limits: small), .bodyTooLarge(length: 11, limit: 10))
    }

    @Test func badHeaders() {
        expectEqual(Self.failure("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n")?.status, .badRequest)
        expectEqual(Self.failure("GET / HTTP/1.1\r\nHost : x\r\n\r\n")?.status, .badRequest)
        expectEqual(Self.failure("GET / HTTP/1.1\r\nNoColon\r\n\r\n")?.status, .badRequest)
        expectEqual(Self.failure("GET / HTTP/1.1\r\nHost: a\u{00}b\r\n\r\n")?.status, .badRequest)
        expectEqual(Self.failure("GET / HTTP/1.1\r\n\r\n"), .missingHost)
        expectEqual(Self.failure("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), .missingHost)
        expectEqual(Self.failure("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1, 2\r\n\r\n")?.status, .badRequest)
        expectEqual(Self.failure("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n")?.status, .badRequest)
        expectEqual(Self.failure("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n")?.status, .badRequest)
        expectEqual(Self.failure("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")?.status, .notImplemented)
        // Agreeing repeated lengths are one length.
        guard case .request(let r)? = Self.parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2, 2\r\n\r\nok").first else { Issue.record("refused"); return }
        expectEqual(r.body, Array("ok".utf8))
    }

    @Test func aFailureIsFinal() {
        var p = HTTPRequestParser()
        p.append(Array("BAD\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        guard case .failure = p.next() else { Issue.record("accepted"); return }
        p.append(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        guard case .failure = p.next() else { Issue.record("recovered after a failure"); return }
    }

    @Test func otherMethodsAreRead() {
        guard case .request(let r)? = Self.parse("DELETE /workouts/x HTTP/1.1\r\nHost: a\r\n\r\n").first else { Issue.record("refused"); return }
        expectEqual(r.method, .other("DELETE"))
    }

    /// Random bytes never crash the parser and never make it hold more than its limits.
    @Test(arguments: 1...50) func randomInputIsRefusedOrRead(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let limits = HTTPLimits(requestLineBytes: 64, headerBytes: 128, headerCount: 4, bodyBytes: 32)
        var p = HTTPRequestParser(limits: limits)
        let alphabet = Array("GET POST / HTTP/1.1\r\n:Host Content-Length 0123456789abc \t%".utf8)
        for _ in 0..<200 {
            let n = Int.random(in: 1...20, using: &rng)
            p.append((0..<n).map { _ in Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng) })
            loop: while true {
                switch p.next() {
                case .request: continue
                case .needMore: break loop
                case .failure: return
                }
            }
            expectLessOrEqual(p.pendingBytes, 64 + 128 + 32 + 2)
        }
    }
}
