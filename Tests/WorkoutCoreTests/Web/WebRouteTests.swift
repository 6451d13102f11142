import Testing
@testable import WorkoutCore

@Suite struct WebRouteTests {
    func route(_ method: HTTPMethod, _ target: String) -> WebRoute {
        WebRoute(HTTPRequest(method: method, target: target, headers: [HTTPHeader("Host", "localhost:1")]))
    }

    @Test func pages() {
        let id = WorkoutID(rawValue: "20261121T093000Z-3f9a")!
        #expect(route(.get, "/") == .history(HistoryFilter()))
        #expect(route(.get, "/?activity=cycling&from=2026-01-02&page=3") == .history(HistoryFilter(activity: .cycling, from: StreakDay(year: 2026, month: 1, day: 2), page: 3)))
        #expect(route(.get, "/?activity=&from=bad") == .history(HistoryFilter()))
        #expect(route(.get, "/workouts/20261121T093000Z-3f9a") == .workout(id, WorkoutView()))
        #expect(route(.head, "/workouts/20261121T093000Z-3f9a?x=time&colour=hr") == .workout(id, WorkoutView(x: .time, colouring: .heartRate)))
        #expect(route(.get, "/workouts/20261121T093000Z-3f9a.gpx") == .download(id, .gpx))
        #expect(route(.get, "/workouts/20261121T093000Z-3f9a.fit") == .download(id, .fit))
        #expect(route(.get, "/workouts/20261121T093000Z-3f9a.json") == .notFound)
        #expect(route(.post, "/workouts/20261121T093000Z-3f9a") == .edit(id))
        #expect(route(.get, "/records") == .records)
        #expect(route(.get, "/calendar?year=2025") == .calendar(year: 2025))
        #expect(route(.get, "/live") == .live)
        #expect(route(.get, "/live/events") == .liveEvents)
        #expect(route(.get, "/static/app.css") == .asset(.style))
        #expect(route(.get, "/favicon.ico") == .favicon)
    }

    @Test func wrongPathsAndMethods() {
        #expect(route(.get, "/workouts/../../etc/passwd") == .notFound)
        #expect(route(.get, "/workouts/%2e%2e%2fx") == .notFound)
        #expect(route(.get, "/nope") == .notFound)
        #expect(route(.get, "/static/../app.css") == .notFound)
        #expect(route(.get, "/%zz") == .notFound)
        #expect(route(.post, "/records") == .methodNotAllowed(allow: "GET, HEAD"))
        #expect(route(.other("DELETE"), "/workouts/20261121T093000Z-3f9a") == .methodNotAllowed(allow: "GET, HEAD, POST"))
        #expect(route(.other("PUT"), "/nope") == .notFound)
    }
}
