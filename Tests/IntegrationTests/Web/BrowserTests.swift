import Foundation
import Testing
import TestRequirements

/// Every page of the daemon (embedded) in a real headless Chromium (Debian's `chromium`), one browser for all of them,
/// driven over the DevTools protocol by `cdp_pages.py`: HTTP 200, no console error (CSP
/// violations included), no request beyond the daemon's own address, and the script's hover
/// on a chart. The history holds real files from ../shared/data; a workout records meanwhile,
/// so the live page has something to show. The test awaits the browser (`runSuspending`): its
/// ~10 s hold no pool thread. Skipped (with the reason) without chromium or the shared data,
/// except under CI=true, where it fails instead.
@Suite(.serialized) struct BrowserTests {
    static let chromium = "/usr/lib/chromium/chromium"
    @Test(.requires(.program(.chromium), .sharedData))
    func everyPageLoadsCleanly() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.chromium), "chromium is not installed")
        let (d, port, token) = try WebServerTests.daemon()
        defer { d.stop() }
        let data = DaemonHarness.sharedRoot.appendingPathComponent("data").path
        let files = ["fit/garmin-fenix-5-bike.fit", "fit/garmin-fenix-5-run.fit", "tcx/gtrnctr_power.tcx", "gpx/garmin-oregon-700-output.gpx"].map { data + "/" + $0 }
        let imported = try d.ctl(["--json", "import"] + files)
        let ids = ((try DaemonHarness.parse(imported.stdout.replacingOccurrences(of: "\n", with: "")))["results"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids.count == files.count, "\(imported.stdout) \(imported.stderr)")
        _ = try d.request(#"{"command":"start","activity":"running"}"#)
        defer { _ = try? d.request(#"{"command":"stop"}"#) }
        let base = "http://127.0.0.1:\(port)"
        var urls = ["\(base)/?token=\(token)", "\(base)/", "\(base)/records", "\(base)/calendar", "\(base)/live",
                    "\(base)/fitness", "\(base)/fitness?days=730", "\(base)/power", "\(base)/power?days=all", "\(base)/heatmap", "\(base)/heatmap?activity=running"]
        urls += ids.map { "\(base)/workouts/\($0)" }
        if let first = ids.first { urls.append("\(base)/workouts/\(first)?x=time&colour=hr") }
        let script = DaemonHarness.projectRoot.appendingPathComponent("Tests/IntegrationTests/Web/cdp_pages.py").path
        let args = ["/usr/bin/env", "python3", script, "--chromium", Self.chromium, "--hover"] + urls
        let r = try await Reliability.runSuspending(args)
        #expect(r.status == 0, "cdp_pages.py: \(r.err)")
        let pages = r.out.split(separator: "\n").compactMap { try? DaemonHarness.parse(String($0)) }
        #expect(pages.count == urls.count, "\(r.out) \(r.err)")
        for p in pages {
            let url = p["url"] as? String ?? "?"
            #expect(p["status"] as? Int == 200, "\(url): status \(String(describing: p["status"]))")
            #expect((p["errors"] as? [Any])?.isEmpty == true, "\(url): \(String(describing: p["errors"]))")
            #expect((p["foreign"] as? [Any])?.isEmpty == true, "\(url): requests beyond loopback \(String(describing: p["foreign"]))")
        }
        let charts = pages.map { ($0["url"] as? String ?? "", $0["charts"] as? [String] ?? []) }
        #expect(charts.first { $0.0.hasSuffix("/") }?.1 == ["volume"])
        #expect(charts.first { $0.0.hasSuffix("/calendar") }?.1 == ["calendar"])
        for (url, c) in charts where url.contains("/fitness") { #expect(c == ["fitness"], "\(url): \(c)") }
        for (url, c) in charts where url.contains("/power") { #expect(c == ["power-curve"], "\(url): \(c)") }
        for (url, c) in charts where url.contains("/heatmap") { #expect(c == ["heatmap"], "\(url): \(c)") }
        // The ride with power (gtrnctr_power.tcx) shows its own power curve.
        #expect(charts.contains { $0.0.contains("/workouts/\(ids[2])") && $0.1.contains("power-curve") }, "\(charts)")
        for (url, c) in charts where url.contains("/workouts/") { #expect(c.contains("route") || c.contains("heartrate"), "\(url): \(c)") }
        let hovered = pages.filter { ($0["url"] as? String ?? "").contains("/workouts/") }.compactMap { $0["hover"] as? String }
        #expect(!hovered.isEmpty, "no hover label appeared over a chart")
    }

    /// `web.tiles` set to a tile server on loopback (`tile_server.py`): the workout's route is
    /// drawn over tiles the browser loads from that server, the page's CSP names that origin
    /// (no console error, every tile loaded), nothing else is fetched, and a page without a
    /// route asks for no tile. The attribution the user set is on the map.
    @Test(.requires(.program(.chromium), .sharedData))
    func routeOverTilesFromTheConfiguredServer() async throws {
        let tiles = Process()
        tiles.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tiles.arguments = ["python3", DaemonHarness.projectRoot.appendingPathComponent("Tests/IntegrationTests/Web/tile_server.py").path]
        let input = Pipe(), output = Pipe()
        tiles.standardInput = input; tiles.standardOutput = output
        try tiles.run()
        defer { try? input.fileHandleForWriting.close(); tiles.waitUntilExit() }
        var head = Data()
        while !head.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            head.append(chunk)
        }
        let tilePort = try #require(Int(String(decoding: head, as: UTF8.self).split(separator: "\n").first ?? ""))
        let origin = "http://127.0.0.1:\(tilePort)"
        let config = #"{"web": {"listen": "127.0.0.1:0", "tiles": "ORIGIN/{z}/{x}/{y}.png", "tilesAttribution": "© Test tiles <b>"}, "feeds": []}"#
            .replacingOccurrences(of: "ORIGIN", with: origin)
        let d = try EmbeddedDaemon(config: config)
        try d.start()
        defer { d.stop() }
        let open = try d.ctl(["open", "--print"])
        let url = try #require(URLComponents(string: open.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let port = try #require(url.port), token = try #require(url.queryItems?.first { $0.name == "token" }?.value)
        let file = DaemonHarness.sharedRoot.appendingPathComponent("data/fit/garmin-fenix-5-run.fit").path
        let imported = try d.ctl(["--json", "import", file])
        let id = try #require(((try DaemonHarness.parse(imported.stdout.replacingOccurrences(of: "\n", with: "")))["results"] as? [[String: Any]])?.first?["id"] as? String,
                              "\(imported.stdout) \(imported.stderr)")
        let base = "http://127.0.0.1:\(port)"
        let script = DaemonHarness.projectRoot.appendingPathComponent("Tests/IntegrationTests/Web/cdp_pages.py").path
        let urls = ["\(base)/?token=\(token)", "\(base)/workouts/\(id)", "\(base)/records"]
        let r = try await Reliability.runSuspending(["/usr/bin/env", "python3", script, "--chromium", Self.chromium, "--allow", origin] + urls)
        #expect(r.status == 0, "cdp_pages.py: \(r.err)")
        let pages = r.out.split(separator: "\n").compactMap { try? DaemonHarness.parse(String($0)) }
        #expect(pages.count == urls.count, "\(r.out) \(r.err)")
        for p in pages {
            let u = p["url"] as? String ?? "?"
            #expect(p["status"] as? Int == 200, "\(u): status \(String(describing: p["status"]))")
            #expect((p["errors"] as? [Any])?.isEmpty == true, "\(u): \(String(describing: p["errors"]))")
            #expect((p["foreign"] as? [Any])?.isEmpty == true, "\(u): \(String(describing: p["foreign"]))")
        }
        let workout = try #require(pages.first { ($0["url"] as? String ?? "").contains("/workouts/") })
        let asked = workout["allowed"] as? [String] ?? []
        #expect(!asked.isEmpty, "the route's page asked the tile server for nothing")
        #expect(workout["allowedLoaded"] as? Int == asked.count, "tiles asked \(asked.count), loaded \(String(describing: workout["allowedLoaded"]))")
        #expect(asked.allSatisfy { $0.range(of: #"^http://127\.0\.0\.1:\d+/\d+/\d+/\d+\.png$"#, options: .regularExpression) != nil }, "\(asked)")
        for p in pages where !(p["url"] as? String ?? "").contains("/workouts/") {
            #expect((p["allowed"] as? [Any])?.isEmpty == true, "\(p["url"] ?? "?") has no route, yet asked for tiles")
        }
        // The page itself: the CSP names the tile server for images and for nothing else, and
        // the attribution is on the map, escaped.
        let cookie = try WebServerTests.enter(UInt16(port), try WebServerTests.freshToken(d))
        let page = try WebClient.get(UInt16(port), "/workouts/\(id)", cookie: cookie)
        let csp = page.header("Content-Security-Policy") ?? ""
        #expect(csp.contains("img-src 'self' data: \(origin);"), "\(csp)")
        #expect(csp.components(separatedBy: origin).count == 2, "the tile origin appears outside img-src: \(csp)")
        #expect(page.text.contains("class=\"attribution\""), "no attribution on the map")
        #expect(page.text.contains("© Test tiles &lt;b&gt;"), "the attribution is not escaped")
    }
}
