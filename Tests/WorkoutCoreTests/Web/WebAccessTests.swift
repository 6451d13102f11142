import Testing
@testable import WorkoutCore

/// Who may see the pages: Host check, token entry, cookie, 401.
@Suite struct WebAccessTests {
    let access = WebAccess(token: "s3cret-token", port: 8765)

    func request(_ target: String, host: String? = "127.0.0.1:8765", cookie: String? = nil) -> HTTPRequest {
        var h: [HTTPHeader] = []
        if let host { h.append(HTTPHeader("Host", host)) }
        if let cookie { h.append(HTTPHeader("Cookie", cookie)) }
        return HTTPRequest(method: .get, target: target, headers: h)
    }

    @Test func withoutTokenOrCookieIs401() {
        expectEqual(access.decide(request("/")), .unauthorized)
        expectEqual(access.decide(request("/workouts/x", cookie: "workoutd_8765=wrong")), .unauthorized)
        expectEqual(access.decide(request("/", cookie: "workoutd_9999=s3cret-token")), .unauthorized)
        expectEqual(access.decide(request("/?token=wrong")), .unauthorized)
        expectEqual(access.decide(request("/?token=")), .unauthorized)
    }

    @Test func theTokenEntersAndRedirectsToTheCleanURL() {
        expectEqual(access.decide(request("/?token=s3cret-token")), .enter(location: "/"))
        expectEqual(access.decide(request("/workouts/A?x=time&token=s3cret-token&colour=hr")), .enter(location: "/workouts/A?x=time&colour=hr"))
        expectEqual(access.setCookie, "workoutd_8765=s3cret-token; Path=/; HttpOnly; SameSite=Strict")
    }

    /// Issue 45 item 5: `GET //evil.example/?token=T` redirected to `//evil.example/`, another
    /// server to a browser. Only a path beginning with a single `/` is kept.
    @Test func theRedirectStaysOnTheOrigin() {
        expectEqual(access.decide(request("//evil.example/?token=s3cret-token")), .enter(location: "/"))
        expectEqual(access.decide(request("/\\evil.example/x?token=s3cret-token")), .enter(location: "/"))
        expectEqual(access.decide(request("//evil.example/?a=1&token=s3cret-token")), .enter(location: "/?a=1"))
        expectEqual(access.decide(request("/records/?token=s3cret-token")), .enter(location: "/records/"))
    }

    @Test func theCookieLetsIn() {
        expectEqual(access.decide(request("/records", cookie: "other=1; workoutd_8765=s3cret-token")), .allowed)
    }

    @Test func foreignHostsAreRefusedBeforeAnythingElse() {
        for host in ["evil.example:8765", "evil.example", "127.0.0.1:8766", "127.0.0.1", "localhost", "localhost.evil.com:8765",
                     "127.0.0.1.evil.com:8765", "10.0.0.1:8765", "[::2]:8765", "0.0.0.0:8765", "", "127.0.0.256:8765", "127.1:8765"] {
            let d = access.decide(request("/?token=s3cret-token", host: host, cookie: "workoutd_8765=s3cret-token"))
            expectEqual(d, .foreignHost(host), "\(host)")
        }
        expectEqual(access.decide(request("/", host: nil)), .foreignHost(""))
        for host in ["127.0.0.1:8765", "localhost:8765", "LOCALHOST:8765", "[::1]:8765", "127.5.6.7:8765"] {
            expectEqual(access.decide(request("/", host: host, cookie: "workoutd_8765=s3cret-token")), .allowed, "\(host)")
        }
        #expect(WebAccess(token: "t", port: 80).hostIsLocal("localhost"))
    }

    @Test func formToken() {
        #expect(access.formTokenMatches([("title", "x"), ("token", "s3cret-token")]))
        #expect(!access.formTokenMatches([("token", "s3cret-tokeN")]))
        #expect(!access.formTokenMatches([]))
    }

    @Test func theSecurityHeadersAllowOnlyTheOwnOrigin() {
        let csp = WebAccess.securityHeaders.first { $0.is("content-security-policy") }?.value ?? ""
        #expect(csp.contains("default-src 'self'"))
        #expect(!csp.contains("unsafe-inline"))
        #expect(!csp.contains("http"))
    }
}
