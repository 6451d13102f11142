import Testing
@testable import WorkoutCore

@Suite struct HTTPResponseTests {
    @Test func serializesWithLength() {
        let r = HTTPResponse(status: .ok, headers: [HTTPHeader("Content-Type", "text/plain")], body: Array("hi".utf8))
        #expect(String(decoding: r.serialized(), as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi")
        #expect(String(decoding: r.serialized(method: .head, close: true), as: UTF8.self)
            == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\n")
    }

    @Test func aHeaderValueCannotSplitTheHead() {
        let r = HTTPResponse(status: .seeOther, headers: [HTTPHeader("Location", "/a\r\nSet-Cookie: x=y")])
        let text = String(decoding: r.serialized(), as: UTF8.self)
        #expect(!text.contains("\r\nSet-Cookie"))
    }

    @Test func noBodyFor304() {
        let r = HTTPResponse(status: .notModified, body: Array("x".utf8))
        #expect(String(decoding: r.serialized(), as: UTF8.self) == "HTTP/1.1 304 Not Modified\r\n\r\n")
    }

    @Test func percentDecoding() {
        #expect(PercentEncoding.decode("/a%20b") == "/a b")
        #expect(PercentEncoding.decode("a+b", plusIsSpace: true) == "a b")
        #expect(PercentEncoding.decode("a+b") == "a+b")
        #expect(PercentEncoding.decode("%zz") == nil)
        #expect(PercentEncoding.decode("%4") == nil)
        #expect(PercentEncoding.decode("%00") == nil)
        #expect(PercentEncoding.decode("%ff") == nil)  // not UTF-8
        #expect(PercentEncoding.decode("caf%C3%A9") == "café")
        let form = PercentEncoding.form("token=a%2Bb&title=Long+run&empty=&flag&bad=%zz")
        #expect(form.map(\.name) == ["token", "title", "empty", "flag"])
        #expect(form.map(\.value) == ["a+b", "Long run", "", ""])
        #expect(PercentEncoding.encode("a b/é") == "a%20b%2F%C3%A9")
    }
}
