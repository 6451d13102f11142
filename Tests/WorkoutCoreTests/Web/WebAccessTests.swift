import Testing
@testable import WorkoutCore

/// Who may see the pages: Host check, token entry, the session's cookie, 401.
@Suite struct WebAccessTests {
    let access = WebAccess(port: 8765, formToken: "form-secret")
    /// The shell's sessions, as `WebKeys` would have them.
    func isSession(_ v: String) -> Bool { v == "session-1" }

    func request(_ target: String, host: String? = "127.0.0.1:8765", cookie: String? = nil) -> HTTPRequest {
        var h: [HTTPHeader] = []
        if let host { h.append(HTTPHeader("Host", host)) }
        if let cookie { h.append(HTTPHeader("Cookie", cookie)) }
        return HTTPRequest(method: .get, target: target, headers: h)
    }

    func decide(_ r: HTTPRequest) -> WebAccess.Decision { access.decide(r, isSession: isSession) }

    @Test func withoutTokenOrSessionIs401() {
        expectEqual(decide(request("/")), .unauthorized)
        expectEqual(decide(request("/workouts/x", cookie: "workoutd_8765=wrong")), .unauthorized)
        expectEqual(decide(request("/", cookie: "workoutd_9999=session-1")), .unauthorized)
        expectEqual(decide(request("/?token=")), .unauthorized)
    }

    @Test func aTokenIsOfferedForRedemptionWithTheCleanURL() {
        expectEqual(decide(request("/?token=s3cret-token")), .enter(token: "s3cret-token", location: "/"))
        expectEqual(decide(request("/workouts/A?x=time&token=s3cret-token&colour=hr")), .enter(token: "s3cret-token", location: "/workouts/A?x=time&colour=hr"))
        // Issue 45 item 1: the cookie carries a session id, never the token.
        expectEqual(access.setCookie(session: "session-1"), "workoutd_8765=session-1; Path=/; HttpOnly; SameSite=Strict")
    }

    /// Issue 45 item 5: `GET //evil.example/?token=T` redirected to `//evil.example/`, another
    /// server to a browser. Only a path beginning with a single `/` is kept.
    @Test func theRedirectStaysOnTheOrigin() {
        expectEqual(decide(request("//evil.example/?token=T")), .enter(token: "T", location: "/"))
        expectEqual(decide(request("/\\evil.example/x?token=T")), .enter(token: "T", location: "/"))
        expectEqual(decide(request("//evil.example/?a=1&token=T")), .enter(token: "T", location: "/?a=1"))
        expectEqual(decide(request("/records/?token=T")), .enter(token: "T", location: "/records/"))
    }

    @Test func aLiveSessionsCookieLetsIn() {
        expectEqual(decide(request("/records", cookie: "other=1; workoutd_8765=session-1")), .allowed)
        expectEqual(decide(request("/records", cookie: "workoutd_8765=old; workoutd_8765=session-1")), .allowed)
        expectEqual(decide(request("/records", cookie: "workoutd_8765=form-secret")), .unauthorized)
    }

    @Test func foreignHostsAreRefusedBeforeAnythingElse() {
        for host in ["evil.example:8765", "evil.example", "127.0.0.1:8766", "127.0.0.1", "localhost", "localhost.evil.com:8765",
                     "127.0.0.1.evil.com:8765", "10.0.0.1:8765", "[::2]:8765", "0.0.0.0:8765", "", "127.0.0.256:8765", "127.1:8765"] {
            let d = decide(request("/?token=s3cret-token", host: host, cookie: "workoutd_8765=session-1"))
            expectEqual(d, .foreignHost(host), "\(host)")
        }
        expectEqual(decide(request("/", host: nil)), .foreignHost(""))
        for host in ["127.0.0.1:8765", "localhost:8765", "LOCALHOST:8765", "[::1]:8765", "127.5.6.7:8765"] {
            expectEqual(decide(request("/", host: host, cookie: "workoutd_8765=session-1")), .allowed, "\(host)")
        }
        #expect(WebAccess(port: 80, formToken: "f").hostIsLocal("localhost"))
    }

    /// The form's token is its own: neither a session id nor the URL token lets a POST through.
    @Test func formToken() {
        #expect(access.formTokenMatches([("title", "x"), ("token", "form-secret")]))
        #expect(!access.formTokenMatches([("token", "form-secreT")]))
        #expect(!access.formTokenMatches([("token", "session-1")]))
        #expect(!access.formTokenMatches([]))
    }

    @Test func theSecurityHeadersAllowOnlyTheOwnOrigin() {
        let csp = WebAccess.securityHeaders.first { $0.is("content-security-policy") }?.value ?? ""
        #expect(csp.contains("default-src 'self'"))
        #expect(!csp.contains("unsafe-inline"))
        #expect(!csp.contains("http"))
    }
}
