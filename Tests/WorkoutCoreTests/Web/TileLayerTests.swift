import Foundation
import Testing
@testable import WorkoutCore

/// `web.tiles`: the template's checks (what a CSP may name), the tiles that cover a drawing,
/// and the route drawn in the same projection as the tiles.
struct TileLayerTests {
    @Test func aTemplateNamesOneOriginAndFillsItsPlaceholders() throws {
        let t = try TileLayer(template: "https://tile.example.org/base/{z}/{x}/{y}.png?key=abc&v=2", attribution: "© Someone")
        #expect(t.origin == "https://tile.example.org")
        #expect(t.url(z: 13, x: 4297, y: 2868) == "https://tile.example.org/base/13/4297/2868.png?key=abc&v=2")
        #expect(try TileLayer(template: "http://127.0.0.1:8080/{z}/{y}/{x}").origin == "http://127.0.0.1:8080")
        #expect(try TileLayer(template: "http://[::1]:9/{z}/{x}/{y}").origin == "http://[::1]:9")
    }

    /// What would put a second origin, a quote or a directive into the CSP or the page is refused
    /// in words.
    @Test func hostileOrOddTemplatesAreRefusedInWords() {
        let cases: [(String, TileLayer.Problem)] = [
            ("ftp://tile.example/{z}/{x}/{y}.png", .scheme),
            ("//tile.example/{z}/{x}/{y}.png", .scheme),
            ("https://{z}/{x}/{y}.png", .host),
            ("https://tile.example", .host),
            ("https://user@tile.example/{z}/{x}/{y}", .host),
            ("https://tile.example;script-src */{z}/{x}/{y}", .host),
            ("https://tile.example:99999/{z}/{x}/{y}", .port),
            ("https://{s}.tile.example/{z}/{x}/{y}.png", .host),
            ("https://tile.example/{s}/{z}/{x}/{y}.png", .placeholder("s")),
            ("https://tile.example/{z}/{x}.png", .missing("y")),
            ("https://tile.example/{z}/{x}/{y}/{x}.png", .missing("x")),
            ("https://tile.example/{z}/{x}/{y}.png\"onload=\"x", .character("\"")),
            ("https://tile.example/{z}/{x}/{y}.png; img-src *", .character(";")),
            ("https://tile.example/{z}/{x}/{y} .png", .character(" ")),
        ]
        for (template, problem) in cases {
            #expect(throws: problem, "\(template)") { try TileLayer(template: template) }
        }
        #expect(TileLayer.Problem.placeholder("s").description.contains("{s}"))
    }

    /// The tiles cover the whole drawing, at the zoom whose tiles show closest to 256 px, and
    /// each sits where its corner's world coordinates fall.
    @Test func theTilesCoverTheDrawing() throws {
        let t = try TileLayer(template: "https://t.example/{z}/{x}/{y}.png")
        let centre = TileLayer.world(latitude: 47.37, longitude: 8.54)
        let ppu = 6000.0  // ~ zoom 12.55: tiles of 256 * 6000 / 2^13 = 187 px at zoom 13
        let tiles = t.cover(width: 1000, height: 600, centre: centre, pixelsPerUnit: ppu)
        #expect(!tiles.isEmpty && tiles.count <= TileLayer.maxTiles)
        #expect(tiles.allSatisfy { $0.url.hasPrefix("https://t.example/13/") }, "\(tiles.first?.url ?? "")")
        #expect(abs(tiles[0].size - 256 * ppu / 8192) < 1e-9)
        #expect(tiles.map(\.x).min()! <= 0 && tiles.map { $0.x + $0.size }.max()! >= 1000)
        #expect(tiles.map(\.y).min()! <= 0 && tiles.map { $0.y + $0.size }.max()! >= 600)
        // Tile (x, y) of zoom 13 starts at world (x, y) * 256 / 8192.
        for tile in tiles {
            let parts = tile.url.dropFirst("https://t.example/".count).dropLast(4).split(separator: "/").compactMap { Double($0) }
            let wx = parts[1] * 256 / 8192, wy = parts[2] * 256 / 8192
            #expect(abs(500 + (wx - centre.x) * ppu - tile.x) < 1e-6)
            #expect(abs(300 + (wy - centre.y) * ppu - tile.y) < 1e-6)
        }
        // A drawing of the whole world at a small scale asks for few tiles, not thousands.
        #expect(t.cover(width: 1000, height: 680, centre: (128, 128), pixelsPerUnit: 3).count <= TileLayer.maxTiles)
    }

    /// With tiles the route is drawn in Web Mercator: a point of the track sits on the drawing
    /// where its world coordinates put it relative to the tiles; the attribution is written,
    /// escaped; without tiles nothing names a tile server.
    @Test func theRouteIsDrawnOverTheTilesInTheirProjection() throws {
        let workout = WebFixtures.ride(points: 2000)
        let series = WorkoutSeries(workout: workout)
        var map = RouteMap(series: series, colouring: .pace, zoneBounds: [])
        var plain = HTMLWriter(capacity: 1 << 16)
        _ = map.render(into: &plain, label: "Route")
        let plainText = String(decoding: plain.bytes, as: UTF8.self)
        #expect(!plainText.contains("<image") && plainText.contains("graticule"))

        map.tiles = try TileLayer(template: "https://t.example/{z}/{x}/{y}.png", attribution: "© <Maps> & co")
        var w = HTMLWriter(capacity: 1 << 16)
        _ = try #require(map.render(into: &w, label: "Route"))
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(text.contains("<g class=\"tiles\"><image href=\"https://t.example/"))
        #expect(text.contains("© &lt;Maps&gt; &amp; co"))
        #expect(!text.contains("graticule"))
        // The start marker against the tile it falls in.
        let start = try #require(text.range(of: #"class="start" cx="([0-9.]+)" cy="([0-9.]+)""#, options: .regularExpression))
        let nums = text[start].split(separator: "\"").compactMap { Double($0) }
        let images = text.matches(of: /<image href="https:\/\/t.example\/(\d+)\/(\d+)\/(\d+).png" x="(-?[0-9.]+)" y="(-?[0-9.]+)" width="([0-9.]+)"/)
        #expect(!images.isEmpty)
        let first = try #require(workout.points.first)
        let world = TileLayer.world(latitude: first.fix.latitude, longitude: first.fix.longitude)
        var placed = false
        for m in images {
            let z = Double(m.1)!, tx = Double(m.2)!, ty = Double(m.3)!, x = Double(m.4)!, y = Double(m.5)!, size = Double(m.6)! - 0.5
            let unit = 256 / pow(2, z)
            let fx = (world.x - tx * unit) / unit, fy = (world.y - ty * unit) / unit
            guard (0..<1).contains(fx), (0..<1).contains(fy) else { continue }
            placed = true
            #expect(abs(x + fx * size - nums[0]) < 0.6, "start x \(nums[0]) vs tile \(x + fx * size)")
            #expect(abs(y + fy * size - nums[1]) < 0.6, "start y \(nums[1]) vs tile \(y + fy * size)")
        }
        #expect(placed, "no tile under the start")
    }

    @Test func theConfigurationReadsTilesAndRefusesBadOnes() throws {
        let c = try Config.decode(json: #"{"web": {"tiles": "https://tile.example/{z}/{x}/{y}.png", "tilesAttribution": "© OSM"}}"#)
        #expect(c.web?.tiles?.origin == "https://tile.example")
        #expect(c.web?.tiles?.attribution == "© OSM")
        #expect(c.web?.port == 8765)
        #expect(try Config.decode(json: "{}").web?.tiles == nil)
        #expect(throws: ConfigError.self) { try Config.decode(json: #"{"web": {"tiles": "https://a.example/{z}/{x}.png"}}"#) }
        #expect(throws: ConfigError.self) { try Config.decode(json: #"{"web": {"tilesAttribution": "© OSM"}}"#) }
        let keys = Config.problems(json: #"{"web": {"tiles": "javascript:alert(1)"}}"#)
        #expect(keys.map(\.key) == ["web.tiles"], "\(keys)")
        #expect(keys.first?.problem.contains("https://") == true)
    }

    @Test func theCSPNamesTheTileOriginForImagesAlone() {
        let plain = WebAccess.securityHeaders.first { $0.is("content-security-policy") }?.value ?? ""
        let tiled = WebAccess.securityHeaders(imagesFrom: "https://tile.example").first { $0.is("content-security-policy") }?.value ?? ""
        #expect(plain.contains("img-src 'self' data:;"))
        #expect(tiled == plain.replacingOccurrences(of: "img-src 'self' data:;", with: "img-src 'self' data: https://tile.example;"))
    }
}
