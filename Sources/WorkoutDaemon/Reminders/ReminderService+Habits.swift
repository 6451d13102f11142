import WorkoutCore

/// Habits and totals: the engine evaluates, the service logs what it returns.
extension ReminderService {
    func habitEngine() -> HabitEngine { HabitEngine(calendar: streakCalculator().0.calendar) }

    /// One entry per configured habit for the `streak` reply (docs/streaks.md, "JSON").
    func habitsJSON(history: [StreakWorkout], now t: Double) -> JSON {
        let engine = habitEngine()
        return .array(config.habits.map { h in
            let s = engine.status(h, history: history, now: t)
            let risk = HabitRiskCheck.evaluate(s, now: t, engine: engine, defaultRemindMinute: config.streaks.reminderHour * 60, lastWarnedPeriod: nil)
            var atRisk = false
            if case .warn = risk { atRisk = true }
            func day(_ d: StreakDay?) -> JSON { .string(d?.iso) }
            return [
                "name": .string(h.name), "per": .string(h.per.rawValue),
                "activities": .array(h.activities.map(\.rawValue).sorted().map { .string($0) }),
                "kind": .string(h.target.kind), "target": .number(s.target), "progress": .number(s.progress),
                "left": .number(s.left), "leftText": .string(HabitText.left(h, s.left, units: UnitFormatter(config.units)) + " left"), "done": .bool(s.done),
                "dueToday": .bool(s.dueToday), "daysToGo": .int(s.dueDaysLeft),
                "periodStart": day(s.periodStart), "periodEnd": day(s.periodEnd),
                "current": .int(s.current?.length ?? 0), "best": .int(s.best?.length ?? 0),
                "currentStart": day(s.current?.start), "currentEnd": day(s.current?.end),
                "bestStart": day(s.best?.start), "bestEnd": day(s.best?.end),
                "skipsUsed": .int(s.current?.skips ?? 0), "skipAvailable": .bool(s.coverable), "atRisk": .bool(atRisk),
            ]
        })
    }

    /// Each habit's at-risk warning, once per period (called with the daily streak's check).
    func checkHabitRisks() {
        guard !config.habits.isEmpty else { return }
        let engine = habitEngine()
        let history = streakHistory()
        let t = now()
        for h in config.habits {
            let s = engine.status(h, history: history, now: t)
            switch HabitRiskCheck.evaluate(s, now: t, engine: engine, defaultRemindMinute: config.streaks.reminderHour * 60,
                                           lastWarnedPeriod: habitWarnings[h.name]) {
            case .warn(var risk):
                habitWarnings[h.name] = risk.period
                risk.units = UnitFormatter(config.units)
                log(HabitLogEvent.atRisk(risk))
            case .quiet:
                break
            }
        }
    }

    /// `habit.done` and `habit.best` for a saved workout.
    func announceHabitsAfterSave(_ w: RecordedWorkout) {
        guard !config.habits.isEmpty else { return }
        for e in HabitReport.events(saving: StreakWorkout(w.summary), into: streakHistory(excluding: w.id), habits: config.habits,
                                    now: now(), engine: habitEngine()) { log(e) }
    }

    /// The `totals` reply: this and the previous period from the saved summaries.
    func totalsJSON(_ per: TotalsPeriod, activity: ActivityType?) -> JSON {
        PeriodTotals(summaries: store.summaries(), per: per, activity: activity, now: now(), calendar: streakCalculator().0.calendar).json()
    }
}
