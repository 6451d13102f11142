import WorkoutCore

/// `fitness`, `power-curve` and `records`: computed on the reader from the summaries the store holds (the
/// index's), never from a workout file; nothing is kept between requests.
extension HistoryService {
    /// The reply to `request`; `zone` gives local days, `now` today.
    func analytics(_ request: AnalyticsRequest, zone: ZoneRules, now: Double) -> ControlReply {
        let store = self.store, thresholds = config.measuring.trainingThresholds, settings = config.measuring, cache = powerCurves
        return onReader { w in
            switch HistoryService.analyticsReply(request, store: store, thresholds: thresholds, settings: settings, cache: cache, zone: zone, now: now) {
            case .success(let fields): w.value(ControlServer.okReply(fields))
            case .failure(let e): w.value(ControlServer.errorReply(e))
            }
        }
    }

    /// The reply's members (any thread: the store is thread-safe).
    static func analyticsReply(_ request: AnalyticsRequest, store: HistoryStore, thresholds: TrainingThresholds,
                               settings: MetricsSettings, cache: PowerCurveCache, zone: ZoneRules, now: Double) -> Result<[(String, JSON)], ProtocolError> {
        let localDay = { (t: Double) in zone.localDay(t) }
        switch request {
        case .fitness(let range):
            let to = range.to ?? localDay(now)
            let from = range.from ?? to.adding(days: -(FitnessModel.defaultDays - 1))
            guard to.dayNumber - from.dayNumber < FitnessModel.maximumDays else {
                return .failure(.badRequest("a range of at most \(FitnessModel.maximumDays) days, not \(from.iso) to \(to.iso)"))
            }
            let stresses = store.summaries { s in TrainingStress.of(s, thresholds: thresholds).map { (startedAt: s.startedAt, stress: $0.value) } }
            let days = FitnessModel.days(loads: FitnessModel.loads(stresses, localDay: localDay), from: from, to: to)
            return .success(FitnessReply(days: days, today: localDay(now)).members)
        case .powerCurve(let activity, let range):
            let inRange = { (s: WorkoutSummary) -> Bool in
                guard s.averagePower != nil, activity == nil || s.activity == activity else { return false }
                let day = localDay(s.startedAt)
                return (range.from.map { day >= $0 } ?? true) && (range.to.map { day <= $0 } ?? true)
            }
            // Three members of each summary, not the whole ~50 (5,000 copied and sorted whole).
            let workouts = store.summaries { inRange($0) ? PowerCurveCache.Entry($0) : nil }
            let measured = cache.curves(of: workouts, settings: settings, load: store.load)
            var reply = PowerCurveReply(curve: PowerCurve.best(of: measured.curves))
            reply.workouts = measured.curves.count
            reply.measured = measured.computed
            reply.unreadable = measured.failed
            return .success(reply.members)
        case .records(let activity):
            return .success(TrainingRecords.reply(store.summaries(), activity: activity).members)
        }
    }
}
