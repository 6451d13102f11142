import Glibc
import WorkoutCore
import WorkoutSystem

/// Answers one request (on the web thread): access first (`WebAccess`), then the route
/// (`WebRoute`); the data comes from the backend, the pages from the core's renderers.
struct WebApp: Sendable {
    let access: WebAccess
    let keys: WebKeys
    let backend: WebBackend

    enum Answer {
        case response(HTTPResponse)
        /// The head of a Server-Sent Events stream; the connection then streams.
        case eventStream(HTTPResponse)
    }

    func context() -> WebPageContext {
        let s = backend.settings()
        return WebPageContext(units: s.units, calendar: s.calendar, now: SystemClock().read().realtime, formToken: access.formToken, version: s.version, tiles: s.tiles)
    }

    /// The answer to a request that could not be read.
    func refusal(_ e: HTTPParseError) -> HTTPResponse {
        HTTPResponse.text(e.status, e.description, headers: WebAccess.securityHeaders)
    }

    func respond(to request: HTTPRequest, on thread: WebThread, _ done: @escaping (Answer) -> Void) {
        switch access.decide(request, isSession: keys.isSession) {
        case .foreignHost(let host):
            done(.response(.text(.forbidden, "Host '\(host)' is not this server: open the pages at http://127.0.0.1:\(access.port)/", headers: WebAccess.securityHeaders)))
            return
        case .unauthorized:
            done(.response(.text(.unauthorized, "Unauthorized: open the pages with `workoutctl open`.", headers: WebAccess.securityHeaders + [HTTPHeader("WWW-Authenticate", "Token realm=\"workoutd\"")])))
            return
        case .enter(let token, let location):
            let session: String?
            do { session = try keys.redeem(token) } catch {
                done(.response(.text(.serviceUnavailable, "cannot make a session: \(error)", headers: WebAccess.securityHeaders)))
                return
            }
            guard let session else {
                done(.response(.text(.unauthorized, "Unauthorized: this address was used already or is from before a restart; open the pages with `workoutctl open`.", headers: WebAccess.securityHeaders + [HTTPHeader("WWW-Authenticate", "Token realm=\"workoutd\"")])))
                return
            }
            done(.response(HTTPResponse(status: .seeOther, headers: WebAccess.securityHeaders + [HTTPHeader("Location", location), HTTPHeader("Set-Cookie", access.setCookie(session: session))])))
            return
        case .allowed:
            break
        }
        let c = context()
        switch WebRoute(request) {
        case .history(let filter):
            done(.response(page(HistoryPage(summaries: backend.store.summaries(), filter: filter, recording: thread.liveSnapshot.isRecording).render(c))))
        case .workout(let id, let view):
            if let s = backend.store.summary(id), s.averagePower != nil {
                workoutPageWithSeason(s, view, c, thread: thread, done)
            } else {
                done(.response(workoutPage(id, view, c)))
            }
        case .download(let id, let format):
            done(.response(download(id, format, c)))
        case .edit(let id):
            edit(id, request, c, thread: thread, done)
        case .records:
            done(.response(page(RecordsPage(summaries: backend.store.summaries()).render(c, recording: thread.liveSnapshot.isRecording))))
        case .fitness(let days):
            fitnessPage(days, c, thread: thread, done)
        case .power(let days):
            powerPage(days, c, thread: thread, done)
        case .heatmap(let activity):
            done(.response(page(heatmapPage(activity, c, recording: thread.liveSnapshot.isRecording))))
        case .calendar(let year):
            done(.response(page(calendarPage(year, c, recording: thread.liveSnapshot.isRecording))))
        case .live:
            thread.refreshLive { done(.response(page(LivePage.render(thread.liveSnapshot, c)))) }
        case .liveEvents:
            done(.eventStream(HTTPResponse(status: .ok, headers: WebAccess.securityHeaders + [HTTPHeader("Content-Type", "text/event-stream"), HTTPHeader("X-Accel-Buffering", "no")])))
        case .asset(let a):
            done(.response(HTTPResponse(status: .ok, headers: WebAccess.securityHeaders.filter { !$0.is("cache-control") } + [HTTPHeader("Content-Type", a.contentType), HTTPHeader("Cache-Control", "no-cache")], body: a.bytes)))
        case .favicon:
            done(.response(HTTPResponse(status: .ok, headers: WebAccess.securityHeaders + [HTTPHeader("Content-Type", WebAsset.icon.contentType)], body: WebAsset.icon.bytes)))
        case .notFound:
            done(.response(page(PageLayout.message(title: "Not found", text: "There is no page at \(request.path).", context: c), status: .notFound)))
        case .methodNotAllowed(let allow):
            done(.response(HTTPResponse.text(.methodNotAllowed, "\(request.method.name) is not allowed here (\(allow))", headers: WebAccess.securityHeaders + [HTTPHeader("Allow", allow)])))
        }
    }

    /// A page: its CSP lets images come from the tile server of `web.tiles` too (a route may
    /// be drawn over its tiles), and from nowhere else.
    func page(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: WebAccess.securityHeaders(imagesFrom: backend.settings().tiles?.origin) + [HTTPHeader("Content-Type", "text/html; charset=utf-8")], body: body)
    }

    /// A page that answers instead of the one asked for (not found, unreadable).
    struct Refusal: Error { let response: HTTPResponse }

    func load(_ id: WorkoutID, _ c: WebPageContext) -> Result<Workout, Refusal> {
        load(id, c) { try $0.load(id) }
    }

    /// What `read` gives of a listed workout, or the page saying it is not found or unreadable.
    func load<T>(_ id: WorkoutID, _ c: WebPageContext, _ read: (HistoryStore) throws -> T) -> Result<T, Refusal> {
        guard backend.store.summary(id) != nil else {
            return .failure(Refusal(response: page(PageLayout.message(title: "Not found", text: "There is no saved workout \(id).", context: c), status: .notFound)))
        }
        do { return .success(try read(backend.store)) } catch {
            return .failure(Refusal(response: page(PageLayout.message(title: "Cannot read this workout", text: "\(error)", context: c), status: .internalServerError)))
        }
    }

    /// A workout's page, drawn from at most `HistoryStore.pagePoints` of its points: a file of
    /// millions costs no more memory than one of a day.
    func workoutPage(_ id: WorkoutID, _ view: WorkoutView, _ c: WebPageContext, season: [RangePowerPoint] = []) -> HTTPResponse {
        let loaded: (workout: Workout, every: Int)
        switch load(id, c, { try $0.loadForPage(id) }) {
        case .failure(let r): return r.response
        case .success(let l): loaded = l
        }
        let bests = PersonalRecords.bests(of: loaded.workout.summary, among: backend.store.summaries())
        var p = WorkoutPage(workout: loaded.workout, personalBests: bests, view: view)
        p.season = season
        p.pointStride = loaded.every
        return page(p.render(c))
    }

    func download(_ id: WorkoutID, _ format: ExportFormat, _ c: WebPageContext) -> HTTPResponse {
        switch load(id, c) {
        case .failure(let r): return r.response
        case .success(let w):
            if let refusal = Exporter.refusal(w, format) {
                return page(PageLayout.message(title: "No \(format.rawValue.uppercased()) for this workout", text: refusal.description, context: c), status: .notFound)
            }
            let type: String
            switch format {
            case .gpx: type = "application/gpx+xml"
            case .tcx: type = "application/vnd.garmin.tcx+xml"
            case .fit: type = "application/vnd.ant.fit"
            case .json: type = "application/json"
            }
            return HTTPResponse(status: .ok, headers: WebAccess.securityHeaders + [
                HTTPHeader("Content-Type", type),
                HTTPHeader("Content-Disposition", "attachment; filename=\"\(id.rawValue).\(format.rawValue)\""),
            ], body: Exporter.bytes(w, format))
        }
    }

    func calendarPage(_ year: Int?, _ c: WebPageContext, recording: Bool) -> [UInt8] {
        let summaries = backend.store.summaries()
        let history = summaries.map { StreakWorkout($0, utcOffset: nil) }
        let status = CalendarPage.streaks(year: year, summaries: summaries, calendar: c.calendar, now: c.now)
        let engine = HabitEngine(calendar: c.calendar.calendar)
        let habits = backend.settings().habits.map { engine.status($0, history: history, now: c.now) }
        return CalendarPage(summaries: summaries, year: year, streaks: status, habits: habits).render(c, recording: recording)
    }

    /// The edit form (POST): its token must be the form token; the change is the control
    /// protocol's `edit`, run on the daemon's loop like `workoutctl edit`; then back to the page.
    func edit(_ id: WorkoutID, _ request: HTTPRequest, _ c: WebPageContext, thread: WebThread, _ done: @escaping (Answer) -> Void) {
        let type = (request.header("content-type") ?? "").split(separator: ";").first.map { $0.trimmingSpaces.lowercasedASCII } ?? ""
        guard type == "application/x-www-form-urlencoded" else {
            done(.response(.text(.unsupportedMediaType, "the edit form is sent as application/x-www-form-urlencoded", headers: WebAccess.securityHeaders)))
            return
        }
        let form = PercentEncoding.form(String(decoding: request.body, as: UTF8.self))
        guard access.formTokenMatches(form) else {
            done(.response(.text(.forbidden, "this form does not carry the page's token", headers: WebAccess.securityHeaders)))
            return
        }
        guard let current = backend.store.summary(id) else {
            done(.response(page(PageLayout.message(title: "Not found", text: "There is no saved workout \(id).", context: c), status: .notFound)))
            return
        }
        let back = HTTPResponse(status: .seeOther, headers: WebAccess.securityHeaders + [HTTPHeader("Location", "/workouts/" + id.rawValue)])
        let change: WorkoutEdit
        switch WebEditForm.read(form, current: current) {
        case .edit(let e): change = e
        case .unchanged: done(.response(back)); return
        case .refused(let why):
            done(.response(page(PageLayout.message(title: "Not saved", text: why, context: c), status: .unprocessableContent)))
            return
        }
        let respond = thread.bound(done)
        backend.request(.edit(id, change)) { reply in
            thread.onWebThread {
                if reply["ok"]?.boolValue == true {
                    respond.value(.response(back))
                } else {
                    let message = reply["error"]?["message"]?.stringValue ?? "the edit failed"
                    respond.value(.response(self.page(PageLayout.message(title: "Not saved", text: message, context: c), status: .unprocessableContent)))
                }
            }
        }
    }
}
