import Foundation
import Glibc
import Testing
import TestRequirements
@testable import WorkoutDaemon

/// The web pages' server in the daemon over real loopback TCP: who may look (token, cookie,
/// Host), the pages and downloads, the edit form, and the attacks a server meets (slowloris,
/// huge headers, bad request lines, too many connections). The daemon is embedded, its time
/// limits shortened to 1 s (`DaemonPorts.webLimits`), so a read waiting for one blocks about a
/// second at most; the slow client keeps its pace with `Pace`.
@Suite(.serialized) struct WebServerTests {
    /// `seconds`: every time limit of the web server; `connections`: at most this many at once.
    static func daemon(seconds: Double = 1, connections: Int? = nil) throws -> (EmbeddedDaemon, port: UInt16, token: String) {
        let d = try EmbeddedDaemon(config: #"{"web": {"listen": "127.0.0.1:0"}, "feeds": []}"#)
        d.ports.webLimits.requestSeconds = seconds
        d.ports.webLimits.idleSeconds = seconds
        d.ports.webLimits.stallSeconds = seconds
        d.ports.webLimits.unprovenSeconds = seconds
        if let connections { d.ports.webLimits.maxConnections = connections }
        try d.start()
        let r = try d.ctl(["open", "--print"])
        guard r.status == 0, let url = URLComponents(string: r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
              let port = url.port, let token = url.queryItems?.first(where: { $0.name == "token" })?.value else {
            throw HarnessError.notReady("open --print: \(r.stdout) \(r.stderr)")
        }
        return (d, UInt16(port), token)
    }

    /// The token of a new `workoutctl open --print` (one is single-use).
    static func freshToken(_ d: some DaemonUnderTest) throws -> String {
        let r = try d.ctl(["open", "--print"])
        guard let token = URLComponents(string: r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))?.queryItems?.first(where: { $0.name == "token" })?.value else {
            throw HarnessError.notReady("open --print: \(r.stdout) \(r.stderr)")
        }
        return token
    }

    /// Redeems `token` for a session: the `Cookie` header's `name=value`.
    static func enter(_ port: UInt16, _ token: String) throws -> String {
        let enter = try WebClient.get(port, "/?token=\(token)")
        guard enter.status == 303, let cookie = enter.header("Set-Cookie") else { throw HarnessError.notReady("enter: \(enter.status)") }
        return String(cookie.prefix { $0 != ";" })
    }

    /// The edit form's token, as a page of the workout carries it.
    static func formToken(_ page: String) -> String? {
        guard let r = page.range(of: #"name="token" value=""#) else { return nil }
        return String(page[r.upperBound...].prefix { $0 != "\"" })
    }

    static func importSample(_ d: some DaemonUnderTest) throws -> String {
        try d.importRun(name: "run", start: 1_795_000_000, points: 600, winding: true)
    }

    @Test func onlyTheOwnerMayLook() async throws {
        let (d, port, token) = try Self.daemon()
        defer { d.stop() }
        // Without token or cookie: 401 and nothing else.
        let none = try WebClient.get(port, "/")
        #expect(none.status == 401)
        #expect(!none.text.contains("<html"))
        #expect(try WebClient.get(port, "/workouts/20261121T093000Z-3f9a.gpx").status == 401)
        #expect(try WebClient.get(port, "/?token=not-the-token").status == 401)
        #expect(try WebClient.get(port, "/", cookie: "workoutd_\(port)=wrong").status == 401)
        // The token enters: a cookie and a redirect to the clean URL.
        let enter = try WebClient.get(port, "/records?token=\(token)")
        #expect(enter.status == 303)
        #expect(enter.header("Location") == "/records")
        let cookie = try #require(enter.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        let pair = String(cookie.prefix { $0 != ";" })
        let page = try WebClient.get(port, "/records", cookie: pair)
        #expect(page.status == 200)
        #expect(page.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
        // A foreign Host is refused, token or not (DNS rebinding).
        for host in ["evil.example:\(port)", "evil.example", "127.0.0.1:\(port + 1)", "localhost.evil.example:\(port)"] {
            #expect(try WebClient.get(port, "/?token=\(token)", cookie: pair, host: host).status == 403, "\(host)")
        }
        #expect(try WebClient.get(port, "/", cookie: pair, host: "localhost:\(port)").status == 200)
        // Issue 45 item 1: the cookie is a session id, not the token; the token was single-use.
        #expect(!cookie.contains(token))
        #expect(try WebClient.get(port, "/?token=\(token)").status == 401)
        #expect(try WebClient.get(port, "/", cookie: "workoutd_\(port)=\(token)").status == 401)
        // Issue 45 item 5: a protocol-relative target is no way out (it was `Location: //evil.example/`).
        let away = try WebClient.get(port, "//evil.example/?token=\(try Self.freshToken(d))")
        #expect(away.status == 303 && away.header("Location") == "/", "\(away.status) \(away.header("Location") ?? "-")")
        // No secret is written to a file; a restart ends every session and token.
        #expect(!FileManager.default.fileExists(atPath: d.dir + "/r/workoutd/web-token"))
        let fresh = try Self.freshToken(d)
        d.stop()
        try d.start()
        let url = try #require(URLComponents(string: try d.ctl(["open", "--print"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let again = UInt16(try #require(url.port)), session = pair.split(separator: "=").last ?? ""
        #expect(try WebClient.get(again, "/records", cookie: "workoutd_\(again)=\(session)").status == 401, "a session of before the restart")
        #expect(try WebClient.get(again, "/?token=\(fresh)").status == 401, "a token of before the restart")
        #expect(try WebClient.get(again, "/?token=\(try Self.freshToken(d))").status == 303)
    }

    @Test func pagesDownloadsAndTheEditForm() async throws {
        let (d, port, token) = try Self.daemon()
        defer { d.stop() }
        let id = try Self.importSample(d)
        let cookie = try Self.enter(port, token)
        for path in ["/", "/records", "/calendar", "/live", "/workouts/\(id)", "/workouts/\(id)?x=time", "/static/app.css", "/static/app.js", "/favicon.ico"] {
            let r = try WebClient.get(port, path, cookie: cookie)
            #expect(r.status == 200, "\(path): \(r.status) \(r.text.prefix(200))")
        }
        let page = try WebClient.get(port, "/workouts/\(id)", cookie: cookie).text
        let form = try #require(Self.formToken(page))
        #expect(form != token && !cookie.contains(form), "the form's token is its own")
        for chart in ["route", "elevation", "pace"] { #expect(page.contains("data-chart=\"\(chart)\""), "\(chart)") }
        let gpx = try WebClient.get(port, "/workouts/\(id).gpx", cookie: cookie)
        #expect(gpx.status == 200 && gpx.text.contains("<trkpt"))
        #expect(gpx.header("Content-Disposition")?.contains("\(id).gpx") == true)
        let fit = try WebClient.get(port, "/workouts/\(id).fit", cookie: cookie)
        #expect(fit.status == 200 && fit.body.count > 100 && Array(fit.body[8..<12]) == Array(".FIT".utf8))
        #expect(try WebClient.get(port, "/workouts/20200101T000000Z-0000", cookie: cookie).status == 404)
        #expect(try WebClient.get(port, "/nothing-here", cookie: cookie).status == 404)

        // A change is a POST carrying the token: without it, refused; with it, made.
        func post(_ body: String) throws -> WebClient.Response {
            let c = try WebClient(port: port)
            try c.send("POST /workouts/\(id) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            return try #require(try c.response())
        }
        #expect(try post("activity=hiking").status == 403)
        #expect(try post("token=wrong&activity=hiking").status == 403)
        #expect(try post("token=\(token)&activity=hiking").status == 403)
        #expect(try post("token=\(form)&activity=flying").status == 422)
        #expect(try post("token=\(form)&effort=11").status == 422)
        let done = try post("token=\(form)&activity=hiking&title=Hills+%26+lake&gear=Trail+shoes&effort=7&notes=Windy")
        #expect(done.status == 303 && done.header("Location") == "/workouts/\(id)")
        let shown = (try d.request(#"{"command":"show","id":"\#(id)"}"#))["workout"] as? [String: Any]
        #expect(shown?["activity"] as? String == "hiking")
        #expect(shown?["title"] as? String == "Hills & lake" && shown?["gear"] as? String == "Trail shoes")
        #expect(shown?["effort"] as? Int == 7 && shown?["notes"] as? String == "Windy")
        #expect(try WebClient.get(port, "/workouts/\(id)", cookie: cookie).text.contains("<h1>Hills &amp; lake</h1>"))
        // GET on the form's address shows the page; other methods are refused.
        let c = try WebClient(port: port)
        try c.send("DELETE /workouts/\(id) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n\r\n")
        #expect(try c.response()?.status == 405)
    }

    @Test func malformedAndSlowClientsGet4xxAndAreClosed() async throws {
        let (d, port, _) = try Self.daemon()
        defer { d.stop() }
        func exchange(_ raw: String) throws -> (Int?, closed: Bool) {
            let c = try WebClient(port: port)
            try c.send(raw)
            let r = try c.response()
            return (r?.status, c.isClosed())
        }
        // Bad request lines.
        for raw in ["GARBAGE\r\n\r\n", "GET /\r\n\r\n", "GET http://evil.example/ HTTP/1.1\r\nHost: x\r\n\r\n", "\u{16}\u{03}\u{01}\u{00}\u{a5}\u{01}\r\n\r\n"] {
            let (status, closed) = try exchange(raw)
            #expect(status == 400 && closed, "\(raw.debugDescription): \(String(describing: status))")
        }
        #expect(try exchange("GET / HTTP/3.0\r\nHost: x\r\n\r\n").0 == 505)
        // A request line over 8 KiB, headers over 16 KiB or over 64 fields.
        #expect(try exchange("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\r\n").0 == 414)
        #expect(try exchange("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 20000) + "\r\n\r\n").0 == 431)
        #expect(try exchange("GET / HTTP/1.1\r\nHost: x\r\n" + (0..<70).map { "X-\($0): y\r\n" }.joined() + "\r\n").0 == 431)
        // A body larger than the form's limit, and a chunked one.
        #expect(try exchange("POST /workouts/x HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n").0 == 413)
        #expect(try exchange("POST /workouts/x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n").0 == 501)
        // Slowloris: a request that never ends gets 408 after the limit (1 s here) and is closed.
        let slow = try WebClient(port: port)
        let t0 = Date()
        try slow.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        var trickle = Pace(every: 0.4)
        for _ in 0..<3 { await trickle.nextSuspending(); try? slow.send("X-Slow: 1\r\n") }
        let timedOut = try slow.response()
        #expect(timedOut?.status == 408)
        #expect(slow.isClosed())
        // A hang guard, not a timing: the 408 proves the limit fired (CI's shards measured > 5 s).
        #expect(Date().timeIntervalSince(t0) < 30)
        // A connection that sends nothing is closed when idle.
        let idle = try WebClient(port: port)
        #expect(idle.isClosed())
        // The daemon is still fine.
        #expect((try d.request(#"{"command":"status"}"#))["ok"] as? Bool == true)
    }

    @Test func connectionsAreCapped() async throws {
        // The held connections must outlast the test's own delays: with a 5 s idle limit, a
        // whole-suite `swift test` on 2 cores resumed this test after they had been closed, so
        // the extra connection found room (no 503, then nothing: 19.8 s).
        let (d, port, _) = try Self.daemon(seconds: 60, connections: 4)
        defer { d.stop() }
        var held: [WebClient] = []
        for _ in 0..<4 {
            let c = try WebClient(port: port)
            try c.send("GET / HTTP/1.1\r\n")  // mid-request: held open
            held.append(c)
        }
        // The kernel's accept queue is in order: the daemon takes the four before this one.
        let extra = try WebClient(port: port)
        let r = try extra.response()
        #expect(r?.status == 503)
        held.removeAll()
        // Room again once the daemon has seen them close (503 until then).
        #expect(pollUntil(seconds: 5) { (try? WebClient.get(port, "/").status) == 401 })
    }

    @Test func liveEventsStream() async throws {
        let (d, port, token) = try Self.daemon()
        defer { d.stop() }
        let c = try WebClient(port: port)
        try c.send("GET /live/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(try Self.enter(port, token))\r\n\r\n")
        let head = try #require(try c.response(head: true))
        #expect(head.status == 200 && head.header("Content-Type") == "text/event-stream")
        let first = try c.read(until: "\n\n")
        #expect(first.contains("event: status\ndata: {\"reload\":false,\"fields\":{\"state\":\"idle\""))
        _ = try d.request(#"{"command":"start","activity":"running"}"#)
        let next = try c.read(until: "\"reload\":true")
        #expect(next.contains("\"reload\":true"))
        _ = try d.request(#"{"command":"stop"}"#)
    }

    /// Issue 45 item 10: with `web.listen` 0.0.0.0 the log said 127.0.0.1 (the URL's host). It
    /// says the address the socket really listens on, as a warning when other machines reach it.
    @Test func theLogSaysTheAddressReallyListenedOn() async throws {
        for (listen, shown, level) in [("0.0.0.0:0", "address=0.0.0.0:", "warning"), ("127.0.0.1:0", "address=127.0.0.1:", "info")] {
            let d = try EmbeddedDaemon(config: #"{"web": {"listen": "\#(listen)"}, "feeds": []}"#)
            try d.start()
            var seen = ""
            _ = pollUntil(seconds: 5) {
                seen += d.stderrText()
                return seen.contains("web.listening")
            }
            d.stop()
            let line = seen.split(separator: "\n").first { $0.contains("web.listening") }.map(String.init) ?? ""
            #expect(line.contains(shown) && line.contains(level), "\(listen): \(line)")
            #expect(line.contains("url=http://127.0.0.1:"), "the URL is still the loopback one: \(line)")
        }
    }

    @Test func webNullIsOffAndABusyPortIsLogged() async throws {
        let off = try EmbeddedDaemon(config: #"{"web": null, "feeds": []}"#)
        try off.start()
        let r = try off.ctl(["open", "--print"])
        #expect(r.status == 1 && r.stderr.contains("off"))
        off.stop()
        // Another process holds the port: the daemon runs on without pages.
        let blocker = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(blocker) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(blocker, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        listen(blocker, 1)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(blocker, $0, &len) } }
        let busy = try EmbeddedDaemon(config: #"{"web": {"listen": "127.0.0.1:\#(UInt16(bigEndian: addr.sin_port))"}, "feeds": []}"#)
        try busy.start()
        defer { busy.stop() }
        #expect((try busy.request(#"{"command":"status"}"#))["ok"] as? Bool == true)
        let open = try busy.ctl(["open", "--print"])
        #expect(open.status == 1 && open.stderr.contains("not available"))
        var log = ""
        #expect(pollUntil(seconds: 5) { log += busy.stderrText(); return log.contains("web.unavailable") }, "\(log)")
    }
}
