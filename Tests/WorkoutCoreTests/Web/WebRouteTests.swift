import Testing
@testable import WorkoutCore

@Suite struct WebRouteTests {
    func route(_ method: HTTPMethod, _ target: String) -> WebRoute {
        WebRoute(HTTPRequest(method: method, target: target, headers: [HTTPHeader("Host", "localhost:1")]))
    }

    @Test func pages() {
        let id = WorkoutID(rawValue: "20261121T093000Z-3f9a")!
        expectEqual(route(.get, "/"), .history(HistoryFilter()))
        expectEqual(route(.get, "/?activity=cycling&from=2026-01-02&page=3"), .history(HistoryFilter(activity: .cycling, from: StreakDay(year: 2026, month: 1, day: 2), page: 3)))
        expectEqual(route(.get, "/?activity=&from=bad"), .history(HistoryFilter()))
        expectEqual(route(.get, "/workouts/20261121T093000Z-3f9a"), .workout(id, WorkoutView()))
        expectEqual(route(.head, "/workouts/20261121T093000Z-3f9a?x=time&colour=hr"), .workout(id, WorkoutView(x: .time, colouring: .heartRate)))
        expectEqual(route(.get, "/workouts/20261121T093000Z-3f9a.gpx"), .download(id, .gpx))
        expectEqual(route(.get, "/workouts/20261121T093000Z-3f9a.fit"), .download(id, .fit))
        expectEqual(route(.get, "/workouts/20261121T093000Z-3f9a.json"), .notFound)
        expectEqual(route(.post, "/workouts/20261121T093000Z-3f9a"), .edit(id))
        expectEqual(route(.get, "/records"), .records)
        expectEqual(route(.get, "/calendar?year=2025"), .calendar(year: 2025))
        expectEqual(route(.get, "/live"), .live)
        expectEqual(route(.get, "/live/events"), .liveEvents)
        expectEqual(route(.get, "/static/app.css"), .asset(.style))
        expectEqual(route(.get, "/favicon.ico"), .favicon)
    }

    @Test func wrongPathsAndMethods() {
        expectEqual(route(.get, "/workouts/../../etc/passwd"), .notFound)
        expectEqual(route(.get, "/workouts/%2e%2e%2fx"), .notFound)
        expectEqual(route(.get, "/nope"), .notFound)
        expectEqual(route(.get, "/static/../app.css"), .notFound)
        expectEqual(route(.get, "/%zz"), .notFound)
        expectEqual(route(.post, "/records"), .methodNotAllowed(allow: "GET, HEAD"))
        expectEqual(route(.other("DELETE"), "/workouts/20261121T093000Z-3f9a"), .methodNotAllowed(allow: "GET, HEAD, POST"))
        expectEqual(route(.other("PUT"), "/nope"), .notFound)
    }
}
