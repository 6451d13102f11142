import Testing
@testable import WorkoutCore

/// Routes thinned for `/heatmap`, and the heat map drawn from them.
@Suite struct RouteSketchTests {
    static func workout(_ points: [(lat: Double, lon: Double, segment: Int, rejected: Bool)], activity: ActivityType = .running) -> Workout {
        let t0 = 1_795_000_000.0
        let track = points.enumerated().map { k, p in
            TrackPoint(fix: Fix(time: t0 + Double(k), latitude: p.lat, longitude: p.lon, mode: .threeD), rejection: p.rejected ? .tooFast : nil, segment: p.segment)
        }
        return Workout(summary: WorkoutSummary(id: WorkoutID(start: t0, suffix: 1), activity: activity, startedAt: t0), points: track)
    }

    @Test func keepsAPointEvery25MetresAndBreaksAtSegments() throws {
        // 1.3 m steps north for 100.1 m, a new segment, 100.1 m more; a rejected fix far away.
        var pts = (0...77).map { (lat: 48 + Double($0) * 1.3 / 111_195, lon: 11.5, segment: 0, rejected: false) }
        pts.append((lat: 10, lon: 10, segment: 0, rejected: true))
        pts += (0...77).map { (lat: 48.01 + Double($0) * 1.3 / 111_195, lon: 11.5, segment: 1, rejected: false) }
        let s = try #require(RouteSketch(Self.workout(pts)))
        expectEqual(s.pieces.count, 2)
        for p in s.pieces {
            expectEqual(p.count, 5)  // 0, 26, 52, 78 m and the piece's last, 100.1 m
            #expect(abs(Double(p.last!.x) - Double(p.first!.x) - 100.1 / 111_195) < 1e-6)
        }
        #expect(s.pieces.allSatisfy { $0.allSatisfy { $0.x > 47 } }, "the rejected fix stays out")
    }

    @Test func aLongTrackIsCappedAndNoPositionsIsNone() throws {
        let long = (0..<20_000).map { (lat: 48 + Double($0) * 30 / 111_195, lon: 11.5, segment: 0, rejected: false) }
        let s = try #require(RouteSketch(Self.workout(long)))
        expectLessOrEqual(s.pointCount, RouteSketch.maximumPoints + 1)
        expectNil(RouteSketch(Self.workout([(lat: 48, lon: 11, segment: 0, rejected: false)])))
    }

    @Test func theHeatmapDrawsEveryRouteAndLeavesOutTheFarthestPercent() throws {
        var routes: [RouteSketch] = []
        for k in 0..<200 {
            let lat = 48 + Double(k % 10) * 0.001
            routes.append(RouteSketch(activity: k % 2 == 0 ? .running : .cycling, pieces: [[SIMD2(Float(lat), 11.5), SIMD2(Float(lat), 11.51)]]))
        }
        routes.append(RouteSketch(activity: .running, pieces: [[SIMD2(-33.9, 151.2), SIMD2(-33.91, 151.21)]]))  // a trip abroad
        var w = HTMLWriter(capacity: 1 << 16)
        HeatmapChart(routes: routes).render(into: &w)
        let svg = String(decoding: w.bytes, as: UTF8.self)
        expectEqual(WebFixtures.charts(svg), ["heatmap"])
        expectEqual(svg.components(separatedBy: "<path ").count - 1, 201)
        let b = try #require(HeatmapChart(routes: routes).bounds())
        #expect(b.lat.lowerBound > 47 && b.lon.upperBound < 12, "\(b)")
        let page = WebFixtures.text(HeatmapPage(routes: routes, activity: nil, counts: [(.running, 101), (.cycling, 100)]).render(WebFixtures.context))
        #expect(page.contains("href=\"/heatmap?activity=cycling\"") && page.contains("Running (101)"))
    }
}
