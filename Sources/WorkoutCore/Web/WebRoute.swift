/// What a request asks for: the pages and files of docs/web.md, matched from method and path
/// alone (pure; the shell fetches the data and renders).
public enum WebRoute: Sendable, Equatable {
    case history(HistoryFilter)
    case workout(WorkoutID, WorkoutView)
    /// `/workouts/ID.gpx|.tcx|.fit`.
    case download(WorkoutID, ExportFormat)
    /// POST `/workouts/ID`: the edit form.
    case edit(WorkoutID)
    case records
    /// `/fitness?days=N`: load, fitness, fatigue and form over the last N days.
    case fitness(days: Int)
    /// `/power?days=N|all`: the power curve over the last N days (nil: all time).
    case power(days: Int?)
    /// `/heatmap?activity=A`: every route at once (nil: every activity).
    case heatmap(ActivityType?)
    case calendar(year: Int?)
    case live
    /// `/live/events`: Server-Sent Events.
    case liveEvents
    case asset(WebAsset)
    /// `/favicon.ico`: browsers ask for it by themselves.
    case favicon
    case notFound
    /// The path exists, not with this method; `allow` lists those that do.
    case methodNotAllowed(allow: String)

    public init(_ request: HTTPRequest) {
        guard let path = PercentEncoding.decode(request.path) else { self = .notFound; return }
        let query = request.query
        let isPost: Bool
        switch request.method {
        case .get, .head: isPost = false
        case .post: isPost = true
        case .other:
            self = WebRoute.match(path: path, query: query, post: false).allowedMethods.map { .methodNotAllowed(allow: $0) } ?? .notFound
            return
        }
        let route = WebRoute.match(path: path, query: query, post: isPost)
        if isPost, case .notFound = route, let allow = WebRoute.match(path: path, query: query, post: false).allowedMethods {
            self = .methodNotAllowed(allow: allow)
        } else if !isPost, case .notFound = route, WebRoute.match(path: path, query: query, post: true) != .notFound {
            self = .methodNotAllowed(allow: "POST")
        } else {
            self = route
        }
    }

    static func match(path: String, query: Substring, post: Bool) -> WebRoute {
        if post {
            guard path.hasPrefix("/workouts/"), let id = WorkoutID(rawValue: String(path.dropFirst("/workouts/".count))) else { return .notFound }
            return .edit(id)
        }
        switch path {
        case "/": return .history(HistoryFilter(query: query))
        case "/records": return .records
        case "/fitness": return .fitness(days: FitnessPage.span(query: query))
        case "/power": return .power(days: PowerPage.span(query: query))
        case "/heatmap": return .heatmap(PercentEncoding.form(query).first { $0.name == "activity" }.flatMap { ActivityType(rawValue: $0.value) })
        case "/calendar":
            let year = PercentEncoding.form(query).first { $0.name == "year" }.flatMap { Int($0.value) }
            return .calendar(year: year)
        case "/live": return .live
        case "/live/events": return .liveEvents
        case "/favicon.ico": return .favicon
        default: break
        }
        if path.hasPrefix("/static/"), let a = WebAsset(rawValue: String(path.dropFirst("/static/".count))) { return .asset(a) }
        guard path.hasPrefix("/workouts/") else { return .notFound }
        let rest = String(path.dropFirst("/workouts/".count))
        if let dot = rest.lastIndex(of: ".") {
            guard let id = WorkoutID(rawValue: String(rest[..<dot])) else { return .notFound }
            switch rest[rest.index(after: dot)...] {
            case "gpx": return .download(id, .gpx)
            case "tcx": return .download(id, .tcx)
            case "fit": return .download(id, .fit)
            default: return .notFound
            }
        }
        guard let id = WorkoutID(rawValue: rest) else { return .notFound }
        return .workout(id, WorkoutView(query: query))
    }

    /// The methods a GET route answers ("GET, HEAD"), nil for not found.
    var allowedMethods: String? {
        switch self {
        case .notFound, .methodNotAllowed: return nil
        case .workout: return "GET, HEAD, POST"
        case .edit: return "POST"
        case .history, .download, .records, .fitness, .power, .heatmap, .calendar, .live, .liveEvents, .asset, .favicon: return "GET, HEAD"
        }
    }
}
