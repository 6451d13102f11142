/// Who may see the pages (docs/web.md, "Security"): a pure decision on one request. The
/// secrets are the shell's (`WebKeys`: random, new at each start, never in a file); this
/// decides with them.
///
/// - The `Host` header must name a loopback address (127.0.0.0/8, ::1) or `localhost`, with the
///   server's port: anything else is a page reached through DNS rebinding and is refused.
/// - A token comes in the URL that `workoutctl open` gives (`?token=...`): `enter`, which the
///   shell honours once (the token is single-use) by setting a cookie with a new random session
///   id, not the token (HttpOnly, SameSite=Strict), and redirecting to the same path without it.
/// - After that the session's cookie lets the browser in; without either: 401, nothing else.
/// - A POST must carry the form token, a secret of its own (`formTokenMatches`).
public struct WebAccess: Sendable {
    public var port: UInt16
    /// The edit form's anti-forgery token: neither the URL token nor a session id.
    public var formToken: String

    public init(port: UInt16, formToken: String) { self.port = port; self.formToken = formToken }

    public enum Decision: Sendable, Equatable {
        case allowed
        /// 403: the Host header names another server.
        case foreignHost(String)
        /// 401.
        case unauthorized
        /// The URL carries `token`: when it is the one issued (the shell redeems it once), 303
        /// to `location` (the target without the token), setting a new session's cookie; else 401.
        case enter(token: String, location: String)
    }

    /// The cookie's name: per port, since browsers share cookies across a host's ports.
    public var cookieName: String { "workoutd_\(port)" }

    /// The `Set-Cookie` value the `enter` redirect carries.
    public func setCookie(session: String) -> String { "\(cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict" }

    /// `isSession`: whether a cookie's value is a live session (the shell's sessions).
    public func decide(_ request: HTTPRequest, isSession: (String) -> Bool) -> Decision {
        let host = request.header("host") ?? ""
        guard hostIsLocal(host) else { return .foreignHost(host) }
        let query = request.query
        if !query.isEmpty {
            var rest: [Substring] = []
            var given: String?
            for piece in query.split(separator: "&", omittingEmptySubsequences: true) {
                if piece.hasPrefix("token=") { given = PercentEncoding.decode(piece.dropFirst(6), plusIsSpace: true) ?? "" } else { rest.append(piece) }
            }
            if let given {
                guard !given.isEmpty else { return .unauthorized }
                let path = WebAccess.onOrigin(request.path)
                return .enter(token: given, location: rest.isEmpty ? path : path + "?" + rest.joined(separator: "&"))
            }
        }
        return sessionCookies(request).contains(where: isSession) ? .allowed : .unauthorized
    }

    /// A redirect's path that stays on this origin: `path` when it begins with a single `/`,
    /// else `/`. `//host/` and `/\host/` are read by browsers as another server.
    static func onOrigin(_ path: Substring) -> String {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/") else { return "/" }
        let second = bytes.dropFirst().first
        guard second != UInt8(ascii: "/"), second != UInt8(ascii: "\\") else { return "/" }
        return String(path)
    }

    /// The values of our cookie the request carries.
    public func sessionCookies(_ request: HTTPRequest) -> [String] {
        let name = cookieName
        var out: [String] = []
        for header in request.headers(named: "cookie") {
            for pair in header.split(separator: ";") {
                let p = pair.trimmingSpaces
                guard let eq = p.firstIndex(of: "="), p[..<eq] == name else { continue }
                out.append(String(p[p.index(after: eq)...]))
            }
        }
        return out
    }

    /// Whether a POSTed form's `token` field is the form token.
    public func formTokenMatches(_ form: [(name: String, value: String)]) -> Bool {
        form.contains { $0.name == "token" && WebAccess.same($0.value, formToken) }
    }

    /// `127.x.y.z:PORT`, `[::1]:PORT` or `localhost:PORT` (without the port only when it is 80).
    public func hostIsLocal(_ host: String) -> Bool {
        var name = Substring(host.lowercasedASCII)
        var portText: Substring?
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            let after = name[name.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return false }
            name = name[name.index(after: name.startIndex)..<close]
        } else if let colon = name.lastIndex(of: ":") {
            portText = name[name.index(after: colon)...]
            name = name[..<colon]
        }
        let hostPort = portText.map { UInt16($0) } ?? 80
        guard let hp = hostPort, hp == port else { return false }
        if name == "localhost" || name == "::1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { o in !o.isEmpty && o.count <= 3 && o.allSatisfy(\.isASCII) && UInt8(o) != nil }
    }

    /// Compares in time independent of where the strings differ.
    public static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for k in x.indices { diff |= x[k] ^ y[k] }
        return diff == 0
    }

    /// The headers every response carries: a Content-Security-Policy that allows the page's
    /// own origin alone (no inline script or style, no frames, forms post back here only), no
    /// sniffing, no referrer, no caching of private pages.
    public static let securityHeaders: [HTTPHeader] = securityHeaders(imagesFrom: nil)

    /// The same headers, with images also allowed from `origin` (the tile server of
    /// `web.tiles`, already checked by `TileLayer`) and from nowhere else.
    public static func securityHeaders(imagesFrom origin: String?) -> [HTTPHeader] {
        [
            HTTPHeader("Content-Security-Policy", "default-src 'self'; img-src 'self' data:\(origin.map { " " + $0 } ?? ""); style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"),
            HTTPHeader("X-Content-Type-Options", "nosniff"),
            HTTPHeader("Referrer-Policy", "no-referrer"),
            HTTPHeader("X-Frame-Options", "DENY"),
            HTTPHeader("Cache-Control", "no-store"),
        ]
    }
}
