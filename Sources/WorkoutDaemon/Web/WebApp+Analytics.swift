import WorkoutCore

/// `/fitness` and `/power`: their figures are the control protocol's `fitness` and
/// `power-curve` replies (run on the daemon's loop and its history reader, as `workoutctl`'s),
/// drawn on the web thread.
extension WebApp {
    func fitnessPage(_ span: Int, _ c: WebPageContext, thread: WebThread, _ done: @escaping (Answer) -> Void) {
        let today = c.zone.localDay(c.now)
        let respond = thread.bound(done)
        let recording = thread.liveSnapshot.isRecording
        backend.request(.analytics(.fitness(DayRange(from: today.adding(days: -(span - 1)), to: today)))) { reply in
            thread.onWebThread {
                guard reply["ok"]?.boolValue == true else { respond.value(.response(self.failed(reply, c))); return }
                let days = FitnessReply(json: reply).days
                respond.value(.response(self.page(FitnessPage(days: days, today: today, span: span).render(c, recording: recording))))
            }
        }
    }

    func powerPage(_ span: Int?, _ c: WebPageContext, thread: WebThread, _ done: @escaping (Answer) -> Void) {
        let today = c.zone.localDay(c.now)
        let respond = thread.bound(done)
        let recording = thread.liveSnapshot.isRecording
        let ranges: [DayRange] = span.map { n in
            [DayRange(from: today.adding(days: -(n - 1)), to: today), DayRange(from: today.adding(days: -(2 * n - 1)), to: today.adding(days: -n)), DayRange()]
        } ?? [DayRange()]
        let backend = self.backend
        // The ranges one after the other; the page when all have answered.
        @Sendable func ask(_ k: Int, _ curves: [[RangePowerPoint]]) {
            guard k < ranges.count else {
                thread.onWebThread {
                    let page = PowerPage(current: curves[0], previous: curves.count > 1 ? curves[1] : [], allTime: curves.last ?? [], span: span)
                    respond.value(.response(self.page(page.render(c, recording: recording))))
                }
                return
            }
            backend.request(.analytics(.powerCurve(nil, ranges[k]))) { reply in
                guard reply["ok"]?.boolValue == true else {
                    thread.onWebThread { respond.value(.response(self.failed(reply, c))) }
                    return
                }
                ask(k + 1, curves + [PowerCurveReply(json: reply).curve])
            }
        }
        ask(0, [])
    }

    /// A workout with power: its page with the power curve of its activity's last 365 days
    /// (`power-curve`), or without it when that cannot be had.
    func workoutPageWithSeason(_ s: WorkoutSummary, _ view: WorkoutView, _ c: WebPageContext, thread: WebThread, _ done: @escaping (Answer) -> Void) {
        let today = c.zone.localDay(c.now)
        let respond = thread.bound(done)
        backend.request(.analytics(.powerCurve(s.activity, DayRange(from: today.adding(days: -364), to: today)))) { reply in
            let season = PowerCurveReply(json: reply).curve
            thread.onWebThread { respond.value(.response(self.workoutPage(s.id, view, c, season: season))) }
        }
    }

    /// `/heatmap`: every route, read once from the files (on this thread, never the loop) and
    /// kept (`RouteSketchCache`).
    func heatmapPage(_ activity: ActivityType?, _ c: WebPageContext, recording: Bool) -> [UInt8] {
        let all = backend.routes.sketches(of: backend.store.summaries(), load: backend.store.load).sketches
        var counts: [ActivityType: Int] = [:]
        for r in all { counts[r.activity, default: 0] += 1 }
        let routes = activity.map { a in all.filter { $0.activity == a } } ?? all
        let listed = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }.map { ($0.key, $0.value) }
        return HeatmapPage(routes: routes, activity: activity, counts: listed).render(c, recording: recording)
    }

    private func failed(_ reply: JSON, _ c: WebPageContext) -> HTTPResponse {
        page(PageLayout.message(title: "Cannot compute this page", text: reply["error"]?["message"]?.stringValue ?? "the daemon did not answer",
                                context: c), status: .internalServerError)
    }
}
