import Testing
@testable import WorkoutCore

@Suite struct HTTPResponseTests {
    @Test func serializesWithLength() {
        let r = HTTPResponse(status: .ok, headers: [HTTPHeader("Content-Type", "text/plain")], body: Array("hi".utf8))
        expectEqual(String(decoding: r.serialized(), as: UTF8.self), "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi")
        expectEqual(String(decoding: r.serialized(method: .head, close: true), as: UTF8.self),
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\n")
    }

    @Test func aHeaderValueCannotSplitTheHead() {
        let r = HTTPResponse(status: .seeOther, headers: [HTTPHeader("Location", "/a\r\nSet-Cookie: x=y")])
        let text = String(decoding: r.serialized(), as: UTF8.self)
        #expect(!text.contains("\r\nSet-Cookie"))
    }

    @Test func noBodyFor304() {
        let r = HTTPResponse(status: .notModified, body: Array("x".utf8))
        expectEqual(String(decoding: r.serialized(), as: UTF8.self), "HTTP/1.1 304 Not Modified\r\n\r\n")
    }

    @Test func percentDecoding() {
        expectEqual(PercentEncoding.decode("/a%20b"), "/a b")
        expectEqual(PercentEncoding.decode("a+b", plusIsSpace: true), "a b")
        expectEqual(PercentEncoding.decode("a+b"), "a+b")
        expectNil(PercentEncoding.decode("%zz"))
        expectNil(PercentEncoding.decode("%4"))
        expectNil(PercentEncoding.decode("%00"))
        expectNil(PercentEncoding.decode("%ff"))  // not UTF-8
        expectEqual(PercentEncoding.decode("caf%C3%A9"), "café")
        let form = PercentEncoding.form("token=a%2Bb&title=Long+run&empty=&flag&bad=%zz")
        expectEqual(form.map(\.name), ["token", "title", "empty", "flag"])
        expectEqual(form.map(\.value), ["a+b", "Long run", "", ""])
        expectEqual(PercentEncoding.encode("a b/é"), "a%20b%2F%C3%A9")
    }
}
