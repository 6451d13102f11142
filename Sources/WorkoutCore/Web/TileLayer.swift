import func Glibc.cos
import func Glibc.log
import func Glibc.log2
import func Glibc.tan
import func Glibc.floor

/// The opt-in base map under routes (`web.tiles`): a slippy-map tile URL template the user
/// sets (`https://tile.example/{z}/{x}/{y}.png`, Web Mercator, 256-pixel tiles) and the
/// attribution its provider asks for. The browser fetches the tiles; the daemon never does.
/// The template is checked so that its origin can be named in the pages'
/// Content-Security-Policy (`img-src`) and nothing else: http or https, a host of letters,
/// digits, dots and hyphens (or a bracketed IPv6 address), an optional port, and a path whose
/// only placeholders are `{z}`, `{x}` and `{y}`, each once.
public struct TileLayer: Sendable, Equatable {
    public let template: String
    /// `https://tile.example` or `http://127.0.0.1:8080`: what the CSP names.
    public let origin: String
    public var attribution: String?

    /// Highest zoom asked for: the usual servers stop at 19.
    public static let maxZoom = 19
    /// Most tiles one drawing asks for.
    public static let maxTiles = 48

    /// Why a template cannot be used, in words (a configuration error names it).
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case scheme
        case host
        case port
        case placeholder(String)
        case character(Character)
        case missing(String)

        public var description: String {
            switch self {
            case .scheme: return "must start with https:// or http://"
            case .host: return "needs a host name of letters, digits, '.' and '-' (or [IPv6]) after the scheme"
            case .port: return "has a port that is not a number from 1 to 65535"
            case .placeholder(let p): return "has the placeholder {\(p)}; only {z}, {x} and {y} are filled in (one server, no {s} subdomains)"
            case .character(let c): return "contains \(c.unicodeScalars.first.map { $0.value < 0x21 || $0.value > 0x7e ? "a space or control or non-ASCII character" : "'\(c)'" } ?? "an odd character"), which a tile URL cannot carry here"
            case .missing(let p): return "needs {\(p)} exactly once (each of {z}, {x} and {y} once)"
            }
        }
    }

    public init(template: String, attribution: String? = nil) throws(Problem) {
        let scheme: String
        if template.hasPrefix("https://") { scheme = "https://" } else if template.hasPrefix("http://") { scheme = "http://" } else { throw .scheme }
        let rest = template.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" }
        guard !authority.isEmpty, authority.count < rest.count else { throw .host }
        var host = Substring(authority), port: Substring? = nil
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw .host }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") { port = after.dropFirst() } else if !after.isEmpty { throw .host }
            host = host[host.startIndex...close]
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }), host.count > 2 else { throw .host }
        } else {
            if let colon = host.firstIndex(of: ":") { port = host[host.index(after: colon)...]; host = host[..<colon] }
            guard !host.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }),
                  !host.hasPrefix("."), !host.hasPrefix("-") else { throw .host }
        }
        if let p = port {
            guard let n = Int(p), (1...65535).contains(n), p.allSatisfy(\.isASCII) else { throw .port }
        }
        // The path: URL characters a double-quoted attribute and a CSP leave alone.
        let path = rest.dropFirst(authority.count)
        var seen: [String: Int] = [:]
        var k = path.startIndex
        while k < path.endIndex {
            let c = path[k]
            if c == "{" {
                guard let close = path[k...].firstIndex(of: "}") else { throw .character(c) }
                let name = String(path[path.index(after: k)..<close])
                guard ["z", "x", "y"].contains(name) else { throw .placeholder(name) }
                seen[name, default: 0] += 1
                k = path.index(after: close)
                continue
            }
            guard let a = c.asciiValue, a > 0x20, a < 0x7f, !"\"'<>\\`^|{};,".contains(c) else { throw .character(c) }
            k = path.index(after: k)
        }
        for name in ["z", "x", "y"] where seen[name] != 1 { throw .missing(name) }
        self.template = template
        self.origin = scheme + String(authority)
        self.attribution = attribution
    }

    /// The URL of tile (x, y) at zoom z.
    public func url(z: Int, x: Int, y: Int) -> String {
        var s = ""
        s.reserveCapacity(template.utf8.count + 8)
        var k = template.startIndex
        while k < template.endIndex {
            if template[k] == "{", let close = template[k...].firstIndex(of: "}") {
                switch template[template.index(after: k)..<close] {
                case "z": s += String(z)
                case "x": s += String(x)
                default: s += String(y)
                }
                k = template.index(after: close)
            } else {
                s.append(template[k]); k = template.index(after: k)
            }
        }
        return s
    }

    /// One tile placed on a drawing: its URL and its box in the drawing's pixels.
    public struct Placed: Sendable, Equatable {
        public var url: String
        public var x: Double, y: Double, size: Double
    }

    /// The tiles that cover a drawing `width` x `height` pixels whose centre is at Web
    /// Mercator world coordinates (`centre`, in units of the 256-pixel world at zoom 0) and
    /// which draws `pixelsPerUnit` pixels per world unit: the zoom whose tiles show closest to
    /// 256 pixels (at most `maxZoom`), fewer zooms when more than `maxTiles` would be needed.
    public func cover(width: Double, height: Double, centre: (x: Double, y: Double), pixelsPerUnit: Double) -> [Placed] {
        guard pixelsPerUnit.isFinite, pixelsPerUnit > 0 else { return [] }
        var z = min(TileLayer.maxZoom, max(0, Int(log2(pixelsPerUnit).rounded())))
        while true {
            let n = 1 << z
            let size = 256 / Double(n) * pixelsPerUnit  // one tile, in drawing pixels
            let left = centre.x - width / 2 / pixelsPerUnit, top = centre.y - height / 2 / pixelsPerUnit
            let unit = 256 / Double(n)
            let x0 = Int(floor(left / unit)), x1 = Int(floor((left + width / pixelsPerUnit) / unit))
            let y0 = max(0, Int(floor(top / unit))), y1 = min(n - 1, Int(floor((top + height / pixelsPerUnit) / unit)))
            if (x1 - x0 + 1) * max(0, y1 - y0 + 1) > TileLayer.maxTiles, z > 0 { z -= 1; continue }
            var out: [Placed] = []
            guard y0 <= y1 else { return out }
            for ty in y0...y1 {
                for tx in x0...x1 {
                    let wrapped = ((tx % n) + n) % n
                    out.append(Placed(url: url(z: z, x: wrapped, y: ty),
                                      x: width / 2 + (Double(tx) * unit - centre.x) * pixelsPerUnit,
                                      y: height / 2 + (Double(ty) * unit - centre.y) * pixelsPerUnit, size: size))
                }
            }
            return out
        }
    }

    /// Web Mercator world coordinates (0-256 at zoom 0) of a position in degrees; latitudes
    /// beyond ±85.05° are held there, as the tiles end.
    public static func world(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let phi = max(-85.05112878, min(85.05112878, latitude)) * Double.pi / 180
        return ((longitude + 180) / 360 * 256, (1 - log(tan(Double.pi / 4 + phi / 2)) / Double.pi) / 2 * 256)
    }

    /// Metres on the ground per world unit at `latitude`.
    public static func metersPerUnit(latitude: Double) -> Double {
        2 * Double.pi * 6_378_137 * cos(latitude * Double.pi / 180) / 256
    }
}
